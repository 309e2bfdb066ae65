package io.tfjni.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDArrayIndexer;
import ai.djl.ndarray.internal.NDArrayEx;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import ai.djl.nn.recurrent.RNN;
import ai.djl.util.RandomUtils;
import io.tfjni.eager.ResizeMethod;
import java.util.Arrays;
import java.util.List;

/** DJL's engine-internal operations (activations, image ops, ...) for {@link TfjniNDArray}. */
final class TfjniNDArrayEx implements NDArrayEx {
  private static final String TRAINING = "tfjni's TensorFlow engine is for inference: ";

  /** DJL's Image.Interpolation, by ordinal. */
  private static final ResizeMethod[] RESIZE_METHODS = {ResizeMethod.NEAREST,
      ResizeMethod.BILINEAR, ResizeMethod.AREA, ResizeMethod.BICUBIC};

  private final TfjniNDArray array;

  TfjniNDArrayEx(TfjniNDArray array) {
    this.array = array;
  }

  @Override
  public NDArray getArray() {
    return array;
  }

  @Override
  public NDArray rdivi(NDArray b) {
    NDArray result = b.div(array);
    array.intern(result);
    return array;
  }

  /** n - x in one op (not -(x - n), which gives -0 where x == n). */
  @Override
  public NDArray rsub(Number n) {
    try (io.tfjni.eager.NDArray s = array.scalar(n)) {
      return array.wrap(s.sub(array.tfArray()));
    }
  }

  @Override
  public NDArray rsubi(Number n) {
    array.intern(rsub(n));
    return array;
  }

  @Override
  public NDArray rsubi(NDArray b) {
    array.intern(b.sub(array));
    return array;
  }

  @Override
  public NDArray rmodi(NDArray b) {
    NDArray result = b.mod(array);
    array.intern(result);
    return array;
  }

  @Override
  public NDArray rpowi(Number n) {
    // n broadcast against the array, as n - x in rsub.
    try (io.tfjni.eager.NDArray base = array.scalar(n.floatValue())) {
      array.intern(array.wrap(base.pow(array.tfArray())));
      return array;
    }
  }

  @Override
  public NDArray relu() {
    return array.wrap(array.tfArray().relu());
  }

  @Override
  public NDArray sigmoid() {
    return array.wrap(array.tfArray().sigmoid());
  }

  @Override
  public NDArray tanh() {
    return array.tanh();
  }

  @Override
  public NDArray softPlus() {
    return array.wrap(array.tfArray().softplus());
  }

  @Override
  public NDArray softSign() {
    return array.wrap(array.tfArray().softsign());
  }

  @Override
  public NDArray leakyRelu(float alpha) {
    return array.wrap(array.tfArray().leakyRelu(alpha));
  }

  @Override
  public NDArray elu(float alpha) {
    return array.wrap(array.tfArray().elu(alpha));
  }

  @Override
  public NDArray selu() {
    return array.wrap(array.tfArray().selu());
  }

  @Override
  public NDArray gelu() {
    return array.wrap(array.tfArray().gelu(false));
  }

  @Override
  public NDArray maxPool(Shape kernelShape, Shape stride, Shape padding, boolean ceilMode) {
    return pool(Layers.Pool.MAX, 0, kernelShape, stride, padding, ceilMode, true);
  }

  @Override
  public NDArray globalMaxPool() {
    return globalPool(Layers.Pool.MAX, 0);
  }

  @Override
  public NDArray avgPool(Shape kernelShape, Shape stride, Shape padding, boolean ceilMode,
      boolean countIncludePad) {
    return pool(Layers.Pool.AVG, 0, kernelShape, stride, padding, ceilMode, countIncludePad);
  }

  @Override
  public NDArray globalAvgPool() {
    return globalPool(Layers.Pool.AVG, 0);
  }

  @Override
  public NDArray lpPool(float normType, Shape kernelShape, Shape stride, Shape padding,
      boolean ceilMode) {
    return pool(Layers.Pool.LP, normType, kernelShape, stride, padding, ceilMode, true);
  }

  @Override
  public NDArray globalLpPool(float normType) {
    return globalPool(Layers.Pool.LP, normType);
  }

