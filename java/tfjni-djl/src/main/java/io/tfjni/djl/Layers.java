package io.tfjni.djl;

import ai.djl.ndarray.types.Shape;
import io.tfjni.DataType;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import io.tfjni.eager.Nn;
import io.tfjni.eager.ResizeMethod;
import java.util.Arrays;
import java.util.function.BinaryOperator;

/**
 * What DJL's pooling, convolution and resizing layers add to the core's channels-last
 * {@link Nn} layers: channels first (NCW, NCHW, NCDHW: transposed in and out), PyTorch's padding
 * (explicit, on both sides, and ceil mode), groups, Lp pooling and the global poolings. Every
 * intermediate is closed before returning.
 */
final class Layers {
  enum Pool { MAX, AVG, LP }

  /** DJL's interpolation modes 0 to 3, in order. */
  private static final ResizeMethod[] INTERPOLATION_MODES = {ResizeMethod.NEAREST,
      ResizeMethod.BILINEAR, ResizeMethod.AREA, ResizeMethod.BICUBIC};

  private Layers() {}

  /**
   * Windowed pooling with PyTorch's meaning of padding, ceilMode and countIncludePad: in ceil
   * mode a last window that starts in the right padding is dropped, and an average counts the
   * padded cells (when countIncludePad) but never the cells ceil mode adds past the padding.
   */
  static NDArray pool(NDArray x, Pool kind, float normType, Shape kernel, Shape stride,
      Shape padding, boolean ceilMode, boolean countIncludePad) {
    int d = x.shape().length - 2;
    checkSpatial("pooling", d);
    long[] k = dims(kernel, d, 1, "kernel");
    long[] s = dims(stride, d, 1, "stride");
    long[] p = dims(padding, d, 0, "padding");
    long[] length = slice(x.shape(), 2, d);
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
    try (Temporaries t = new Temporaries()) {
      NDArray last = t.add(channelsLast(x));
      NDArray source = kind == Pool.LP ? t.add(last.pow(normType)) : last;
      Number fill = kind == Pool.MAX ? Double.NEGATIVE_INFINITY : 0;
      NDArray window = padded ? t.add(pad(source, p, extra, fill)) : source;
      NDArray pooled = t.add(kind == Pool.MAX ? Nn.maxPool(window, k, s)
          : Nn.avgPool(window, k, s));
      NDArray result = pooled;
      if (kind == Pool.AVG && padded && (!countIncludePad || nonZero(extra))) {
        // The average over the counted cells: the average of a 1/0 mask of them is count / volume.
        NDArray count = t.add(cellCount(x.getManager(), last.dataType(), length, p, extra,
            countIncludePad, k, s));
        result = t.add(pooled.div(count));
      } else if (kind == Pool.LP) {
        long volume = 1;
        for (long v : k) {
          volume *= v;
        }
        result = t.add(t.add(pooled.mul(volume)).pow(1 / normType));
      }
      return channelsFirst(result);
    }
  }

  /** A mask of the counted cells (1) padded like the input, average-pooled as the input was. */
  private static NDArray cellCount(NDManager tf, DataType type, long[] length, long[] p,
      long[] extra, boolean countPadding, long[] kernel, long[] stride) {
    int d = length.length;
    long[] dims = new long[d + 2];
    dims[0] = 1;
    dims[d + 1] = 1;
    System.arraycopy(length, 0, dims, 1, d);
    try (Temporaries t = new Temporaries()) {
      NDArray ones = t.add(tf.ones(type, dims));
      NDArray mask;
      if (countPadding) {
        NDArray withPadding = t.add(pad(ones, p, new long[d], 1));
        mask = t.add(pad(withPadding, new long[d], extra, 0));
      } else {
        mask = t.add(pad(ones, p, extra, 0));
      }
      return Nn.avgPool(mask, kernel, stride);
    }
  }

  /** Max, mean or p-norm over every spatial axis: (N, C, ...) to (N, C). */
  static NDArray globalPool(NDArray x, Pool kind, float normType) {
    int rank = x.shape().length;
    checkSpatial("global pooling", rank - 2);
    int[] axes = new int[rank - 2];
    for (int i = 0; i < axes.length; i++) {
      axes[i] = i + 2;
    }
    switch (kind) {
      case MAX:
        return x.max(axes);
      case AVG:
        return x.mean(axes);
      default:
        try (NDArray powered = x.pow(normType); NDArray sum = powered.sum(axes)) {
          return sum.pow(1 / normType);
        }
    }
  }

