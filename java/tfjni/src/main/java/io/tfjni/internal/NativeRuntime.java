package io.tfjni.internal;

import java.util.List;

/**
 * A runtime whose libraries a {@link RuntimeArtifact} carries: TensorFlow's (loaded with tfjni's
 * JNI library) or LiteRT's (opened at the first LiteRT model). Each keeps its libraries for a
 * platform under {@code io/tfjni/<name>/<platform>/} with an index giving its version under
 * {@code <name>.version}, and is extracted into its own directory of the per-user cache.
 */
enum NativeRuntime {
  TENSORFLOW("TensorFlow", "tensorflow", "libtensorflow",
      "tfjni-tensorflow-cpu or tfjni-tensorflow-gpu", NativeLibrary.TENSORFLOW_DIR_PROPERTY
          + " to a directory holding the libraries"),
  LITERT("LiteRT", "litert", "litert", "tfjni-litert",
      NativeLibrary.LITERT_LIBRARY_PROPERTY + " to the path of " + NativeLibrary.LITERT_LIBRARY_FILE);

  private final String displayName;
  private final String name;
  private final String cacheDirectory;
  private final String artifacts;
  private final String setting;

  NativeRuntime(String displayName, String name, String cacheDirectory, String artifacts,
      String setting) {
    this.displayName = displayName;
    this.name = name;
    this.cacheDirectory = cacheDirectory;
    this.artifacts = artifacts;
    this.setting = setting;
  }

  /** "TensorFlow" or "LiteRT", for messages. */
  String displayName() {
    return displayName;
  }

  /** Where a runtime artifact keeps this runtime's libraries for {@code platform}. */
  String resourceDirectory(Platform platform) {
    return "io/tfjni/" + name + "/" + platform.id() + "/";
  }

  /** The index's key for the runtime's version. */
  String versionKey() {
    return name + ".version";
  }

  /** The libraries to load when the index lists none. */
  List<String> defaultLibraries(Platform platform) {
    return this == TENSORFLOW ? platform.tensorFlowLibraries()
        : List.of(NativeLibrary.LITERT_LIBRARY_FILE);
  }

  /** The cache's subdirectory the artifact is extracted into. */
  String cacheDirectory() {
    return cacheDirectory;
  }

  /** The artifacts that carry this runtime, for messages: "keep one (...)". */
  String artifacts() {
    return artifacts;
  }

  /** The setting that names the libraries without an artifact, for messages: "or set ...". */
  String setting() {
    return setting;
  }
}
