package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.ChildJvm.Outcome;
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

  private Outcome runProbe(List<String> jvmOptions, Map<String, String> env) throws Exception {
    return ChildJvm.run(jvmOptions, LoadProbe.class, List.of(TestModels.dir().toString()),
        List.of(NativeLibrary.TENSORFLOW_DIR_ENV, NativeLibrary.LIBRARY_DIR_ENV), env);
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

  /** Runs a tool of the machine's C toolchain (a build dependency) and returns its output. */
  private static String tool(Path workDir, String... command) throws Exception {
    Process process = new ProcessBuilder(command).directory(workDir.toFile())
        .redirectErrorStream(true).start();
    String output;
    try (InputStream in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " timed out");
    assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + output);
    return output;
  }

  @Test
  void libtensorflowLackingOneSymbolIsAnUnsatisfiedLinkErrorNotAJvmExit() throws Exception {
    // A stand-in libtensorflow defining every TF_/TFE_ function the JNI library imports but
    // one. Bound lazily, the JVM would load it and die ("symbol lookup error", exit 127) at the
    // first call of the missing function; bound at load, System.load throws instead.
    Path jni = jniLibraryCopy();
    String imports = tool(temp, "nm", "-D", "--undefined-only",
        jni.resolve(NativeLibrary.JNI_LIBRARY).toString());
    List<String> symbols = new ArrayList<>();
    for (String line : imports.split("\n")) {
      String name = line.trim().replaceFirst("^U\\s+", "").replaceFirst("@.*$", "");
      if (name.startsWith("TF_") || name.startsWith("TFE_")) {
        symbols.add(name);
      }
    }
    String missing = "TFE_OpReset";
    assertTrue(symbols.contains(missing), "the JNI library no longer imports " + missing
        + "; pick another: " + symbols);
    assertTrue(symbols.size() > 20, "too few TensorFlow imports found: " + symbols);
    StringBuilder source = new StringBuilder(
        "const char* TF_Version(void) { return \"2.99.0-stub\"; }\n");
    for (String symbol : symbols) {
      if (!symbol.equals(missing) && !symbol.equals("TF_Version")) {
        source.append("void ").append(symbol).append("(void) {}\n");
      }
    }
    Path stub = Files.createDirectory(temp.resolve("tf-stub"));
    Files.writeString(stub.resolve("cc.c"), source);
    Files.writeString(stub.resolve("framework.c"), "int tfjni_stub_framework;\n");
    // The real libraries define their functions in the version node "tensorflow".
    Files.writeString(stub.resolve("version.map"), "tensorflow { global: *; };\n");
    tool(stub, "cc", "-shared", "-fPIC", "-o", "libtensorflow_cc.so.2",
        "-Wl,-soname,libtensorflow_cc.so.2", "-Wl,--version-script=version.map", "cc.c");
    tool(stub, "cc", "-shared", "-fPIC", "-o", "libtensorflow_framework.so.2",
        "-Wl,-soname,libtensorflow_framework.so.2", "framework.c");

    Outcome outcome = runProbe(List.of("-Dtfjni.tensorflow.dir=" + stub,
        "-Dtfjni.library.dir=" + jni), Map.of());
    assertEquals(3, outcome.exitCode(), "expected UnsatisfiedLinkError (exit 3): "
        + outcome.output());
    String output = outcome.output();
    assertTrue(output.contains("error=tfjni: the libtensorflow loaded from " + stub), output);
    assertTrue(output.contains("lacks " + missing + ","), output);
    assertTrue(output.contains("system property tfjni.tensorflow.dir"), output);
  }

  @Test
  void undefinedSymbolIsReadFromTheLoadersMessage() {
    assertEquals("TFE_OpReset", NativeLibrary.undefinedSymbol(
        "/x/libtfjni.so: /x/libtfjni.so: undefined symbol: TFE_OpReset, version tensorflow"));
    assertEquals("TF_NewStatus", NativeLibrary.undefinedSymbol("undefined symbol: TF_NewStatus"));
    assertEquals(null, NativeLibrary.undefinedSymbol("cannot open shared object file"));
    assertEquals(null, NativeLibrary.undefinedSymbol(null));
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
