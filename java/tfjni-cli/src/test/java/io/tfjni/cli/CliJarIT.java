package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.TestModels;
import io.tfjni.TestProcesses;
import io.tfjni.TestProcesses.Outcome;
import io.tfjni.internal.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar as a user runs it (an integration test: after {@code package}): {@code java
 * -jar tfjni-cli-VERSION.jar run ...} in a fresh home directory, with the runtime artifact where
 * docs/CLI.md says it may be: in the local Maven repository, beside the CLI's jar, or named by
 * {@code -Dtfjni.tensorflow.jar} / {@code TFJNI_TENSORFLOW_JAR}; and without it, the one line
 * that says where it looked and what to do, which, followed, works.
 */
class CliJarIT {
  /** x = np.ones((2, 3)) through multi's scale: scaled = 2x, total = sum(x) = 6. */
  private static final String SCALED_ONES = String.join("\n",
      "Result for output key scaled:",
      "[[2. 2. 2.]",
      " [2. 2. 2.]]",
      "Result for output key total:",
      "6.0",
      "");

  @TempDir
  Path work;

  private Path home;
  private Path cliJar;

  @BeforeEach
  void installTheCliJar() throws IOException {
    home = Files.createDirectories(work.resolve("home"));
    Path dist = Files.createDirectories(work.resolve("dist"));
    cliJar = dist.resolve("tfjni-cli-" + System.getProperty("tfjni.test.cli.version") + ".jar");
    Files.copy(Path.of(System.getProperty("tfjni.test.cli.jar")), cliJar);
  }

  /** The runtime artifact as Maven installed it for this build. */
  private static Path runtimeArtifact() {
    String version = System.getProperty("tfjni.test.tensorflow.version");
    Path jar = Path.of(System.getProperty("tfjni.test.maven.repository"), "io", "tfjni",
        "tfjni-tensorflow-cpu", version, fileName());
    assertTrue(Files.isRegularFile(jar), "no runtime artifact at " + jar
        + " (scripts/release/runtime-artifact.sh installs it)");
    return jar;
  }

  private static String fileName() {
    return "tfjni-tensorflow-cpu-" + System.getProperty("tfjni.test.tensorflow.version") + "-"
        + Platform.current().id() + ".jar";
  }

  @Test
  void findsTheRuntimeArtifactInTheLocalMavenRepository() throws IOException {
    Path repository = Files.createDirectories(home.resolve(".m2/repository/io/tfjni/"
        + "tfjni-tensorflow-cpu/" + System.getProperty("tfjni.test.tensorflow.version")));
    Files.createSymbolicLink(repository.resolve(fileName()), runtimeArtifact());
    assertRunsScale(javaJar(List.of(), Map.of()));
    Outcome version = javaJar(List.of(), Map.of(), "--version");
    assertEquals(0, version.exitCode(), version.toString());
    assertTrue(version.out().contains("libtensorflow: "), version.out());
  }

  @Test
  void findsTheRuntimeArtifactBesideTheCliJar() throws IOException {
    Files.createSymbolicLink(cliJar.resolveSibling(fileName()), runtimeArtifact());
    assertRunsScale(javaJar(List.of(), Map.of()));
  }

  @Test
  void takesTheRuntimeArtifactNamedBySystemPropertyOrEnvironment() {
    assertRunsScale(javaJar(List.of("-Dtfjni.tensorflow.jar=" + runtimeArtifact()), Map.of()));
    assertRunsScale(javaJar(List.of(), Map.of("TFJNI_TENSORFLOW_JAR",
        runtimeArtifact().toString())));
  }

