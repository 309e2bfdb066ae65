package io.tfjni;

/** How {@link NDArray#resize} interpolates, as in tf.image.resize (half-pixel centers). */
public enum ResizeMethod {
  /** Bilinear interpolation (ResizeBilinear); the result is FLOAT. */
  BILINEAR,
  /** The nearest pixel (ResizeNearestNeighbor); the result keeps the input's dtype. */
  NEAREST
}
