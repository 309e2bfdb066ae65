package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Test support: runs commands (TensorFlow Python, its saved_model_cli, tfjni's launcher) as
 * subprocesses, and finds the project's TensorFlow venv, the tests' oracle.
 */
public final class TestProcesses {
  /** System property: the venv's saved_model_cli (scripts/test.sh sets it). */
  public static final String SAVED_MODEL_CLI_PROPERTY = "tfjni.test.saved_model_cli";

  private TestProcesses() {}

  /** The repository's root: the nearest directory above the module's that holds bin/tfjni. */
  public static Path repositoryRoot() {
    Path module = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path dir = module; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("bin/tfjni"))) {
        return dir;
      }
    }
    return fail("no bin/tfjni above " + module + " (run the tests from the checkout's java/)");
  }

  /** What a command printed and returned. */
  public record Outcome(int exitCode, String out, String err) {
    /** The stderr lines, without empty ones. */
    public List<String> errLines() {
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

  /** Runs a command, feeding it no input; fails the test if it does not end in time. */
  public static Outcome process(List<String> command, Map<String, String> env, int timeoutSeconds) {
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
  public static CompletableFuture<Outcome> start(List<String> command, Map<String, String> env,
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
   * from {@code tfjni.test.tensorflow.dir} (VENV/lib/python3.X/site-packages/tensorflow).
   */
  public static Path venvBin() {
    String cli = System.getProperty(SAVED_MODEL_CLI_PROPERTY);
    if (cli != null && !cli.isBlank()) {
      Path path = Path.of(cli);
      assertTrue(Files.isExecutable(path), SAVED_MODEL_CLI_PROPERTY + "=" + cli
          + " is not an executable saved_model_cli");
      return path.toAbsolutePath().getParent();
    }
    String tensorflowDir = System.getProperty("tfjni.test.tensorflow.dir");
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

  public static Path savedModelCli() {
    return venvBin().resolve("saved_model_cli");
  }

  public static Path python() {
    return venvBin().resolve("python");
  }

  /**
   * Runs a Python script ({@code python -c}) of the venv with {@code directory} as its one
   * argument ({@code sys.argv[1]}), quietly, for at most {@code timeoutSeconds}.
   */
  public static Outcome runPython(String script, Path directory, int timeoutSeconds) {
    return process(List.of(python().toString(), "-c", script, directory.toString()), pythonEnv(),
        timeoutSeconds);
  }

  /** Environment for TensorFlow Python subprocesses: quiet. */
  public static Map<String, String> pythonEnv() {
    return Map.of("TF_CPP_MIN_LOG_LEVEL", "2", "PYTHONDONTWRITEBYTECODE", "1");
  }
}