  @Test
  void withoutItSaysWhereItLookedAndTheAdviceWorks() throws IOException {
    Outcome missing = javaJar(List.of(), Map.of());
    assertEquals(1, missing.exitCode(), missing.toString());
    assertEquals(1, missing.errLines().size(), missing.toString());
    String line = missing.errLines().get(0);
    String besideCli = cliJar.resolveSibling(fileName()).toString();
    String inMaven = home.resolve(".m2/repository/io/tfjni/tfjni-tensorflow-cpu/"
        + System.getProperty("tfjni.test.tensorflow.version") + "/" + fileName()).toString();
    for (String expected : List.of("tfjni: cannot load TensorFlow: ",
        "libtensorflow was looked for in: ", "system property tfjni.tensorflow.jar",
        besideCli + " (not there)", inMaven + " (not there)",
        "the dynamic linker's search path",
        "mvn dependency:get -Dartifact=io.tfjni:tfjni-tensorflow-cpu:"
            + System.getProperty("tfjni.test.tensorflow.version") + ":jar:"
            + Platform.current().id(),
        "or copy " + fileName() + " into " + cliJar.getParent(),
        "-Dtfjni.tensorflow.jar=FILE")) {
      assertTrue(line.contains(expected), "'" + expected + "' in: " + line);
    }
    // Follow the advice: copy the artifact into the directory the line names.
    Files.copy(runtimeArtifact(), cliJar.resolveSibling(fileName()));
    assertRunsScale(javaJar(List.of(), Map.of()));
  }

  @Test
  void aNamedFileThatIsNotThereOrNotAnArtifactIsOneLine() throws IOException {
    // The loader's UnsatisfiedLinkError, which the CLI prints as "cannot load TensorFlow".
    Path nowhere = work.resolve("nowhere.jar");
    Outcome absent = javaJar(List.of("-Dtfjni.tensorflow.jar=" + nowhere), Map.of());
    assertEquals(1, absent.exitCode(), absent.toString());
    assertEquals(List.of("tfjni: cannot load TensorFlow: tfjni: system property"
        + " tfjni.tensorflow.jar names " + nowhere + ", which is not a file"), absent.errLines());
    Outcome notArtifact = javaJar(List.of("-Dtfjni.tensorflow.jar=" + cliJar), Map.of());
    assertEquals(1, notArtifact.exitCode(), notArtifact.toString());
    assertEquals(List.of("tfjni: cannot load TensorFlow: tfjni: " + cliJar + " (from system"
        + " property tfjni.tensorflow.jar) is not a TensorFlow runtime artifact: it has no io/tfjni/"
        + "tensorflow/" + Platform.current().id() + "/libraries.properties"),
        notArtifact.errLines());
  }

  private static void assertRunsScale(Outcome outcome) {
    assertEquals(0, outcome.exitCode(), outcome.toString());
    assertEquals(SCALED_ONES, outcome.out(), outcome.toString());
  }

  /**
   * {@code java JVM_OPTIONS -jar tfjni-cli-VERSION.jar ARGS} in the fresh home, with no tfjni
   * setting from this JVM's environment; no ARGS is the scale run on np.ones((2,3)). The
   * extracted libtensorflow is shared with the other tests through the usual cache.
   */
  private Outcome javaJar(List<String> jvmOptions, Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Duser.home=" + home);
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(cliJar.toString());
    command.addAll(args.length > 0 ? List.of(args) : List.of("run", "--dir",
        TestModels.dir().resolve("multi").toString(), "--signature_def", "scale",
        "--input_exprs", "x=np.ones((2,3))"));
    Map<String, String> environment = new HashMap<>();
    for (String inherited : List.of("TFJNI_TENSORFLOW_DIR", "TFJNI_TENSORFLOW_JAR",
        "TFJNI_LIBRARY_DIR", "LD_LIBRARY_PATH", "XDG_CACHE_HOME")) {
      environment.put(inherited, ""); // empty is unset, for tfjni and the dynamic linker
    }
    environment.put("TFJNI_CACHE_DIR", sharedCache().toString());
    environment.putAll(env);
    return TestProcesses.process(command, environment, 300);
  }

  /** This user's tfjni cache, where the runtime artifact's libraries are already extracted. */
  private static Path sharedCache() {
    String own = System.getenv("TFJNI_CACHE_DIR");
    if (own != null && !own.isEmpty()) {
      return Path.of(own);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    return xdg != null && !xdg.isEmpty() ? Path.of(xdg, "tfjni")
        : Path.of(System.getProperty("user.home"), ".cache", "tfjni");
  }
}