  private NDArray pool(Layers.Pool kind, float normType, Shape kernelShape, Shape stride,
      Shape padding, boolean ceilMode, boolean countIncludePad) {
    return array.wrap(Layers.pool(array.tfArray(), kind, normType, kernelShape,
        stride, padding, ceilMode, countIncludePad));
  }

  private NDArray globalPool(Layers.Pool kind, float normType) {
    return array.wrap(Layers.globalPool(array.tfArray(), kind, normType));
  }

  @Override
  public void adadeltaUpdate(NDList inputs, NDList weights, float weightDecay,
      float rescaleGrad, float clipGrad, float rho, float epsilon) {
    throw new UnsupportedOperationException(TRAINING + "no optimizers");
  }

  @Override
  public void adagradUpdate(NDList inputs, NDList weights, float learningRate,
      float weightDecay, float rescaleGrad, float clipGrad, float epsilon) {
    throw new UnsupportedOperationException(TRAINING + "no optimizers");
  }

  @Override
  public void adamUpdate(NDList inputs, NDList weights, float learningRate,
      float learningRateBiasCorrection, float weightDecay, float rescaleGrad, float clipGrad,
      float beta1, float beta2, float epsilon, boolean lazyUpdate, boolean adamw) {
    throw new UnsupportedOperationException(TRAINING + "no optimizers");
  }

  @Override
  public void nagUpdate(NDList inputs, NDList weights, float learningRate, float weightDecay,
      float rescaleGrad, float clipGrad, float momentum) {
    throw new UnsupportedOperationException(TRAINING + "no optimizers");
  }

  @Override
  public void rmspropUpdate(NDList inputs, NDList weights, float learningRate,
      float weightDecay, float rescaleGrad, float clipGrad, float rho, float momentum,
      float epsilon, boolean centered) {
    throw new UnsupportedOperationException(TRAINING + "no optimizers");
  }

  @Override
  public void sgdUpdate(NDList inputs, NDList weights, float learningRate, float weightDecay,
      float rescaleGrad, float clipGrad, float momentum, boolean lazyUpdate) {
    throw new UnsupportedOperationException(TRAINING + "no optimizers");
  }

  @Override
  public NDList convolution(NDArray input, NDArray weight, NDArray bias, Shape stride,
      Shape padding, Shape dilation, int groups) {
    return new NDList(array.wrap(Layers.convolution(array.tfOf(input),
        array.tfOf(weight), bias == null ? null : array.tfOf(bias), stride, padding, dilation,
        groups)));
  }

  @Override
  public NDList deconvolution(NDArray input, NDArray weight, NDArray bias, Shape stride,
      Shape padding, Shape outPadding, Shape dilation, int groups) {
    return new NDList(array.wrap(Layers.deconvolution(array.tfOf(input),
        array.tfOf(weight), bias == null ? null : array.tfOf(bias), stride, padding, outPadding,
        dilation, groups)));
  }

