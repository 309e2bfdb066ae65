package io.tfjni.eager;

import io.tfjni.DataType;
import java.math.BigInteger;
import java.util.Objects;
import java.util.function.BinaryOperator;

/** Image decoding, resizing and dtype conversion behind {@link NDArray}'s image methods. */
final class ImageOps {
  private ImageOps() {}

  /** DecodeJpeg, DecodePng or DecodeImage of a scalar STRING into UINT8. */
  static NDArray decode(NDArray contents, String opName, int channels) {
    if (channels < 0) {
      throw new IllegalArgumentException("channels must be 0 (as encoded) or more, got "
          + channels);
    }
    return contents.op(opName).addInput(contents).setAttr("channels", (long) channels).build();
  }

  /**
   * tf.image.resize without antialiasing (half-pixel centers), or tf.compat.v1.image.resize
   * (without): a single image is resized as a batch of one.
   */
  static NDArray resize(NDArray images, int height, int width, ResizeMethod method,
      boolean halfPixelCenters) {
    Objects.requireNonNull(method, "method");
    return asBatch(images, height, width,
        (batch, size) -> resizeBatch(batch, size, method, halfPixelCenters));
  }

  private static NDArray resizeBatch(NDArray images, NDArray size, ResizeMethod method,
      boolean halfPixelCenters) {
    String opName;
    switch (method) {
      case BILINEAR:
        opName = "ResizeBilinear";
        break;
      case NEAREST:
        opName = "ResizeNearestNeighbor";
        break;
      case BICUBIC:
        opName = "ResizeBicubic";
        break;
      default:
        // ResizeArea has no half-pixel attribute: tf.image.resize and its v1 agree.
        return images.op("ResizeArea").addInput(images).addInput(size)
            .setAttr("align_corners", false).build();
    }
    return images.op(opName).addInput(images).addInput(size).setAttr("align_corners", false)
        .setAttr("half_pixel_centers", halfPixelCenters).build();
  }

  /** An image op of (images, FLOAT amount). */
  static NDArray adjust(NDArray images, String opName, float amount) {
    try (NDArray a = images.getManager().scalar(amount)) {
      return images.op(opName).addInput(images).addInput(a).build();
    }
  }

  /** tf.image.resize(antialias=True): ScaleAndTranslate for BILINEAR and BICUBIC. */
  static NDArray resizeAntialiased(NDArray images, int height, int width, ResizeMethod method) {
    Objects.requireNonNull(method, "method");
    if (method != ResizeMethod.BILINEAR && method != ResizeMethod.BICUBIC) {
      return resize(images, height, width, method, true);
    }
    String kernel = method == ResizeMethod.BILINEAR ? "triangle" : "keyscubic";
    return asBatch(images, height, width, (batch, size) -> {
      long[] dims = batch.shape();
      float[] scale = {(float) height / dims[1], (float) width / dims[2]};
      NDManager m = batch.getManager();
      try (NDArray scales = m.create(scale, 2); NDArray translation = m.zeros(DataType.FLOAT, 2)) {
        return batch.op("ScaleAndTranslate").addInput(batch).addInput(size).addInput(scales)
            .addInput(translation).setAttr("kernel_type", kernel).setAttr("antialias", true)
            .build();
      }
    });
  }

  /** tf.compat.v1.image.resize(align_corners=True). */
  static NDArray resizeAlignCorners(NDArray images, int height, int width, ResizeMethod method) {
    Objects.requireNonNull(method, "method");
    if (method == ResizeMethod.AREA) {
      throw new IllegalArgumentException("AREA resizing has no corners to align");
    }
    String opName = method == ResizeMethod.BILINEAR ? "ResizeBilinear"
        : method == ResizeMethod.BICUBIC ? "ResizeBicubic" : "ResizeNearestNeighbor";
    return asBatch(images, height, width, (batch, size) -> batch.op(opName).addInput(batch)
        .addInput(size).setAttr("align_corners", true).build());
  }

  /**
   * {@code resize(batch, size)} of [batch, height, width, channels] images, a single image
   * resized as a batch of one; the checks every resize makes first.
   */
  private static NDArray asBatch(NDArray images, int height, int width,
      BinaryOperator<NDArray> resize) {
    if (height <= 0 || width <= 0) {
      throw new IllegalArgumentException("size must be positive, got " + height + " x " + width);
    }
    int rank = images.shape().length;
    if (rank != 3 && rank != 4) {
      throw new IllegalArgumentException("resize needs [height, width, channels] or "
          + "[batch, height, width, channels] images, got rank " + rank);
    }
    try (NDArray size = images.getManager().vector(new int[] {height, width})) {
      if (rank == 4) {
        return resize.apply(images, size);
      }
      try (NDArray batch = images.expandDims(0);
          NDArray resized = resize.apply(batch, size)) {
        return resized.squeeze(0);
      }
    }
  }

  /** tf.image.convert_image_dtype(image, dtype, saturate=False), op for op. */
  static NDArray convertImageDtype(NDArray image, DataType to) {
    Objects.requireNonNull(to, "dataType");
    DataType from = image.dataType();
    if (!isImageType(from) || !isImageType(to)) {
      throw new IllegalArgumentException("convertImageDtype converts between integer and "
          + "floating-point types, not " + from + " to " + to);
    }
    if (from == to) {
      return image.unary("Identity");
    }
    if (from.isInteger() && to.isInteger()) {
      BigInteger in = maxValue(from).add(BigInteger.ONE);
      BigInteger out = maxValue(to).add(BigInteger.ONE);
      if (in.compareTo(out) > 0) {
        try (NDArray scaled = image.floorDiv(in.divide(out))) {
          return scaled.cast(to);
        }
      }
      try (NDArray cast = image.cast(to)) {
        return cast.mul(out.divide(in));
      }
    }
    if (from.isFloatingPoint() && to.isFloatingPoint()) {
      return image.cast(to);
    }
    if (from.isInteger()) {
      try (NDArray cast = image.cast(to)) {
        return cast.mul(1.0 / maxValue(from).doubleValue());
      }
    }
    // Python adds 0.5 to the integer maximum "to avoid rounding problems in the cast".
    try (NDArray scaled = image.mul(maxValue(to).doubleValue() + 0.5)) {
      return scaled.cast(to);
    }
  }

  /** The largest value of an integer type. */
  static BigInteger maxValue(DataType type) {
    int bits = type.byteSize() * 8;
    return BigInteger.ONE.shiftLeft(type.isUnsigned() ? bits : bits - 1).subtract(BigInteger.ONE);
  }

  private static boolean isImageType(DataType type) {
    return type.isInteger() || type.isFloatingPoint();
  }
}
