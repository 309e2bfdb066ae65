package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test classpath in a fresh JVM, for what a JVM does once only: load
 * native libraries, read the settings it starts with.
 */
final class ChildJvm {
  private ChildJvm() {}

  /** How the child ended: its exit code and all it wrote, stderr merged into stdout. */
  record Outcome(int exitCode, String output) {}

  /**
   * Runs {@code mainClass} with {@code args} under this JVM's java binary and classpath, with
   * {@code jvmOptions} before the class. The child's environment is this one less the variables
   * {@code unset} (so the parent's own settings do not leak in), plus {@code env}. Fails the test
   * if the child runs longer than 120 s.
   */
  static Outcome run(List<String> jvmOptions, Class<?> mainClass, List<String> args,
      List<String> unset, Map<String, String> env) throws Exception {
    return run(System.getProperty("java.class.path"), jvmOptions, mainClass, args, unset, env);
  }

  /** As above, with another class path. */
  static Outcome run(String classPath, List<String> jvmOptions, Class<?> mainClass,
      List<String> args, List<String> unset, Map<String, String> env) throws Exception {
    Process process = builder(classPath, jvmOptions, mainClass, args, unset, env).start();
    String output;
    try (InputStream in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "child JVM timed out");
    return new Outcome(process.exitValue(), output);
  }

  /** Starts the child as {@link #run} does, its output discarded, and leaves it to the caller. */
  static Process start(List<String> jvmOptions, Class<?> mainClass, List<String> args,
      List<String> unset, Map<String, String> env) throws Exception {
    return builder(System.getProperty("java.class.path"), jvmOptions, mainClass, args, unset, env)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
  }

  private static ProcessBuilder builder(String classPath, List<String> jvmOptions,
      Class<?> mainClass, List<String> args, List<String> unset, Map<String, String> env) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass.getName());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    for (String name : unset) {
      builder.environment().remove(name);
    }
    builder.environment().putAll(env);
    return builder;
  }
}
