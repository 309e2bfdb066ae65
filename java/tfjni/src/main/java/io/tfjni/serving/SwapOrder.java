package io.tfjni.serving;

/**
 * In which order a version arriving and a version leaving hold memory.
 */
public enum SwapOrder {
  /**
   * Load (and warm up) the new version while the old one serves, swap, then unload the old one
   * once its last call returns: no call is refused, and both versions are in memory during the
   * swap. TensorFlow Serving's default.
   */
  AVAILABILITY_PRESERVING,
  /**
   * Unload the leaving version first (waiting for its calls in flight), then load the new one: a
   * model that does not fit twice can be swapped, at the cost of an unavailability while the new
   * version loads and warms up, during which calls throw {@link VersionUnavailableException}
   * (reported to {@link ServingListener#onSwap} as its duration). If the new version then fails,
   * the previous one is loaded again.
   */
  RESOURCE_PRESERVING
}
