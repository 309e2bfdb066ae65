package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.ChildJvm.Outcome;
import io.tfjni.internal.NativeLibrary;
import io.tfjni.internal.Platform;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where libtensorflow and the JNI library are loaded from, each case in a fresh JVM (a JVM loads
 * native libraries once).
 */
class LibraryLoadingTest {
  /** The runtime artifact's per-user cache for the child JVMs: extracted once for the class. */
  @TempDir static Path sharedCache;

  @TempDir Path temp;

  /** The venv's TensorFlow directory (scripts/test.sh sets it): the source of the farms. */
  private static Path venvTensorFlowDir() {
    String dir = System.getProperty("tfjni.test.tensorflow.dir", "");
    assertTrue(!dir.isEmpty(), "set -Dtfjni.test.tensorflow.dir to the venv's tensorflow dir");
    return Path.of(dir);
  }

  /** The libraries of the machine the tests run on (linux-x86_64). */
  private static final Platform HOST = Platform.current();

  /**
   * Another directory holding the two TensorFlow libraries: hard links (or copies across file
   * systems), since System.load resolves symbolic links to the file they point at.
   */
  private Path libraryFarm() throws IOException {
    Path farm = Files.createDirectory(temp.resolve("tf-farm"));
    for (String name : HOST.tensorFlowLibraries()) {
      Path original = venvTensorFlowDir().resolve(name);
      try {
        Files.createLink(farm.resolve(name), original);
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(original, farm.resolve(name));
      }
    }
    return farm;
  }

  /** Settings of the parent that must not reach a child, which sets its own. */
  private static final List<String> UNSET = List.of(NativeLibrary.TENSORFLOW_DIR_ENV,
      NativeLibrary.LIBRARY_DIR_ENV, "TFJNI_CACHE_DIR", "LD_LIBRARY_PATH");

  /** The probe on this class path: with the runtime artifact, and the shared cache. */
  private Outcome runProbe(List<String> jvmOptions, Map<String, String> env) throws Exception {
    List<String> options = new ArrayList<>(jvmOptions);
    options.add("-Dtfjni.cache.dir=" + sharedCache);
    return ChildJvm.run(options, LoadProbe.class, List.of(TestModels.dir().toString()), UNSET,
        env);
  }

