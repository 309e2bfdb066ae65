package io.tfjni.djl;

import ai.djl.ndarray.types.Shape;
import io.tfjni.DataType;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import java.util.Arrays;
import java.util.function.BinaryOperator;

/**
 * DJL's pooling and convolution layers (channels-first: NCW, NCHW, NCDHW) on TensorFlow's
 * channels-last CPU kernels: transpose in, pad explicitly, run the VALID kernel, transpose out.
 * 1-D runs as 2-D with a unit height. Every intermediate is closed before returning.
 */
final class Layers {
  enum Pool { MAX, AVG, LP }

  private Layers() {}

  /**
   * Windowed pooling with PyTorch's meaning of padding, ceilMode and countIncludePad: in ceil
   * mode a last window that starts in the right padding is dropped, and an average counts the
   * padded cells (when countIncludePad) but never the cells ceil mode adds past the padding.
   */
  static NDArray pool(NDManager tf, NDArray x, Pool kind, float normType, Shape kernel,
      Shape stride, Shape padding, boolean ceilMode, boolean countIncludePad) {
    int spatial = x.shape().length - 2;
    checkSpatial("pooling", spatial);
    long[] k = dims(kernel, spatial, 1, "kernel");
    long[] s = dims(stride, spatial, 1, "stride");
    long[] p = dims(padding, spatial, 0, "padding");
    try (Temporaries t = new Temporaries()) {
      NDArray in = x;
      if (spatial == 1) {
        in = t.add(x.expandDims(2));
        k = new long[] {1, k[0]};
        s = new long[] {1, s[0]};
        p = new long[] {0, p[0]};
      }
      int d = k.length;
      long[] length = slice(in.shape(), 2, d);
      long[] extra = new long[d];
      boolean padded = false;
      for (int i = 0; i < d; i++) {
        if (2 * p[i] > k[i]) {
          throw new IllegalArgumentException("padding " + p[i] + " is more than half the kernel "
              + k[i]);
        }
        long span = length[i] + 2 * p[i] - k[i];
        if (span < 0) {
          throw new IllegalArgumentException("kernel " + k[i] + " is larger than the padded "
              + "input " + (length[i] + 2 * p[i]));
        }
        long out = (ceilMode ? (span + s[i] - 1) / s[i] : span / s[i]) + 1;
        if (ceilMode && (out - 1) * s[i] >= length[i] + p[i]) {
          out--;
        }
        extra[i] = Math.max(0, (out - 1) * s[i] + k[i] - (length[i] + 2 * p[i]));
        padded |= p[i] > 0 || extra[i] > 0;
      }
      NDArray last = t.add(channelsLast(in));
      NDArray source = last;
      if (kind == Pool.LP) {
        try (NDArray e = tf.scalar(last.dataType(), normType)) {
          source = t.add(tf.opBuilder("Pow").addInput(last).addInput(e).build());
        }
      }
      Number fill = kind == Pool.MAX ? Double.NEGATIVE_INFINITY : 0;
      NDArray window = padded ? t.add(pad(source, p, extra, fill)) : source;
      long[] ksize = withUnitEnds(k);
      long[] strides = withUnitEnds(s);
      String opName = (kind == Pool.MAX ? "MaxPool" : "AvgPool") + (d == 3 ? "3D" : "");
      NDArray pooled = t.add(tf.opBuilder(opName).addInput(window).setAttr("ksize", ksize)
          .setAttr("strides", strides).setAttr("padding", "VALID").build());
      NDArray result = pooled;
      if (kind == Pool.AVG && padded && (!countIncludePad || nonZero(extra))) {
        // The average over the counted cells: AvgPool of a 1/0 mask of them is count / volume.
        NDArray count = t.add(cellCount(tf, last.dataType(), length, p, extra,
            countIncludePad, opName, ksize, strides));
        result = t.add(tf.opBuilder("RealDiv").addInput(pooled).addInput(count).build());
      } else if (kind == Pool.LP) {
        long volume = 1;
        for (long v : k) {
          volume *= v;
        }
        try (NDArray n = tf.scalar(last.dataType(), volume);
            NDArray root = tf.scalar(last.dataType(), 1 / normType)) {
          NDArray sum = t.add(tf.opBuilder("Mul").addInput(pooled).addInput(n).build());
          result = t.add(tf.opBuilder("Pow").addInput(sum).addInput(root).build());
        }
      }
      NDArray first = channelsFirst(result);
      return spatial == 1 ? t.add(first).squeeze(2) : first;
    }
  }

