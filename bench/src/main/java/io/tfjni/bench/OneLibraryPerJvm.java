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
}