  /** This class path less the runtime artifact's jar. */
  private static String classPathWithoutRuntimeArtifact() {
    List<String> entries = new ArrayList<>();
    boolean found = false;
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      if (Path.of(entry).getFileName().toString().startsWith("tfjni-tensorflow-cpu-")) {
        found = true;
      } else {
        entries.add(entry);
      }
    }
    assertTrue(found, "the runtime artifact is not on the test class path");
    return String.join(java.io.File.pathSeparator, entries);
  }

  private Outcome runProbeOn(String classPath, List<String> jvmOptions, Map<String, String> env)
      throws Exception {
    return ChildJvm.run(classPath, jvmOptions, LoadProbe.class,
        List.of(TestModels.dir().toString()), UNSET, env);
  }

  @Test
  void runtimeArtifactIsUsedWhenNoDirectoryIsSet() throws Exception {
    Outcome outcome = runProbe(List.of(), Map.of());
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("library=" + sharedCache.resolve("libtensorflow")),
        outcome.output());
    assertTrue(outcome.output().contains("sum=11.0,22.0"), outcome.output());
  }

  @Test
  void jvmsStartingTogetherExtractTheRuntimeArtifactOnce() throws Exception {
    Path cache = Files.createDirectory(temp.resolve("fresh-cache"));
    List<CompletableFuture<Outcome>> children = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      children.add(CompletableFuture.supplyAsync(() -> {
        try {
          return ChildJvm.run(List.of("-Dtfjni.cache.dir=" + cache), LoadProbe.class,
              List.of(TestModels.dir().toString()), UNSET, Map.of());
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }));
    }
    Set<String> libraries = new HashSet<>();
    for (CompletableFuture<Outcome> child : children) {
      Outcome outcome = child.join();
      assertEquals(0, outcome.exitCode(), outcome.output());
      libraries.add(outcome.output().lines().filter(l -> l.startsWith("library="))
          .findFirst().orElseThrow());
    }
    assertEquals(1, libraries.size(), "all load the same extracted file: " + libraries);
    try (Stream<Path> entries = Files.list(cache.resolve("libtensorflow"))) {
      List<String> names = entries.map(p -> p.getFileName().toString()).sorted().toList();
      assertEquals(2, names.size(), "one directory and its lock file, no staging left: " + names);
      assertTrue(names.get(0).startsWith("2.") && names.get(1).equals(names.get(0) + ".lock"),
          names.toString());
    }
  }

  @Test
  void aJvmKilledWhileExtractingLeavesNothingOnceTheNextHasLoaded() throws Exception {
    Path cache = Files.createDirectory(temp.resolve("kill-cache"));
    Path libraries = cache.resolve("libtensorflow");
    List<String> options = List.of("-Dtfjni.cache.dir=" + cache);
    Process victim = ChildJvm.start(options, LoadProbe.class,
        List.of(TestModels.dir().toString()), UNSET, Map.of());
    try {
      // Killed (SIGKILL) once its staging directory holds a file: mid-extraction.
      while (!stagingHoldsAFile(libraries)) {
        assertTrue(victim.isAlive(), "the child ended before it began extracting");
        Thread.sleep(5);
      }
    } finally {
      victim.destroyForcibly().waitFor();
    }
    assertTrue(stagingHoldsAFile(libraries), "no staging directory left by the killed JVM");
    Outcome next = ChildJvm.run(options, LoadProbe.class, List.of(TestModels.dir().toString()),
        UNSET, Map.of());
    assertEquals(0, next.exitCode(), next.output());
    try (Stream<Path> entries = Files.list(libraries)) {
      List<String> names = entries.map(p -> p.getFileName().toString()).sorted().toList();
      assertEquals(2, names.size(), "the published directory and its lock only: " + names);
      assertEquals(names.get(0) + ".lock", names.get(1), names.toString());
    }
  }

  /** Whether a staging directory ({@code *.tmp*}) under {@code libraries} holds a file. */
  private static boolean stagingHoldsAFile(Path libraries) throws IOException {
    if (!Files.isDirectory(libraries)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(libraries)) {
      for (Path staging : entries.filter(p -> p.getFileName().toString().contains(".tmp"))
          .toList()) {
        try (Stream<Path> files = Files.list(staging)) {
          if (files.findAny().isPresent()) {
            return true;
          }
        } catch (java.nio.file.NoSuchFileException e) {
          // published or deleted meanwhile
        }
      }
    }
    return false;
  }

  @Test
  void damagedRuntimeArtifactIsRefusedWithItsHash() throws Exception {
    // A class-path directory laid out like the artifact, whose index has a wrong hash.
    Path artifact = temp.resolve("artifact");
    Path libraries = Files.createDirectories(artifact.resolve(HOST.tensorFlowResourceDirectory()));
    Path farm = libraryFarm();
    StringBuilder index = new StringBuilder("tensorflow.version=2.0.0-damaged\n");
    for (String name : HOST.tensorFlowLibraries()) {
      Files.createLink(libraries.resolve(name), farm.resolve(name));
      index.append("sha256.").append(name).append('=').append("0".repeat(64)).append('\n');
    }
    Files.writeString(libraries.resolve("libraries.properties"), index);
    Path cache = temp.resolve("cache");
    Outcome outcome = runProbeOn(artifact + java.io.File.pathSeparator
        + classPathWithoutRuntimeArtifact(), List.of("-Dtfjni.cache.dir=" + cache), Map.of());
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("the artifact is damaged"), outcome.output());
    assertTrue(outcome.output().contains("0".repeat(64)), outcome.output());
    try (Stream<Path> entries = Files.list(cache.resolve("libtensorflow"))) {
      assertTrue(entries.noneMatch(Files::isDirectory), "nothing published");
    }
  }

  @Test
  void dynamicLinkersPathIsTheLastResort() throws Exception {
    Outcome outcome = runProbeOn(classPathWithoutRuntimeArtifact(), List.of(),
        Map.of("LD_LIBRARY_PATH", libraryFarm().toString()));
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("library=" + temp.resolve("tf-farm")), outcome.output());
  }

  @Test
  void noTensorFlowAnywhereSaysWhereToGetIt() throws Exception {
    Path home = Files.createDirectory(temp.resolve("home"));
    Outcome outcome = runProbeOn(classPathWithoutRuntimeArtifact(),
        List.of("-Duser.home=" + home), Map.of());
    assertEquals(3, outcome.exitCode(), outcome.output());
    for (String expected : List.of("thrown=java.lang.UnsatisfiedLinkError",
        "libtensorflow was looked for in: ", "TFJNI_TENSORFLOW_DIR",
        "the dynamic linker's search path; " + home.resolve(".m2/repository/io/tfjni/"
            + "tfjni-tensorflow-cpu/" + artifactVersion() + "/" + artifactFileName())
            + " (not there)",
        "mvn dependency:get -Dartifact=io.tfjni:tfjni-tensorflow-cpu:" + artifactVersion()
            + ":jar:" + HOST.id(),
        "-Dtfjni.tensorflow.jar=FILE")) {
      assertTrue(outcome.output().contains(expected), expected + " in " + outcome.output());
    }
  }

  /** The test class path's runtime artifact jar, as Maven resolved it. */
  private static Path artifactJar() {
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      String name = Path.of(entry).getFileName().toString();
      if (name.startsWith("tfjni-tensorflow-cpu-") && name.endsWith("-" + HOST.id() + ".jar")) {
        return Path.of(entry);
      }
    }
    throw new AssertionError("the runtime artifact is not on the test class path");
  }

  private static String artifactFileName() {
    return artifactJar().getFileName().toString();
  }

  /** The TensorFlow version of the artifact's file name, tfjni-tensorflow-cpu-VERSION-PLATFORM. */
  private static String artifactVersion() {
    String name = artifactFileName();
    return name.substring("tfjni-tensorflow-cpu-".length(),
        name.length() - ("-" + HOST.id() + ".jar").length());
  }

  /** A home whose local Maven repository holds (a link to) the test's runtime artifact. */
  private Path homeWithRuntimeArtifactInMaven() throws IOException {
    Path home = Files.createDirectory(temp.resolve("home"));
    Path repository = Files.createDirectories(home.resolve(
        ".m2/repository/io/tfjni/tfjni-tensorflow-cpu/" + artifactVersion()));
    Files.createSymbolicLink(repository.resolve(artifactFileName()), artifactJar());
    return home;
  }

  @Test
  void runtimeArtifactInTheLocalMavenRepositoryComesAfterTheDynamicLinker() throws Exception {
    Path home = homeWithRuntimeArtifactInMaven();
    List<String> options = List.of("-Duser.home=" + home, "-Dtfjni.cache.dir=" + sharedCache);
    Outcome fromMaven = runProbeOn(classPathWithoutRuntimeArtifact(), options, Map.of());
    assertEquals(0, fromMaven.exitCode(), fromMaven.output());
    assertTrue(fromMaven.output().contains("library=" + sharedCache.resolve("libtensorflow")),
        fromMaven.output());
    Outcome fromLinker = runProbeOn(classPathWithoutRuntimeArtifact(), options,
        Map.of("LD_LIBRARY_PATH", libraryFarm().toString()));
    assertEquals(0, fromLinker.exitCode(), fromLinker.output());
    assertTrue(fromLinker.output().contains("library=" + temp.resolve("tf-farm")),
        fromLinker.output());
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
    assertTrue(outcome.output().contains("thrown=java.lang.UnsatisfiedLinkError"),
        outcome.output());
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
    String jni = HOST.libraryFile(NativeLibrary.JNI_LIBRARY);
    try (InputStream in = NativeLibrary.class.getResourceAsStream(
        "/" + HOST.nativeResourceDirectory() + jni)) {
      assertTrue(in != null, "the JNI library is not packaged as a resource");
      Files.copy(in, dir.resolve(jni));
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
        jni.resolve(HOST.libraryFile(NativeLibrary.JNI_LIBRARY)).toString());
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
    assertTrue(outcome.output().contains("thrown=java.lang.UnsatisfiedLinkError"),
        outcome.output());
  }

  @Test
  void undefinedSymbolIsReadFromTheLoadersMessage() {
    assertEquals("TFE_OpReset", NativeLibrary.undefinedSymbol(
        "/x/libtfjni.so: /x/libtfjni.so: undefined symbol: TFE_OpReset, version tensorflow"));
    assertEquals("TF_NewStatus", NativeLibrary.undefinedSymbol("undefined symbol: TF_NewStatus"));
    assertEquals("TF_NewStatus", NativeLibrary.undefinedSymbol("dlopen(/x/libtfjni.dylib, 0x0001):"
        + " Symbol not found: _TF_NewStatus\n  Referenced from: /x/libtfjni.dylib"));
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
    assertTrue(outcome.output().contains("thrown=java.lang.UnsatisfiedLinkError"),
        outcome.output());
  }

  /** A class-path directory laid out like a runtime artifact for {@code platform}. */
  private Path fakeRuntimeArtifact(String name, Platform platform) throws IOException {
    Path libraries = Files.createDirectories(
        temp.resolve(name).resolve(platform.tensorFlowResourceDirectory()));
    Files.writeString(libraries.resolve("libraries.properties"), "tensorflow.version=2.0.0\n");
    return temp.resolve(name);
  }

  @Test
  void unsupportedPlatformIsOneErrorNamingItAndTheSupportedOnes() throws Exception {
    Outcome outcome = runProbe(List.of("-Dos.arch=riscv64"), Map.of());
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("error=tfjni: no native libraries for linux-riscv64"
        + " (os.name 'Linux', os.arch 'riscv64'); tfjni runs on linux-x86_64, linux-aarch64,"
        + " macos-arm64 and windows-x86_64"), outcome.output());
  }

  @Test
  void runtimeArtifactForAnotherPlatformIsRefusedNamingBoth() throws Exception {
    // This JVM claims to be a Mac; the class path carries the linux-x86_64 artifact.
    Outcome outcome = runProbe(List.of("-Dos.name=Mac OS X", "-Dos.arch=aarch64"), Map.of());
    assertEquals(3, outcome.exitCode(), outcome.output());
    String output = outcome.output();
    assertTrue(output.contains("is for linux-x86_64, but this JVM runs on macos-arm64: use the"
        + " artifact with classifier macos-arm64"), output);
    assertTrue(output.contains("tfjni-tensorflow-cpu-"), "names the jar: " + output);
  }

  @Test
  void twoRuntimeArtifactsForThisPlatformAreRefused() throws Exception {
    Path second = fakeRuntimeArtifact("second-artifact", HOST);
    Outcome outcome = runProbeOn(second + java.io.File.pathSeparator
        + System.getProperty("java.class.path"), List.of(), Map.of());
    assertEquals(3, outcome.exitCode(), outcome.output());
    String output = outcome.output();
    assertTrue(output.contains("2 TensorFlow runtime artifacts for linux-x86_64 are on the class"
        + " path"), output);
    assertTrue(output.contains(second.toString()) && output.contains("tfjni-tensorflow-cpu-"),
        "names both: " + output);
  }

  @Test
  void eachPlatformLoadsItsOwnLibraryNames() throws Exception {
    // Faked platforms get as far as their own file names: a Mac looks for TensorFlow's dylibs,
    // an ARM Linux for its own directory in the jar (absent, or not loadable on this machine).
    Path farm = libraryFarm();
    Outcome mac = runProbe(List.of("-Dos.name=Mac OS X", "-Dos.arch=aarch64",
        "-Dtfjni.tensorflow.dir=" + farm), Map.of());
    assertEquals(3, mac.exitCode(), mac.output());
    assertTrue(mac.output().contains("looked for [libtensorflow_framework.2.dylib,"
        + " libtensorflow_cc.2.dylib] in " + farm), mac.output());

    Outcome arm = runProbeOn(classPathWithoutRuntimeArtifact(), List.of("-Dos.arch=aarch64",
        "-Dtfjni.tensorflow.dir=" + farm), Map.of());
    assertEquals(3, arm.exitCode(), arm.output());
    assertTrue(arm.output().contains("linux-aarch64 JNI library")
        || arm.output().contains("io/tfjni/native/linux-aarch64/libtfjni.so is not on the class"
        + " path"), arm.output());

    // Windows: TensorFlow's files there (those of the version tfjni was built against, whose C API
    // DLL tfjni.dll imports), and python311.dll loaded before the DLL importing it.
    String[] windows = {"-Dos.name=Windows 11", "-Dos.arch=amd64"};
    Outcome missing = runProbe(List.of(windows[0], windows[1], "-Dtfjni.tensorflow.dir=" + farm),
        Map.of());
    assertEquals(3, missing.exitCode(), missing.output());
    List<String> windowsLibraries = Platform.WINDOWS_X86_64.tensorFlowLibraries();
    assertTrue(missing.output().contains("looked for " + windowsLibraries + " in " + farm),
        missing.output());
    Path windowsFarm = Files.createDirectory(temp.resolve("windows-farm"));
    for (String name : Platform.WINDOWS_X86_64.tensorFlowLibraries()) {
      Files.writeString(windowsFarm.resolve(name), "not a library");
    }
    Outcome first = runProbe(List.of(windows[0], windows[1],
        "-Dtfjni.tensorflow.dir=" + windowsFarm), Map.of());
    assertEquals(3, first.exitCode(), first.output());
    assertTrue(first.output().contains("could not load " + windowsFarm.resolve("python311.dll")),
        first.output());
  }

  @Test
  void loadingLeavesNoTemporaryFilesBehind() throws Exception {
    // A log level with no TF_CPP_MIN_LOG_LEVEL set makes the loader library extracted too.
    Path tmp = Files.createDirectory(temp.resolve("java-io-tmpdir"));
    List<String> unset = new ArrayList<>(UNSET);
    unset.add(NativeLibrary.TF_LOG_LEVEL_ENV);
    Outcome outcome = ChildJvm.run(List.of("-Djava.io.tmpdir=" + tmp, "-Dtfjni.logLevel=2",
        "-Dtfjni.cache.dir=" + sharedCache), LoadProbe.class,
        List.of(TestModels.dir().toString()), unset, Map.of());
    assertEquals(0, outcome.exitCode(), outcome.output());
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), "the extracted JNI and loader libraries are gone");
    }
  }
}