  /** Max, mean or p-norm over every spatial axis: (N, C, ...) to (N, C). */
  static NDArray globalPool(NDManager tf, NDArray x, Pool kind, float normType) {
    int rank = x.shape().length;
    checkSpatial("global pooling", rank - 2);
    int[] axes = new int[rank - 2];
    for (int i = 0; i < axes.length; i++) {
      axes[i] = i + 2;
    }
    try (Temporaries t = new Temporaries();
        NDArray ax = tf.create(axes, axes.length)) {
      switch (kind) {
        case MAX:
          return tf.opBuilder("Max").addInput(x).addInput(ax).build();
        case AVG:
          return tf.opBuilder("Mean").addInput(x).addInput(ax).build();
        default:
          NDArray e = t.add(tf.scalar(x.dataType(), normType));
          NDArray root = t.add(tf.scalar(x.dataType(), 1 / normType));
          NDArray powered = t.add(tf.opBuilder("Pow").addInput(x).addInput(e).build());
          NDArray sum = t.add(tf.opBuilder("Sum").addInput(powered).addInput(ax).build());
          return tf.opBuilder("Pow").addInput(sum).addInput(root).build();
      }
    }
  }

  /**
   * Convolution of (N, C, spatial...) by DJL's (out, in / groups, kernel...) weight, zero padding
   * on both sides, optional (out) bias; groups run as separate convolutions concatenated.
   */
  static NDArray convolution(NDManager tf, NDArray x, NDArray weight, NDArray bias,
      Shape stride, Shape padding, Shape dilation, int groups) {
    int spatial = convolutionRank("convolution", x, weight);
    long[] s = unitHeight(dims(stride, spatial, 1, "stride"), 1);
    long[] p = unitHeight(dims(padding, spatial, 0, "padding"), 0);
    long[] dil = unitHeight(dims(dilation, spatial, 1, "dilation"), 1);
    try (Temporaries t = new Temporaries()) {
      NDArray in = unitHeight(t, x, spatial);
      int d = s.length;
      NDArray last = t.add(channelsLast(in));
      NDArray padded = nonZero(p) ? t.add(pad(last, p, new long[d], 0)) : last;
      // (out, in, k...) -> (k..., in, out), TensorFlow's filter layout.
      NDArray filter = t.add(unitHeight(t, weight, spatial).transpose(kernelFirst(d)));
      String opName = d == 3 ? "Conv3D" : "Conv2D";
      NDArray conv = anyAboveOne(dil)
          ? dilatedConvolution(t, tf, opName, padded, filter, groups, dil, s)
          : grouped(t, padded, filter, groups,
              (input, f) -> conv(tf, opName, input, f, withUnitEnds(s)));
      return biasedChannelsFirst(t, tf, conv, bias, spatial);
    }
  }

