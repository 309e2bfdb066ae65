package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.ChildJvm.Outcome;
import io.tfjni.internal.NativeLibrary;
import io.tfjni.internal.Platform;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where LiteRT's runtime library is found: a setting, else LiteRT's runtime artifact on the class
 * path ({@code io.tfjni:tfjni-litert}, a test dependency), each case in a fresh JVM (a process
 * opens LiteRT once). TensorFlow comes from the venv's directory, so that only LiteRT's artifact
 * is extracted.
 */
class LiteRtLoadingTest {
  @TempDir Path temp;

  private static final Platform HOST = Platform.current();
  /** multi.tflite's add of [1, 2, 3, 4] and [10, 20, 30, 40], as LiteRtProbe prints it. */
  private static final String SUM = "sum=[11.0, 22.0, 33.0, 44.0]";

  /** Settings of the parent that must not reach a child, which sets its own. */
  private static final List<String> UNSET = List.of(NativeLibrary.LITERT_LIBRARY_ENV,
      NativeLibrary.TENSORFLOW_DIR_ENV, NativeLibrary.LIBRARY_DIR_ENV, "TFJNI_CACHE_DIR",
      "LD_LIBRARY_PATH");

  /** The library the parent's tests open (-Dtfjni.litert.library, scripts/common.sh). */
  private static Path configuredLibrary() {
    String library = System.getProperty(NativeLibrary.LITERT_LIBRARY_PROPERTY, "");
    assertTrue(!library.isEmpty(), "set -Dtfjni.litert.library (scripts/common.sh)");
    return Path.of(library);
  }

  /** The probe on {@code classPath}, with a cache of its own and {@code options}. */
  private Outcome runProbe(String classPath, String... options) throws Exception {
    List<String> jvmOptions = new ArrayList<>(List.of(options));
    jvmOptions.add("-Dtfjni.cache.dir=" + temp.resolve("cache"));
    jvmOptions.add("-D" + NativeLibrary.TENSORFLOW_DIR_PROPERTY + "="
        + System.getProperty("tfjni.test.tensorflow.dir"));
    return ChildJvm.run(classPath, jvmOptions, LiteRtProbe.class,
        List.of(TestModels.dir().toString()), UNSET, Map.of());
  }

  private static String classPath() {
    return System.getProperty("java.class.path");
  }

  /** This class path less LiteRT's runtime artifact. */
  private static String classPathWithoutArtifact() {
    List<String> entries = new ArrayList<>();
    boolean found = false;
    for (String entry : classPath().split(File.pathSeparator)) {
      if (Path.of(entry).getFileName().toString().startsWith("tfjni-litert-")) {
        found = true;
      } else {
        entries.add(entry);
      }
    }
    assertTrue(found, "LiteRT's runtime artifact is not on the test class path");
    return String.join(File.pathSeparator, entries);
  }

  /** A class-path directory laid out like LiteRT's artifact for this platform, with its index. */
  private Path fakeArtifact(String name, String index) throws IOException {
    Path libraries = Files.createDirectories(
        temp.resolve(name).resolve("io/tfjni/litert/" + HOST.id()));
    Files.writeString(libraries.resolve("libraries.properties"), index);
    return temp.resolve(name);
  }

  @Test
  void aModelRunsWithOnlyTheArtifactOnTheClassPath() throws Exception {
    Outcome outcome = runProbe(classPath());
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("litert=" + temp.resolve("cache").resolve("litert")
        .resolve("1.4.0-" + HOST.id() + "-cpu-")), outcome.output());
    assertTrue(outcome.output().contains("/" + NativeLibrary.LITERT_LIBRARY_FILE + "\n"),
        outcome.output());
    assertTrue(outcome.output().contains(SUM), outcome.output());
  }

  @Test
  void theSettingWinsOverTheArtifact() throws Exception {
    Outcome outcome = runProbe(classPath(),
        "-D" + NativeLibrary.LITERT_LIBRARY_PROPERTY + "=" + configuredLibrary());
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("litert=" + configuredLibrary() + "\n"),
        outcome.output());
    assertTrue(outcome.output().contains(SUM), outcome.output());
    assertTrue(Files.notExists(temp.resolve("cache").resolve("litert")), "nothing extracted");
  }

  @Test
  void neitherSettingNorArtifactIsAnExceptionNamingEach() throws Exception {
    Outcome outcome = runProbe(classPathWithoutArtifact());
    assertEquals(4, outcome.exitCode(), outcome.output());
    for (String named : List.of("io.tfjni:tfjni-litert:1.4.0 with the classifier " + HOST.id(),
        NativeLibrary.LITERT_LIBRARY_PROPERTY, NativeLibrary.LITERT_LIBRARY_ENV,
        NativeLibrary.LITERT_LIBRARY_FILE)) {
      assertTrue(outcome.output().contains(named), named + " in " + outcome.output());
    }
  }

  @Test
  void theArtifactForAnotherPlatformIsRefusedNamingBoth() throws Exception {
    // This JVM claims to be an ARM Linux; the class path carries the linux-x86_64 artifact.
    Outcome outcome = runProbe(classPath(), "-Dos.arch=aarch64");
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("the LiteRT runtime artifact on the class path"),
        outcome.output());
    assertTrue(outcome.output().contains("is for linux-x86_64, but this JVM runs on"
        + " linux-aarch64: use the artifact with classifier linux-aarch64"), outcome.output());
    assertTrue(outcome.output().contains("tfjni-litert-1.4.0-linux-x86_64.jar"),
        "names the jar: " + outcome.output());
  }

  @Test
  void twoArtifactsForThisPlatformAreRefused() throws Exception {
    Path second = fakeArtifact("second", "litert.version=1.0.0\n");
    Outcome outcome = runProbe(second + File.pathSeparator + classPath());
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("2 LiteRT runtime artifacts for " + HOST.id()
        + " are on the class path"), outcome.output());
    assertTrue(outcome.output().contains(second.toString())
        && outcome.output().contains("tfjni-litert-1.4.0-"), "names both: " + outcome.output());
    assertTrue(outcome.output().contains("Keep one (tfjni-litert)"), outcome.output());
  }

  @Test
  void aDamagedArtifactIsRefusedWithItsHash() throws Exception {
    String file = NativeLibrary.LITERT_LIBRARY_FILE;
    Path artifact = fakeArtifact("damaged", "litert.version=1.4.0-damaged\nlibraries=" + file
        + "\nsha256." + file + "=" + "0".repeat(64) + "\n");
    Files.copy(configuredLibrary(), artifact.resolve("io/tfjni/litert/" + HOST.id() + "/" + file));
    Outcome outcome = runProbe(artifact + File.pathSeparator + classPathWithoutArtifact());
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("io/tfjni/litert/" + HOST.id() + "/" + file
        + " has SHA-256 "), outcome.output());
    assertTrue(outcome.output().contains("says " + "0".repeat(64) + ": the artifact is damaged"),
        outcome.output());
    try (Stream<Path> entries = Files.list(temp.resolve("cache").resolve("litert"))) {
      assertTrue(entries.noneMatch(Files::isDirectory), "nothing published");
    }
  }
}
