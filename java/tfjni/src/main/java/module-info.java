/**
 * tfjni: TensorFlow inference over a hand-written JNI bridge. {@code io.tfjni} (models, tensors,
 * predictors) and {@code io.tfjni.serving} (versioned models swapped while they serve, warm-up)
 * are API; {@code io.tfjni.internal} (library loading, the spec decoder) is not exported.
 */
module io.tfjni {
  requires jdk.jfr;

  exports io.tfjni;
  exports io.tfjni.serving;
}