  /**
   * Convolution of (N, C, spatial...) by DJL's (out, in / groups, kernel...) weight, zero padding
   * on both sides, optional (out) bias; groups run as separate convolutions concatenated.
   */
  static NDArray convolution(NDArray x, NDArray weight, NDArray bias, Shape stride,
      Shape padding, Shape dilation, int groups) {
    int d = convolutionRank("convolution", x, weight);
    long[] s = dims(stride, d, 1, "stride");
    long[] p = dims(padding, d, 0, "padding");
    long[] dil = dims(dilation, d, 1, "dilation");
    try (Temporaries t = new Temporaries()) {
      NDArray last = t.add(channelsLast(x));
      NDArray padded = nonZero(p) ? t.add(pad(last, p, new long[d], 0)) : last;
      // (out, in, k...) -> (k..., in, out), TensorFlow's filter layout.
      NDArray filter = t.add(weight.transpose(kernelFirst(d)));
      NDArray conv = grouped(t, padded, filter, groups,
          (input, f) -> Nn.convolution(input, f, s, dil));
      return biasedChannelsFirst(t, conv, bias);
    }
  }

  /**
   * Transposed convolution of (N, C, spatial...) by DJL's (in, out, kernel...) weight: output
   * length (L - 1) * stride - 2 * padding + dilation * (kernel - 1) + outPadding + 1, as
   * PyTorch's conv_transpose; groups split the input channels and the weight's first axis.
   */
  static NDArray deconvolution(NDArray x, NDArray weight, NDArray bias, Shape stride,
      Shape padding, Shape outPadding, Shape dilation, int groups) {
    int d = convolutionRank("deconvolution", x, weight);
    long[] s = dims(stride, d, 1, "stride");
    long[] p = dims(padding, d, 0, "padding");
    long[] op = dims(outPadding, d, 0, "outPadding");
    long[] dil = dims(dilation, d, 1, "dilation");
    long[] inShape = x.shape();
    long[] kernel = slice(weight.shape(), 2, d);
    // The full (VALID) output, then cropped by the padding on both sides.
    long[] full = new long[d + 2];
    full[0] = inShape[0];
    full[d + 1] = weight.shape()[1];  // per group
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
    try (Temporaries t = new Temporaries()) {
      NDArray last = t.add(channelsLast(x));
      // (in, out, k...) -> (k..., out, in): the filter of the convolution this one transposes.
      NDArray filter = t.add(weight.transpose(kernelFirst(d)));
      NDArray deconv = grouped(t, last, filter, groups,
          (input, f) -> Nn.convolutionTranspose(input, f, full, s, dil));
      NDArray cropped = t.add(deconv.slice(begin, size));
      return biasedChannelsFirst(t, cropped, bias);
    }
  }

  /** The bias added (if any), back to channels first. */
  private static NDArray biasedChannelsFirst(Temporaries t, NDArray out, NDArray bias) {
    return channelsFirst(bias == null ? out : t.add(Nn.biasAdd(out, bias)));
  }

  /** See {@link TfjniNDArrayEx#interpolation}: (N, C, H, W) resized to (N, C, size...). */
  static NDArray interpolate(NDArray x, long[] size, int mode, boolean alignCorners) {
    long[] shape = x.shape();
    if (shape.length != 4 || size.length != 2) {
      throw new IllegalArgumentException("interpolation needs (N, C, H, W) and a (height, "
          + "width) size, got rank " + shape.length + " and " + size.length + " sizes");
    }
    if (mode < 0 || mode > 3) {
      throw new UnsupportedOperationException("interpolation mode " + mode
          + " is not supported (NEAREST, BILINEAR, AREA, BICUBIC are)");
    }
    ResizeMethod method = INTERPOLATION_MODES[mode];
    boolean interpolating = method == ResizeMethod.BILINEAR || method == ResizeMethod.BICUBIC;
    if (alignCorners && !interpolating) {
      // As PyTorch's interpolate: corners are points of the interpolating modes only.
      throw new IllegalArgumentException("alignCorners applies to BILINEAR and BICUBIC, not to "
          + method);
    }
    int height = Math.toIntExact(size[0]);
    int width = Math.toIntExact(size[1]);
    try (Temporaries t = new Temporaries()) {
      NDArray input = Indexing.castTo(t, t.add(channelsLast(x)), DataType.FLOAT);
      // Nearest and area sample as TensorFlow 1 did; the interpolating modes antialias.
      NDArray resized = t.add(!interpolating ? input.resize(height, width, method, false)
          : alignCorners ? input.resizeAlignCorners(height, width, method)
          : input.resizeAntialiased(height, width, method));
      return channelsFirst(resized);
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

  private static long[] slice(long[] values, int from, int count) {
    return Arrays.copyOfRange(values, from, from + count);
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