  /**
   * Transposed convolution of (N, C, spatial...) by DJL's (in, out, kernel...) weight: output
   * length (L - 1) * stride - 2 * padding + dilation * (kernel - 1) + outPadding + 1, as
   * PyTorch's conv_transpose; groups split the input channels and the weight's first axis.
   */
  static NDArray deconvolution(NDManager tf, NDArray x, NDArray weight, NDArray bias,
      Shape stride, Shape padding, Shape outPadding, Shape dilation, int groups) {
    int spatial = convolutionRank("deconvolution", x, weight);
    long[] s = unitHeight(dims(stride, spatial, 1, "stride"), 1);
    long[] p = unitHeight(dims(padding, spatial, 0, "padding"), 0);
    long[] op = unitHeight(dims(outPadding, spatial, 0, "outPadding"), 0);
    long[] dil = unitHeight(dims(dilation, spatial, 1, "dilation"), 1);
    try (Temporaries t = new Temporaries()) {
      NDArray in = unitHeight(t, x, spatial);
      NDArray w = unitHeight(t, weight, spatial);
      int d = s.length;
      long[] inShape = in.shape();
      long[] kernel = slice(w.shape(), 2, d);
      // The full (VALID) output, then cropped by the padding on both sides.
      long[] full = new long[d + 2];
      full[0] = inShape[0];
      full[d + 1] = w.shape()[1];  // per group
      long[] begin = new long[d + 2];
      long[] size = new long[d + 2];
      size[0] = -1;
      size[d + 1] = -1;
      for (int i = 0; i < d; i++) {
        full[i + 1] = (inShape[i + 2] - 1) * s[i] + dil[i] * (kernel[i] - 1) + 1 + op[i];
        begin[i + 1] = p[i];
        size[i + 1] = full[i + 1] - 2 * p[i];
        if (size[i + 1] <= 0 || op[i] >= Math.max(s[i], dil[i])) {
          throw new IllegalArgumentException("deconvolution padding " + p[i] + " / outPadding "
              + op[i] + " leave no valid output");
        }
      }
      NDArray last = t.add(channelsLast(in));
      // (in, out, k...) -> (k..., out, in): the filter of the convolution this one transposes.
      NDArray filter = spreadTaps(t, t.add(w.transpose(kernelFirst(d))), dil);
      NDArray sizes = t.add(tf.create(toInts(full), full.length));
      String opName = d == 3 ? "Conv3DBackpropInputV2" : "Conv2DBackpropInput";
      NDArray deconv = grouped(t, last, filter, groups,
          (input, f) -> transposedConv(tf, opName, sizes, f, input, s));
      NDArray cropped = t.add(deconv.slice(begin, size));
      return biasedChannelsFirst(t, tf, cropped, bias, spatial);
    }
  }

  /** The spatial rank of a convolution's input, checked against its weight's. */
  private static int convolutionRank(String what, NDArray x, NDArray weight) {
    int spatial = x.shape().length - 2;
    checkSpatial(what, spatial);
    if (weight.shape().length != spatial + 2) {
      throw new IllegalArgumentException(what + " weight must have rank " + (spatial + 2)
          + ", got " + weight.shape().length);
    }
    return spatial;
  }

  /** A 1-D layer's operand (N, C, L) as 2-D (N, C, 1, L), joining t; others as they are. */
  private static NDArray unitHeight(Temporaries t, NDArray x, int spatial) {
    return spatial == 1 ? t.add(x.expandDims(2)) : x;
  }

  /** A 1-D layer's per-axis parameter with {@code height}'s value for the unit height first. */
  private static long[] unitHeight(long[] values, long height) {
    return values.length == 1 ? new long[] {height, values[0]} : values;
  }

  /** The permutation of a weight (a, b, k...) to (k..., b, a). */
  private static int[] kernelFirst(int spatial) {
    int[] perm = new int[spatial + 2];
    for (int i = 0; i < spatial; i++) {
      perm[i] = i + 2;
    }
    perm[spatial] = 1;
    perm[spatial + 1] = 0;
    return perm;
  }

  /**
   * {@code run(input, filter)}, or with groups, run on each of the equal channel slices of both
   * (the last axis) and the results concatenated along it.
   */
  private static NDArray grouped(Temporaries t, NDArray input, NDArray filter, int groups,
      BinaryOperator<NDArray> run) {
    if (groups == 1) {
      return t.add(run.apply(input, filter));
    }
    NDArray[] inputs = input.split(groups, -1);
    NDArray[] filters = filter.split(groups, -1);
    for (int g = 0; g < groups; g++) {
      t.add(inputs[g]);
      t.add(filters[g]);
    }
    NDArray[] parts = new NDArray[groups];
    for (int g = 0; g < groups; g++) {
      parts[g] = t.add(run.apply(inputs[g], filters[g]));
    }
    return t.add(parts[0].concat(-1, Arrays.copyOfRange(parts, 1, groups)));
  }

  /** The bias added (if any), back to channels first, and a 1-D layer's unit height dropped. */
  private static NDArray biasedChannelsFirst(Temporaries t, NDManager tf, NDArray out,
      NDArray bias, int spatial) {
    NDArray biased = bias == null ? out
        : t.add(tf.opBuilder("BiasAdd").addInput(out).addInput(bias).build());
    NDArray first = channelsFirst(biased);
    return spatial == 1 ? t.add(first).squeeze(2) : first;
  }