  @Override
  public NDList linear(NDArray input, NDArray weight, NDArray bias) {
    // y = x W^T + b, as DJL's Linear block defines it, in the input's manager.
    TfjniNDArray in = ((TfjniNDManager) array.getManager()).from(input);
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray wt = t.add(in.tfOf(weight).transpose());
      io.tfjni.eager.NDArray y = in.tfArray().matMul(wt);
      if (bias == null) {
        return new NDList(in.wrap(y));
      }
      return new NDList(in.wrap(t.add(y).add(in.tfOf(bias))));
    }
  }

  @Override
  public NDList embedding(NDArray input, NDArray weight, SparseFormat sparse) {
    return new NDList(weight.gather(input, 0));
  }

  @Override
  public NDList prelu(NDArray input, NDArray alpha) {
    // The result belongs to the input's manager, as the input's own ops' would.
    TfjniNDArray in = ((TfjniNDManager) array.getManager()).from(input);
    io.tfjni.eager.NDArray x = in.tfArray();
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray scaled = t.add(x.mul(in.tfOf(alpha)));
      return new NDList(in.wrap(select(t, t.add(x.lt(0)), scaled, x)));
    }
  }

  @Override
  public NDList dropout(NDArray input, float rate, boolean training) {
    if (training) {
      throw new UnsupportedOperationException(TRAINING + "no training-mode dropout");
    }
    return new NDList(input.duplicate());
  }

  @Override
  public NDList layerNorm(NDArray input, Shape normalizedShape, NDArray gamma, NDArray beta,
      float eps) {
    return new NDList(array.wrap(Layers.layerNorm(array.tfOf(input), normalizedShape.dimension(),
        optional(gamma), optional(beta), eps)));
  }

  /** The tfjni array of an optional parameter, or null. */
  private io.tfjni.eager.NDArray optional(NDArray parameter) {
    return parameter == null ? null : array.tfOf(parameter);
  }

  @Override
  public NDList batchNorm(NDArray input, NDArray runningMean, NDArray runningVar,
      NDArray gamma, NDArray beta, int axis, float momentum, float eps, boolean training) {
    if (training) {
      throw new UnsupportedOperationException(TRAINING + "no training-mode batchNorm");
    }
    int channelAxis = Axes.normalize(axis, input.getShape().dimension());
    return new NDList(array.wrap(Layers.batchNorm(array.tfOf(input), array.tfOf(runningMean),
        array.tfOf(runningVar), optional(gamma), optional(beta), channelAxis, eps)));
  }

  @Override
  public NDList rnn(NDArray input, NDArray state, NDList params, boolean hasBiases,
      int numLayers, RNN.Activation activation, double dropRate, boolean training,
      boolean bidirectional, boolean batchFirst) {
    if (activation == null) {
      throw new IllegalArgumentException("rnn needs an activation (TANH or RELU)");
    }
    Recurrent.Cell cell = activation == RNN.Activation.RELU ? Recurrent.Cell.RNN_RELU
        : Recurrent.Cell.RNN_TANH;
    return recurrent(cell, input, new NDArray[] {state}, params, hasBiases, numLayers,
        dropRate, training, bidirectional, batchFirst);
  }

  @Override
  public NDList gru(NDArray input, NDArray state, NDList params, boolean hasBiases,
      int numLayers, double dropRate, boolean training, boolean bidirectional,
      boolean batchFirst) {
    return recurrent(Recurrent.Cell.GRU, input, new NDArray[] {state}, params, hasBiases,
        numLayers, dropRate, training, bidirectional, batchFirst);
  }

  @Override
  public NDList lstm(NDArray input, NDList states, NDList params, boolean hasBiases,
      int numLayers, double dropRate, boolean training, boolean bidirectional,
      boolean batchFirst) {
    if (states == null || states.size() != 2) {
      throw new IllegalArgumentException("lstm expects 2 states (hidden, cell), got "
          + (states == null ? "none" : states.size()));
    }
    return recurrent(Recurrent.Cell.LSTM, input, new NDArray[] {states.get(0), states.get(1)},
        params, hasBiases, numLayers, dropRate, training, bidirectional, batchFirst);
  }

  /** Checks the arguments, runs {@link Recurrent} and wraps its results into this manager. */
  private NDList recurrent(Recurrent.Cell cell, NDArray input, NDArray[] states, NDList params,
      boolean hasBiases, int numLayers, double dropRate, boolean training,
      boolean bidirectional, boolean batchFirst) {
    // Dropout applies between stacked layers only, and only when training (as PyTorch).
    if (training && dropRate > 0 && numLayers > 1) {
      throw new UnsupportedOperationException(TRAINING + "no training-mode dropout between "
          + cell.opName + " layers");
    }
    if (input == null || params == null) {
      throw new IllegalArgumentException(cell.opName + " needs an input and parameters");
    }
    io.tfjni.eager.NDArray[] tfStates = new io.tfjni.eager.NDArray[states.length];
    for (int i = 0; i < states.length; i++) {
      if (states[i] == null) {
        throw new IllegalArgumentException(cell.opName + " state " + i + " is null");
      }
      tfStates[i] = array.tfOf(states[i]);
    }
    List<io.tfjni.eager.NDArray> tfParams = new java.util.ArrayList<>(params.size());
    for (NDArray p : params) {
      tfParams.add(p == null ? null : array.tfOf(p));
    }
    return array.wrapAll(Recurrent.run(array.tf(), cell, array.tfOf(input), tfStates, tfParams,
        hasBiases, numLayers, bidirectional, batchFirst));
  }

  /** HWC, as DJL's TensorFlow engine: the image (0..255) / 255 as FLOAT32. */
  @Override
  public NDArray normalize(float[] mean, float[] std) {
    int dim = array.getShape().dimension();
    Shape shape = dim == 3 ? new Shape(1, 1, mean.length) : new Shape(1, 1, 1, mean.length);
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray m = t.add(array.tf().create(mean, shape.getShape()));
      io.tfjni.eager.NDArray s = t.add(array.tf().create(std, shape.getShape()));
      io.tfjni.eager.NDArray centered = t.add(array.tfArray().sub(m));
      return array.wrap(centered.div(s));
    }
  }

  /** HWC kept (TensorFlow's layout): values / 255 as FLOAT32, as DJL's TensorFlow engine. */
  @Override
  public NDArray toTensor() {
    try (Temporaries t = new Temporaries()) {
      return array.wrap(array.tfArray(t, DataType.FLOAT32).div(255f));
    }
  }

  /**
   * Resizes the last two axes of (N, C, H, W) to {@code size} (height, width) as PyTorch's
   * interpolate: NEAREST floors (no half-pixel shift), BILINEAR and BICUBIC antialias when they
   * shrink (ScaleAndTranslate; bicubic with TensorFlow's Keys kernel, a = -0.5, where PyTorch
   * uses -0.75), AREA averages (ResizeArea); alignCorners maps corner to corner through
   * ResizeBilinear or ResizeBicubic and, as in PyTorch, is refused for NEAREST and AREA.
   */
  @Override
  public NDArray interpolation(long[] size, int mode, boolean alignCorners) {
    return array.wrap(Layers.interpolate(array.tfArray(), size, mode,
        alignCorners));
  }

  /**
   * NDImageUtils' interpolations (NEAREST, BILINEAR, AREA, BICUBIC) as TensorFlow's resize ops
   * with half-pixel centers (as tf.image.resize); HWC or NHWC; NEAREST keeps the input's type,
   * the others give FLOAT32 (TensorFlow's kernels).
   */
  @Override
  public NDArray resize(int width, int height, int interpolation) {
    Shape shape = array.getShape();
    if (shape.size() == 0 || shape.dimension() < 3) {
      throw new IllegalArgumentException("resize needs an HWC or NHWC image, got " + shape);
    }
    if (interpolation < 0 || interpolation >= RESIZE_METHODS.length) {
      throw new UnsupportedOperationException("interpolation " + interpolation
          + " is not supported");
    }
    return array.wrap(array.tfArray().resize(height, width, RESIZE_METHODS[interpolation],
        !"false".equalsIgnoreCase(System.getProperty(TfjniEngine.RESIZE_HALF_PIXEL_CENTERS))));
  }

  /** Mirrors an HWC or NHWC image's width with probability 1/2 (else a copy). */
  @Override
  public NDArray randomFlipLeftRight() {
    return randomFlip(2);
  }

  /** Mirrors an HWC or NHWC image's height with probability 1/2 (else a copy). */
  @Override
  public NDArray randomFlipTopBottom() {
    return randomFlip(3);
  }

  /** Reverses the axis {@code fromEnd} places from the end (channels last) half the time. */
  private NDArray randomFlip(int fromEnd) {
    int rank = array.getShape().dimension();
    if (rank < 3) {
      throw new IllegalArgumentException("random flips need an HWC or NHWC image, got "
          + array.getShape());
    }
    return RandomUtils.nextFloat() < 0.5f ? array.flip(rank - fromEnd) : array.duplicate();
  }

  /** Scales the image by 1 + a uniform factor in [-brightness, brightness]. */
  @Override
  public NDArray randomBrightness(float brightness) {
    float factor = 1 + RandomUtils.nextFloat(-brightness, brightness);
    return array.mul(factor);
  }

  /** tf.image.adjust_hue by a uniform delta in [-hue, hue] (of a full turn, at most 0.5). */
  @Override
  public NDArray randomHue(float hue) {
    float delta = hueDelta(hue);
    try (Temporaries t = new Temporaries()) {
      return array.wrap(array.tfArray(t, DataType.FLOAT32).adjustHue(delta));
    }
  }

  private static float hueDelta(float hue) {
    return RandomUtils.nextFloat(-Math.min(hue, 0.5f), Math.min(hue, 0.5f));
  }

  /**
   * Brightness, contrast, saturation and hue (tf.image's adjustments), each by a uniform factor
   * around 1 (delta around 0 for hue), in that order, on a FLOAT32 copy.
   */
  @Override
  public NDArray randomColorJitter(float brightness, float contrast, float saturation,
      float hue) {
    float brightnessFactor = 1 + RandomUtils.nextFloat(-brightness, brightness);
    float contrastFactor = 1 + RandomUtils.nextFloat(-contrast, contrast);
    float saturationFactor = 1 + RandomUtils.nextFloat(-saturation, saturation);
    float delta = hueDelta(hue);
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray b = t.add(array.tfArray(t, DataType.FLOAT32).mul(brightnessFactor));
      io.tfjni.eager.NDArray c = t.add(b.adjustContrast(contrastFactor));
      io.tfjni.eager.NDArray s = t.add(c.adjustSaturation(saturationFactor));
      return array.wrap(s.adjustHue(delta));
    }
  }

  @Override
  public NDArrayIndexer getIndexer(NDManager manager) {
    return new TfjniNDArrayIndexer(manager);
  }

  @Override
  public NDArray where(NDArray condition, NDArray other) {
    // NDArrays.where(condition, x, y) calls x.getNDArrayInternal().where(condition, y).
    try (Temporaries t = new Temporaries()) {
      return array.wrap(select(t, array.tfOf(condition), array.tfArray(), array.tfOf(other)));
    }
  }

  /**
   * {@code x} where {@code condition}, else {@code y} (in x's type): SelectV2. A condition of
   * lower rank that matches the leading axes of the wider of x and y applies to them (DJL
   * broadcasts it so); otherwise it broadcasts from the last axis, as numpy.
   */
  private static io.tfjni.eager.NDArray select(Temporaries t, io.tfjni.eager.NDArray condition,
      io.tfjni.eager.NDArray x, io.tfjni.eager.NDArray y) {
    long[] c = condition.shape();
    long[] widest = x.shape().length >= y.shape().length ? x.shape() : y.shape();
    io.tfjni.eager.NDArray aligned = condition;
    if (widest.length > c.length && Arrays.equals(c, Arrays.copyOf(widest, c.length))) {
      long[] dims = Arrays.copyOf(c, widest.length);
      Arrays.fill(dims, c.length, dims.length, 1);
      aligned = t.add(condition.reshape(dims));
    }
    return Indexing.castTo(t, aligned, io.tfjni.DataType.BOOL).where(x,
        Indexing.castTo(t, y, x.dataType()));
  }

  @Override
  public NDArray stack(NDList arrays, int axis) {
    return array.wrap(array.tfArray().stack(axis, others(arrays)));
  }

  private io.tfjni.eager.NDArray[] others(NDList arrays) {
    io.tfjni.eager.NDArray[] values = new io.tfjni.eager.NDArray[arrays.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.tfOf(arrays.get(i));
    }
    return values;
  }

  @Override
  public NDArray concat(NDList arrays, int axis) {
    io.tfjni.eager.NDArray[] values = others(arrays);
    if (array.getShape().dimension() > 0) {
      return array.wrap(array.tfArray().concat(axis, values));
    }
    try (Temporaries t = new Temporaries()) {
      // DJL concatenates scalars into a vector.
      for (int i = 0; i < values.length; i++) {
        values[i] = t.add(values[i].reshape(1));
      }
      return array.wrap(t.add(array.tfArray().reshape(1)).concat(axis, values));
    }
  }

  @Override
  public NDList multiBoxTarget(NDList inputs, float iouThreshold, float ignoreThreshold,
      float negativeMiningRatio, float negativeMiningThreshold, int minNegativeSamples) {
    throw new UnsupportedOperationException("multiBoxTarget: no TensorFlow op");
  }

  @Override
  public NDList multiBoxPrior(List<Float> sizes, List<Float> ratios, List<Float> steps,
      List<Float> offsets, boolean clip) {
    throw new UnsupportedOperationException("multiBoxPrior: no TensorFlow op");
  }

  @Override
  public NDList multiBoxDetection(NDList inputs, boolean clip, float threshold,
      int backgroundId, float nmsThreshold, boolean forceSuppress, int nmsTopK) {
    throw new UnsupportedOperationException("multiBoxDetection: no TensorFlow op");
  }
}
