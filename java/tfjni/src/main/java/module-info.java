/**
 * tfjni: TensorFlow inference over a hand-written JNI bridge. Only {@code io.tfjni} is API;
 * {@code io.tfjni.internal} (library loading, the spec decoder) is not exported.
 */
module io.tfjni {
  exports io.tfjni;
}
