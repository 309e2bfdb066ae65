/**
 * tfjni: TensorFlow inference over a hand-written JNI bridge. {@code io.tfjni} (models, tensors,
 * predictors), {@code io.tfjni.eager} (eager ops on NDArrays), {@code io.tfjni.batching}
 * (batching across callers) and {@code io.tfjni.serving} (versioned models swapped while they
 * serve, warm-up) are API; {@code io.tfjni.internal} (library loading, the native objects' base,
 * what the packages share) is not exported.
 */
module io.tfjni {
  requires jdk.jfr;

  exports io.tfjni;
  exports io.tfjni.batching;
  exports io.tfjni.eager;
  exports io.tfjni.serving;
}
