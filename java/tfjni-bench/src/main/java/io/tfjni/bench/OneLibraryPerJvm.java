package io.tfjni.bench;

/**
 * tfjni and TensorFlow Java each load their own copy of libtensorflow; two copies in one process
 * would share global registries (ops, kernels, protobuf) and crash or mislead. JMH runs each
 * benchmark in a fresh fork, so this only trips when someone runs with {@code -f 0}: then the
 * second contender fails loudly instead of loading a second libtensorflow.
 */
final class OneLibraryPerJvm {
  private static final String PROPERTY = "tfjni.bench.loaded";

  private OneLibraryPerJvm() {}

  /** Records that {@code binding} ("tfjni" or "tensorflow-java") is about to load. */
  static synchronized void claim(String binding) {
    String loaded = System.getProperty(PROPERTY);
    if (loaded != null && !loaded.equals(binding)) {
      throw new IllegalStateException(binding + " cannot run in this JVM: " + loaded
          + " already loaded its libtensorflow here. Run benchmarks in forks (-f 1 or more).");
    }
    System.setProperty(PROPERTY, binding);
  }

  /**
   * Prints which TensorFlow the binding loaded and, when {@value #VERSION_PROPERTY} is set (as
   * scripts/bench/bench-java.sh sets it), fails unless it is that version: every contender must run the
   * same TensorFlow.
   */
  static void checkVersion(String binding, String version) {
    System.err.println("# " + binding + " runs TensorFlow " + version);
    String wanted = System.getProperty(VERSION_PROPERTY);
    if (wanted != null && !wanted.isEmpty() && !wanted.equals(version)) {
      throw new IllegalStateException(binding + " loaded TensorFlow " + version + " but "
          + VERSION_PROPERTY + " asks for " + wanted);
    }
  }

  static final String VERSION_PROPERTY = "tfjni.bench.tensorflow.version";
}
