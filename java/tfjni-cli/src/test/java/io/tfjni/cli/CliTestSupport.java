package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import io.tfjni.TestProcesses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Test support for the CLI: running {@link Main} in this JVM and bin/tfjni as a subprocess
 * ({@link TestProcesses} runs TensorFlow Python's saved_model_cli, the oracle).
 */
final class CliTestSupport {
  private CliTestSupport() {}

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

  /**
   * Runs bin/tfjni over this test's class path (the CLI's classes and its dependencies; the
   * runnable jar is only made after the tests).
   */
  static Outcome tfjni(Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestProcesses.repositoryRoot().resolve("bin/tfjni").toString());
    command.addAll(Arrays.asList(args));
    Map<String, String> environment = new java.util.HashMap<>(env);
    environment.putIfAbsent("TFJNI_CLASSPATH", System.getProperty("java.class.path"));
    environment.putIfAbsent("TFJNI_MODELS", TestModels.dir().toString());
    return TestProcesses.process(command, environment, 120);
  }

  static Outcome tfjni(String... args) {
    return tfjni(Map.of(), args);
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
