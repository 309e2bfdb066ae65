package io.tfjni.eager;

/** How {@link NDArray#resize} interpolates, as in tf.image.resize (half-pixel centers). */
public enum ResizeMethod {
  /** Bilinear interpolation (ResizeBilinear); the result is FLOAT. */
  BILINEAR,
  /** The nearest pixel (ResizeNearestNeighbor); the result keeps the input's dtype. */
  NEAREST,
  /** The mean of the pixels each result pixel covers (ResizeArea); the result is FLOAT. */
  AREA,
  /** Keys' cubic convolution with a = -0.5 (ResizeBicubic); the result is FLOAT. */
  BICUBIC
}