  /** See {@link TfjniNDArrayEx#interpolation}: (N, C, H, W) resized to (N, C, size...). */
  static NDArray interpolate(NDManager tf, NDArray x, long[] size, int mode,
      boolean alignCorners) {
    long[] shape = x.shape();
    if (shape.length != 4 || size.length != 2) {
      throw new IllegalArgumentException("interpolation needs (N, C, H, W) and a (height, "
          + "width) size, got rank " + shape.length + " and " + size.length + " sizes");
    }
    if (mode < 0 || mode > 3) {
      throw new UnsupportedOperationException("interpolation mode " + mode
          + " is not supported (NEAREST, BILINEAR, AREA, BICUBIC are)");
    }
    if (alignCorners && (mode == 0 || mode == 2)) {
      // As PyTorch's interpolate: corners are points of the interpolating modes only.
      throw new IllegalArgumentException("alignCorners applies to BILINEAR and BICUBIC, not to "
          + (mode == 0 ? "NEAREST" : "AREA"));
    }
    try (Temporaries t = new Temporaries()) {
      NDArray last = t.add(channelsLast(x));
      NDArray input = last.dataType() == DataType.FLOAT ? last
          : t.add(last.cast(DataType.FLOAT));
      NDArray dims = t.add(tf.create(toInts(size), 2));
      NDArray resized;
      if (mode == 0) {
        resized = t.add(tf.opBuilder("ResizeNearestNeighbor").addInput(input).addInput(dims)
            .build());
      } else if (mode == 2) {
        resized = t.add(tf.opBuilder("ResizeArea").addInput(input).addInput(dims).build());
      } else if (alignCorners) {
        resized = t.add(tf.opBuilder(mode == 1 ? "ResizeBilinear" : "ResizeBicubic")
            .addInput(input).addInput(dims).setAttr("align_corners", true).build());
      } else {
        float[] scale = {(float) size[0] / shape[2], (float) size[1] / shape[3]};
        NDArray scales = t.add(tf.create(scale, 2));
        NDArray translation = t.add(tf.create(new float[] {0, 0}, 2));
        resized = t.add(tf.opBuilder("ScaleAndTranslate").addInput(input).addInput(dims)
            .addInput(scales).addInput(translation)
            .setAttr("kernel_type", mode == 1 ? "triangle" : "keyscubic")
            .setAttr("antialias", true).build());
      }
      return channelsFirst(resized);
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static NDArray transposedConv(NDManager tf, String opName, NDArray sizes,
      NDArray filter, NDArray x, long[] strides) {
    return tf.opBuilder(opName).addInput(sizes).addInput(filter).addInput(x)
        .setAttr("strides", withUnitEnds(strides)).setAttr("padding", "VALID").build();
  }

  /*
   * Dilation. TensorFlow's CPU convolution kernels without oneDNN refuse dilation rates above 1,
   * so dilated layers are rewritten into undilated kernels that run on every CPU, with the same
   * products (only their summation order may differ).
   */

  /**
   * A dilated convolution of a padded channels-last input as TensorFlow Python runs one
   * (tf.nn.convolution): every dilation[i]-th element gathered into the batch (SpaceToBatchND,
   * padding the end to a multiple), an undilated stride-1 convolution, the results interleaved
   * back (BatchToSpaceND, cropping that padding), then every stride[i]-th position kept.
   */
  private static NDArray dilatedConvolution(Temporaries t, NDManager tf, String opName,
      NDArray x, NDArray filter, int groups, long[] dilation, long[] stride) {
    int d = dilation.length;
    long[] shape = x.shape();
    long[] endPadding = new long[2 * d];
    for (int i = 0; i < d; i++) {
      endPadding[2 * i + 1] = (dilation[i] - shape[i + 1] % dilation[i]) % dilation[i];
    }
    NDArray block = t.add(tf.create(dilation, d));
    NDArray padding = t.add(tf.create(endPadding, d, 2));
    NDArray batched = t.add(tf.opBuilder("SpaceToBatchND").addInput(x).addInput(block)
        .addInput(padding).build());
    long[] unit = withUnitEnds(ones(d));
    NDArray conv = grouped(t, batched, filter, groups,
        (input, f) -> conv(tf, opName, input, f, unit));
    NDArray dense = t.add(tf.opBuilder("BatchToSpaceND").addInput(conv).addInput(block)
        .addInput(padding).build());
    if (!anyAboveOne(stride)) {
      return dense;
    }
    int rank = d + 2;
    NDArray zeros = t.add(tf.create(new long[rank], rank));
    NDArray steps = t.add(tf.create(withUnitEnds(stride), rank));
    return t.add(tf.opBuilder("StridedSlice").addInput(dense).addInput(zeros).addInput(zeros)
        .addInput(steps).setAttr("end_mask", (1L << rank) - 1).build());
  }

  /**
   * A filter (k..., a, b) with dilation[i] - 1 zeros between its taps along spatial axis i: the
   * undilated filter of the same reach, (k - 1) * dilation + 1.
   */
  private static NDArray spreadTaps(Temporaries t, NDArray filter, long[] dilation) {
    NDArray spread = filter;
    for (int i = 0; i < dilation.length; i++) {
      if (dilation[i] == 1) {
        continue;
      }
      long[] shape = spread.shape();
      long[][] zerosAfterEachTap = new long[shape.length + 1][2];
      zerosAfterEachTap[i + 1][1] = dilation[i] - 1;
      long[] flat = shape.clone();
      flat[i] = shape[i] * dilation[i];
      NDArray padded = t.add(t.add(spread.expandDims(i + 1)).pad(zerosAfterEachTap));
      NDArray interleaved = t.add(padded.reshape(flat));
      long[] reach = shape.clone();
      reach[i] = (shape[i] - 1) * dilation[i] + 1;
      spread = t.add(interleaved.slice(new long[shape.length], reach));
    }
    return spread;
  }

  /**
   * (x - mean) / sqrt(var + eps) over the trailing {@code normalizedAxes} axes, then times gamma
   * plus beta (either may be null).
   */
  static NDArray layerNorm(NDArray x, int normalizedAxes, NDArray gamma, NDArray beta,
      float eps) {
    int rank = x.shape().length;
    int[] axes = new int[normalizedAxes];
    for (int i = 0; i < axes.length; i++) {
      axes[i] = rank - normalizedAxes + i;
    }
    try (Temporaries t = new Temporaries()) {
      NDArray centered = t.add(x.sub(t.add(x.mean(axes, true))));
      NDArray variance = t.add(t.add(centered.square()).mean(axes, true));
      NDArray std = t.add(t.add(variance.add(eps)).sqrt());
      return affine(t, centered.div(std), gamma, beta);
    }
  }

  /**
   * Inference batch norm: (x - mean) / sqrt(var + eps) times gamma plus beta (either may be
   * null), the running statistics and parameters laid along {@code channelAxis}.
   */
  static NDArray batchNorm(NDArray x, NDArray mean, NDArray variance, NDArray gamma,
      NDArray beta, int channelAxis, float eps) {
    long[] dims = new long[x.shape().length];
    Arrays.fill(dims, 1);
    dims[channelAxis] = -1;
    try (Temporaries t = new Temporaries()) {
      NDArray centered = t.add(x.sub(t.add(mean.reshape(dims))));
      NDArray std = t.add(t.add(t.add(variance.reshape(dims)).add(eps)).sqrt());
      return affine(t, centered.div(std), gamma == null ? null : t.add(gamma.reshape(dims)),
          beta == null ? null : t.add(beta.reshape(dims)));
    }
  }

  /** {@code x} times gamma plus beta, either of which may be null; x joins t if replaced. */
  private static NDArray affine(Temporaries t, NDArray x, NDArray gamma, NDArray beta) {
    NDArray out = x;
    if (gamma != null) {
      out = t.add(out).mul(gamma);
    }
    if (beta != null) {
      out = t.add(out).add(beta);
    }
    return out;
  }

  private static NDArray conv(NDManager tf, String opName, NDArray x, NDArray filter,
      long[] strides) {
    return tf.opBuilder(opName).addInput(x).addInput(filter).setAttr("strides", strides)
        .setAttr("padding", "VALID").build();
  }

  /** A mask of the counted cells (1) padded like the input, average-pooled as the input was. */
  private static NDArray cellCount(NDManager tf, DataType type, long[] length, long[] p,
      long[] extra, boolean countPadding, String opName, long[] ksize, long[] strides) {
    int d = length.length;
    long[] dims = new long[d + 2];
    dims[0] = 1;
    dims[d + 1] = 1;
    System.arraycopy(length, 0, dims, 1, d);
    try (Temporaries t = new Temporaries()) {
      NDArray one = t.add(tf.scalar(type, 1));
      NDArray shape = t.add(tf.create(dims, dims.length));
      NDArray ones = t.add(tf.opBuilder("Fill").addInput(shape).addInput(one).build());
      NDArray mask;
      if (countPadding) {
        NDArray withPadding = t.add(pad(ones, p, new long[d], 1));
        mask = t.add(pad(withPadding, new long[d], extra, 0));
      } else {
        mask = t.add(pad(ones, p, extra, 0));
      }
      return tf.opBuilder(opName).addInput(mask).setAttr("ksize", ksize)
          .setAttr("strides", strides).setAttr("padding", "VALID").build();
    }
  }

  /** Pads the spatial axes of a channels-last array: before[i] and after[i] + extra[i]. */
  private static NDArray pad(NDArray x, long[] before, long[] extra, Number fill) {
    int d = before.length;
    long[][] pads = new long[d + 2][2];
    for (int i = 0; i < d; i++) {
      pads[i + 1] = new long[] {before[i], before[i] + extra[i]};
    }
    return x.pad(pads, fill);
  }

  private static NDArray channelsLast(NDArray x) {
    int rank = x.shape().length;
    int[] perm = new int[rank];
    for (int i = 1; i < rank - 1; i++) {
      perm[i] = i + 1;
    }
    perm[rank - 1] = 1;
    return x.transpose(perm);
  }

  private static NDArray channelsFirst(NDArray x) {
    int rank = x.shape().length;
    int[] perm = new int[rank];
    perm[1] = rank - 1;
    for (int i = 2; i < rank; i++) {
      perm[i] = i - 1;
    }
    return x.transpose(perm);
  }

  private static void checkSpatial(String what, int spatial) {
    if (spatial < 1 || spatial > 3) {
      throw new IllegalArgumentException(what + " needs (N, C, W), (N, C, H, W) or "
          + "(N, C, D, H, W) input, got rank " + (spatial + 2));
    }
  }

  /** The shape's dims, one per spatial axis; an empty shape means {@code fallback} each. */
  private static long[] dims(Shape shape, int spatial, long fallback, String name) {
    long[] out = new long[spatial];
    if (shape == null || shape.dimension() == 0) {
      Arrays.fill(out, fallback);
      return out;
    }
    if (shape.dimension() != spatial) {
      throw new IllegalArgumentException(name + " " + shape + " must have " + spatial
          + " dimensions");
    }
    for (int i = 0; i < spatial; i++) {
      out[i] = shape.get(i);
      if (out[i] < (fallback == 0 ? 0 : 1)) {
        throw new IllegalArgumentException(name + " " + shape + " has an invalid dimension");
      }
    }
    return out;
  }

  private static long[] withUnitEnds(long[] values) {
    long[] out = new long[values.length + 2];
    out[0] = 1;
    out[out.length - 1] = 1;
    System.arraycopy(values, 0, out, 1, values.length);
    return out;
  }

  private static long[] slice(long[] values, int from, int count) {
    return Arrays.copyOfRange(values, from, from + count);
  }

  private static int[] toInts(long[] values) {
    int[] out = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Math.toIntExact(values[i]);
    }
    return out;
  }

  private static long[] ones(int count) {
    long[] out = new long[count];
    Arrays.fill(out, 1);
    return out;
  }

  private static boolean anyAboveOne(long[] values) {
    for (long v : values) {
      if (v > 1) {
        return true;
      }
    }
    return false;
  }

  private static boolean nonZero(long[] values) {
    for (long v : values) {
      if (v != 0) {
        return true;
      }
    }
    return false;
  }
}
