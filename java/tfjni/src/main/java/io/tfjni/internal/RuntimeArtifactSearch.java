package io.tfjni.internal;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a TensorFlow runtime artifact jar is looked for when none is on the class path, as under
 * {@code java -jar}, which ignores the class path: {@link #named()}, the jar named by {@value
 * #JAR_PROPERTY} or {@value #JAR_ENV} (any variant, any file name), which comes before the
 * dynamic linker's search path; and {@link #find()}, after it, {@code
 * tfjni-tensorflow-cpu-VERSION-PLATFORM.jar} in the directory of the jar that holds tfjni's
 * classes (the CLI's jar, say), else the same file in the local Maven repository, {@code
 * ~/.m2/repository/io/tfjni/tfjni-tensorflow-cpu/VERSION/}. VERSION is the TensorFlow version this
 * tfjni was built with; only the cpu variant is looked for by name (the gpu one must be named or
 * put on the class path, so that having both installed never picks one silently), and a
 * libtensorflow on the dynamic linker's path (LD_LIBRARY_PATH) is never overridden by one found.
 */
final class RuntimeArtifactSearch {
  static final String JAR_PROPERTY = "tfjni.tensorflow.jar";
  static final String JAR_ENV = "TFJNI_TENSORFLOW_JAR";
  static final String ARTIFACT_ID = "tfjni-tensorflow-cpu";

  /** A runtime artifact jar to open, and what named or found it. */
  record Found(Path jar, String source) {}

  private final Platform platform;
  private final String tensorFlowVersion;
  private final List<String> searched = new ArrayList<>();

  RuntimeArtifactSearch(Platform platform) {
    this.platform = platform;
    this.tensorFlowVersion = NativeLibrary.buildProperty("tensorflow.version");
  }

  /**
   * The jar named by {@value #JAR_PROPERTY} / {@value #JAR_ENV}, or null if neither is set.
   *
   * @throws UnsatisfiedLinkError if the setting names a file that does not exist
   */
  Found named() {
    NativeLibrary.Setting named = NativeLibrary.setting(JAR_PROPERTY, JAR_ENV);
    if (named != null) {
      Path jar = Path.of(named.value()).toAbsolutePath();
      if (!Files.isRegularFile(jar)) {
        throw new UnsatisfiedLinkError("tfjni: " + named.source() + " names " + jar
            + ", which is not a file");
      }
      return new Found(jar, named.source());
    }
    searched.add("system property " + JAR_PROPERTY + " and environment variable " + JAR_ENV
        + " (neither is set)");
    searched.add("the dynamic linker's search path");
    return null;
  }

  /**
   * The runtime artifact beside tfjni's jar, else in the local Maven repository, else null
   * ({@link #describeSearch()} then says where it looked).
   */
  Found find() {
    if (tensorFlowVersion.isEmpty()) {
      return null; // a build without its properties: no file name to look for
    }
    Path tfjniJar = jarHoldingTfjni();
    if (tfjniJar != null) {
      Path beside = tfjniJar.resolveSibling(fileName());
      if (Files.isRegularFile(beside)) {
        return new Found(beside, "beside " + tfjniJar.getFileName());
      }
      searched.add(beside + " (not there)");
    }
    Path inMaven = localMavenRepository().resolve(
        Path.of("io", "tfjni", ARTIFACT_ID, tensorFlowVersion, fileName()));
    if (Files.isRegularFile(inMaven)) {
      return new Found(inMaven, "the local Maven repository");
    }
    searched.add(inMaven + " (not there)");
    return null;
  }

  /** The artifact's file name: tfjni-tensorflow-cpu-2.18.0-linux-x86_64.jar. */
  String fileName() {
    return ARTIFACT_ID + "-" + version() + "-" + platform.id() + ".jar";
  }

  /** "VERSION" in advice when this build did not record its TensorFlow version. */
  private String version() {
    return tensorFlowVersion.isEmpty() ? "VERSION" : tensorFlowVersion;
  }

  /**
   * Where {@link #find()} looked and the commands that make the next start find libtensorflow,
   * for the error when it is then missing.
   */
  String describeSearch() {
    String coordinates = "io.tfjni:" + ARTIFACT_ID + ":" + version() + ":jar:" + platform.id();
    Path tfjniJar = jarHoldingTfjni();
    return "libtensorflow was looked for in: system property "
        + NativeLibrary.TENSORFLOW_DIR_PROPERTY + " and environment variable "
        + NativeLibrary.TENSORFLOW_DIR_ENV + " (neither is set); a runtime artifact on the class"
        + " path (none; java -jar ignores the class path); " + String.join("; ", searched)
        + ". To use the runtime artifact, run 'mvn"
        + " dependency:get -Dartifact=" + coordinates + "' (it lands in "
        + localMavenRepository() + ", where tfjni looks)"
        + (tfjniJar != null ? ", or copy " + fileName() + " into " + tfjniJar.getParent() : "")
        + ", or name the jar with java -D" + JAR_PROPERTY + "=FILE (or " + JAR_ENV + "=FILE);"
        + " or point " + NativeLibrary.TENSORFLOW_DIR_PROPERTY + " or "
        + NativeLibrary.TENSORFLOW_DIR_ENV + " at a directory holding "
        + platform.tensorFlowLibraries();
  }

  /** {@code ~/.m2/repository}, Maven's default local repository. */
  private static Path localMavenRepository() {
    return Path.of(System.getProperty("user.home"), ".m2", "repository");
  }

  /** The jar tfjni's classes were loaded from, or null when they come from a directory. */
  private static Path jarHoldingTfjni() {
    CodeSource code = RuntimeArtifactSearch.class.getProtectionDomain().getCodeSource();
    if (code == null || code.getLocation() == null) {
      return null;
    }
    try {
      Path location = Path.of(code.getLocation().toURI()).toAbsolutePath();
      return Files.isRegularFile(location) ? location : null;
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null; // not a file: URL (a custom class loader's)
    }
  }
}
