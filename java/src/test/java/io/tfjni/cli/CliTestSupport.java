package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfjni.TestModels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Test support for the CLI: running {@link Main} in this JVM, running bin/tfjni and TensorFlow
 * Python's saved_model_cli (the oracle) as subprocesses, and finding them.
 */
final class CliTestSupport {
  /** System property: the venv's saved_model_cli (scripts/test.sh sets it). */
  static final String SAVED_MODEL_CLI_PROPERTY = "tfjni.test.saved_model_cli";

  private CliTestSupport() {}

  /** What a command printed and returned. */
  record Outcome(int exitCode, String out, String err) {
    /** The stderr lines, without empty ones. */
    List<String> errLines() {
      List<String> lines = new ArrayList<>();
      for (String line : err.split("\n")) {
        if (!line.isBlank()) {
          lines.add(line);
        }
      }
      return lines;
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout:\n" + out + "\n--- stderr:\n" + err;
    }
  }

  /** Runs the CLI in this JVM. */
  static Outcome inProcess(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = Main.execute(args, o, e);
    }
    return new Outcome(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /** The repository's root (the parent of java/, where Maven runs the tests). */
  static Path root() {
    Path java = Path.of("").toAbsolutePath();
    Path root = java.getParent();
    if (root == null || !Files.isRegularFile(root.resolve("bin/tfjni"))) {
      fail("cannot find bin/tfjni above " + java + " (run the tests from java/)");
    }
    return root;
  }

  /**
   * Runs bin/tfjni over this build's classes (target/classes and target/lib, which Maven fills
   * before the tests; the jar is only made after them).
   */
  static Outcome tfjni(Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>();
    command.add(root().resolve("bin/tfjni").toString());
    command.addAll(Arrays.asList(args));
    Path target = Path.of("target").toAbsolutePath();
    Map<String, String> environment = new java.util.HashMap<>(env);
    environment.putIfAbsent("TFJNI_CLASSPATH",
        target.resolve("classes") + ":" + target.resolve("lib") + "/*");
    environment.putIfAbsent("TFJNI_MODELS", TestModels.dir().toString());
    return process(command, environment, 120);
  }

  static Outcome tfjni(String... args) {
    return tfjni(Map.of(), args);
  }

  /** Runs a command, feeding it no input; fails the test if it does not end in time. */
  static Outcome process(List<String> command, Map<String, String> env, int timeoutSeconds) {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    try {
      Process process = builder.start();
      CompletableFuture<String> out = drain(process.getInputStream());
      CompletableFuture<String> err = drain(process.getErrorStream());
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail(command + " did not finish in " + timeoutSeconds + " s");
      }
      return new Outcome(process.exitValue(), out.join(), err.join());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Starts a command in the background; join the future for its outcome. */
  static CompletableFuture<Outcome> start(List<String> command, Map<String, String> env,
      int timeoutSeconds) {
    return CompletableFuture.supplyAsync(() -> process(command, env, timeoutSeconds));
  }

  private static CompletableFuture<String> drain(InputStream stream) {
    return CompletableFuture.supplyAsync(() -> {
      try (InputStream in = stream) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /**
   * The TensorFlow venv's bin directory: from {@value #SAVED_MODEL_CLI_PROPERTY} if set, else
   * from the TensorFlow directory the build used (VENV/lib/python3.X/site-packages/tensorflow).
   */
  static Path venvBin() {
    String cli = System.getProperty(SAVED_MODEL_CLI_PROPERTY);
    if (cli != null && !cli.isBlank()) {
      Path path = Path.of(cli);
      assertTrue(Files.isExecutable(path), SAVED_MODEL_CLI_PROPERTY + "=" + cli
          + " is not an executable saved_model_cli");
      return path.toAbsolutePath().getParent();
    }
    String tensorflowDir = System.getProperty("tfjni.test.tensorflow.dir");
    if (tensorflowDir == null || tensorflowDir.isBlank()) {
      tensorflowDir = buildProperty("tensorflow.dir");
    }
    if (tensorflowDir == null || tensorflowDir.isBlank()) {
      return fail("set -D" + SAVED_MODEL_CLI_PROPERTY + "=VENV/bin/saved_model_cli: the CLI tests"
          + " compare with TensorFlow Python's saved_model_cli");
    }
    Path venv = Path.of(tensorflowDir).toAbsolutePath().getParent().getParent().getParent()
        .getParent();
    Path bin = venv.resolve("bin");
    if (!Files.isExecutable(bin.resolve("saved_model_cli"))) {
      fail("no saved_model_cli in " + bin + " (derived from TensorFlow dir " + tensorflowDir
          + "); set -D" + SAVED_MODEL_CLI_PROPERTY);
    }
    return bin;
  }

  static Path savedModelCli() {
    return venvBin().resolve("saved_model_cli");
  }

  static Path python() {
    return venvBin().resolve("python");
  }

  private static String buildProperty(String name) {
    try (InputStream in = CliTestSupport.class.getResourceAsStream("/io/tfjni/build.properties")) {
      if (in == null) {
        return null;
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty(name);
    } catch (IOException e) {
      return null;
    }
  }

  /** Environment for TensorFlow Python subprocesses: quiet. */
  static Map<String, String> pythonEnv() {
    return Map.of("TF_CPP_MIN_LOG_LEVEL", "2", "PYTHONDONTWRITEBYTECODE", "1");
  }

  static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String readString(Path file) {
    return new String(read(file), StandardCharsets.UTF_8);
  }
}
