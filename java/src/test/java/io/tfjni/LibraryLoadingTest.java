package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where libtensorflow and the JNI library are loaded from, each case in a fresh JVM (a JVM loads
 * native libraries once).
 */
class LibraryLoadingTest {
  @TempDir Path temp;

  /** The directory tfjni was built against: the source of the libraries for the farms. */
  private static Path builtTensorFlowDir() {
    String dir = NativeLibrary.buildProperty("tensorflow.dir");
    assertTrue(!dir.isEmpty(), "build.properties records no tensorflow.dir");
    return Path.of(dir);
  }

  /**
   * Another directory holding the two TensorFlow libraries: hard links (or copies across file
   * systems), since System.load resolves symbolic links to the file they point at.
   */
  private Path libraryFarm() throws IOException {
    Path farm = Files.createDirectory(temp.resolve("tf-farm"));
    for (String name : NativeLibrary.TENSORFLOW_LIBRARIES) {
      Path original = builtTensorFlowDir().resolve(name);
      try {
        Files.createLink(farm.resolve(name), original);
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(original, farm.resolve(name));
      }
    }
    return farm;
  }

  private record Outcome(int exitCode, String output) {}

  private Outcome runProbe(List<String> jvmOptions, Map<String, String> env) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LoadProbe.class.getName());
    command.add(TestModels.dir().toString());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove(NativeLibrary.TENSORFLOW_DIR_ENV);
    builder.environment().remove(NativeLibrary.LIBRARY_DIR_ENV);
    builder.environment().putAll(env);
    Process process = builder.start();
    String output;
    try (InputStream in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "child JVM timed out");
    return new Outcome(process.exitValue(), output);
  }

  @Test
  void systemPropertyPointsAtAnotherTensorFlowDirectory() throws Exception {
    Path farm = libraryFarm();
    Outcome outcome = runProbe(List.of("-Dtfjni.tensorflow.dir=" + farm), Map.of());
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("library=" + farm.resolve("libtensorflow_cc.so.2")),
        outcome.output());
    assertTrue(outcome.output().contains("sum=11.0,22.0"), outcome.output());
  }

  @Test
  void environmentVariablePointsAtAnotherTensorFlowDirectory() throws Exception {
    Path farm = libraryFarm();
    Outcome outcome = runProbe(List.of(), Map.of("TFJNI_TENSORFLOW_DIR", farm.toString()));
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("library=" + farm.resolve("libtensorflow_cc.so.2")),
        outcome.output());
  }

  @Test
  void systemPropertyWinsOverEnvironmentVariable() throws Exception {
    Path farm = libraryFarm();
    Path empty = Files.createDirectory(temp.resolve("empty"));
    Outcome outcome = runProbe(List.of("-Dtfjni.tensorflow.dir=" + farm),
        Map.of("TFJNI_TENSORFLOW_DIR", empty.toString()));
    assertEquals(0, outcome.exitCode(), outcome.output());
  }

  @Test
  void wrongTensorFlowDirectoryNamesWhatWasLookedForAndWhere() throws Exception {
    Path empty = Files.createDirectory(temp.resolve("no-tensorflow-here"));
    Outcome outcome = runProbe(List.of("-Dtfjni.tensorflow.dir=" + empty), Map.of());
    assertEquals(3, outcome.exitCode(), outcome.output());
    String output = outcome.output();
    assertTrue(output.contains("libtensorflow_cc.so.2"), output);
    assertTrue(output.contains("libtensorflow_framework.so.2"), output);
    assertTrue(output.contains(empty.toString()), output);
    assertTrue(output.contains("system property tfjni.tensorflow.dir"), output);
  }

  @Test
  void wrongTensorFlowDirectoryFromEnvironmentSaysSo() throws Exception {
    Path empty = Files.createDirectory(temp.resolve("none"));
    Outcome outcome = runProbe(List.of(), Map.of("TFJNI_TENSORFLOW_DIR", empty.toString()));
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("environment variable TFJNI_TENSORFLOW_DIR"),
        outcome.output());
  }

  /** A directory holding a copy of the packaged JNI library. */
  private Path jniLibraryCopy() throws IOException {
    Path dir = Files.createDirectory(temp.resolve("jni"));
    try (InputStream in = NativeLibrary.class.getResourceAsStream(
        "/native/linux-x86_64/" + NativeLibrary.JNI_LIBRARY)) {
      assertTrue(in != null, "the JNI library is not packaged as a resource");
      Files.copy(in, dir.resolve(NativeLibrary.JNI_LIBRARY));
    }
    return dir;
  }

  @Test
  void jniLibraryFromAnotherDirectory() throws Exception {
    Outcome outcome = runProbe(List.of("-Dtfjni.library.dir=" + jniLibraryCopy()), Map.of());
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("sum=11.0,22.0"), outcome.output());
  }

  @Test
  void jniLibraryFromEnvironmentVariable() throws Exception {
    Outcome outcome =
        runProbe(List.of(), Map.of("TFJNI_LIBRARY_DIR", jniLibraryCopy().toString()));
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("sum=11.0,22.0"), outcome.output());
  }

  @Test
  void missingJniLibraryFromEnvironmentVariableSaysSo() throws Exception {
    Path empty = Files.createDirectory(temp.resolve("no-jni-env"));
    Outcome outcome = runProbe(List.of(), Map.of("TFJNI_LIBRARY_DIR", empty.toString()));
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("environment variable TFJNI_LIBRARY_DIR"),
        outcome.output());
  }

  @Test
  void missingJniLibraryNamesWhatWasLookedFor() throws Exception {
    Path empty = Files.createDirectory(temp.resolve("no-jni"));
    Outcome outcome = runProbe(List.of("-Dtfjni.library.dir=" + empty), Map.of());
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("libtfjni.so"), outcome.output());
    assertTrue(outcome.output().contains(empty.toString()), outcome.output());
  }
}
