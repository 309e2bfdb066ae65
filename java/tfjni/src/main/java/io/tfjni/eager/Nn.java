package io.tfjni.eager;

import io.tfjni.TensorFlowException;
import java.util.Arrays;
import java.util.Objects;

/**
 * Neural-network layers on channels-last arrays (tf.nn): convolutions, pooling, bias addition
 * and the LSTM block. Inputs are {@code [batch, spatial..., channels]} with one, two or three
 * spatial axes (rank 3, 4 or 5); a 1-D layer runs as a 2-D one of height 1, as TensorFlow Python
 * runs it. Windows never extend past the input (padding "VALID"): pad the input first for more.
 * Results belong to the input's manager.
 */
public final class Nn {
  private Nn() {}

  /**
   * tf.nn.convolution with padding "VALID": the input {@code [batch, spatial..., in]} by the
   * filter {@code [kernel..., in, out]}, one stride and one dilation per spatial axis. Dilated
   * filters run as TensorFlow Python runs them where the kernel has no dilation: every
   * dilation-th element gathered into the batch (SpaceToBatchND), an undilated convolution, the
   * results interleaved back (BatchToSpaceND), then every stride-th position kept.
   *
   * @param input rank 3, 4 or 5, channels last
   * @param filter {@code [kernel..., in, out]}, of the input's rank and type
   * @param strides the step per spatial axis, each 1 or more
   * @param dilations the distance between filter taps per spatial axis, each 1 or more
   * @return a new array {@code [batch, spatial..., out]} in the input's manager
   * @throws IllegalArgumentException for a rank other than 3, 4 or 5 or parameters that do not
   *     match it
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray convolution(NDArray input, NDArray filter, long[] strides,
      long[] dilations) {
    Objects.requireNonNull(filter, "filter");
    int spatial = spatialAxes("convolution", input, strides, dilations);
    if (filter.shape().length != spatial + 2) {
      throw new IllegalArgumentException("convolution filter must have rank " + (spatial + 2)
          + ", got " + filter.shape().length);
    }
    if (spatial == 1) {
      try (NDArray in = input.expandDims(1); NDArray f = filter.expandDims(0);
          NDArray out = convolution(in, f, withUnitHeight(strides), withUnitHeight(dilations))) {
        return out.squeeze(1);
      }
    }
    String opName = spatial == 3 ? "Conv3D" : "Conv2D";
    if (allOnes(dilations)) {
      return conv(opName, input, filter, strides);
    }
    return dilatedConvolution(opName, input, filter, strides, dilations);
  }

  /**
   * tf.nn.conv_transpose with padding "VALID": the convolution whose gradient maps
   * {@code [batch, spatial..., out]} of {@code outputShape} to this input; the filter is
   * {@code [kernel..., out, in]}. {@code outputShape}'s spatial sizes may exceed the smallest
   * ({@code (length - 1) * stride + dilation * (kernel - 1) + 1}) by less than the stride, those
   * positions receiving no input. Dilated filters run with zeros between their taps.
   *
   * @param input rank 3, 4 or 5, channels last, {@code in} channels
   * @param filter {@code [kernel..., out, in]}, of the input's rank and type
   * @param outputShape the result's shape {@code [batch, spatial..., out]}
   * @param strides the step per spatial axis, each 1 or more
   * @param dilations the distance between filter taps per spatial axis, each 1 or more
   * @return a new array of {@code outputShape} in the input's manager
   * @throws IllegalArgumentException for a rank other than 3, 4 or 5 or parameters that do not
   *     match it
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray convolutionTranspose(NDArray input, NDArray filter, long[] outputShape,
      long[] strides, long[] dilations) {
    Objects.requireNonNull(filter, "filter");
    int spatial = spatialAxes("convolutionTranspose", input, strides, dilations);
    if (filter.shape().length != spatial + 2 || outputShape.length != spatial + 2) {
      throw new IllegalArgumentException("convolutionTranspose needs a filter and an output "
          + "shape of rank " + (spatial + 2) + ", got " + filter.shape().length + " and "
          + outputShape.length);
    }
    if (spatial == 1) {
      long[] shape2d = {outputShape[0], 1, outputShape[1], outputShape[2]};
      try (NDArray in = input.expandDims(1); NDArray f = filter.expandDims(0);
          NDArray out = convolutionTranspose(in, f, shape2d, withUnitHeight(strides),
              withUnitHeight(dilations))) {
        return out.squeeze(1);
      }
    }
    String opName = spatial == 3 ? "Conv3DBackpropInputV2" : "Conv2DBackpropInput";
    NDManager m = input.getManager();
    try (NDArray spread = spreadTaps(filter, dilations);
        NDArray sizes = m.vector(toInts(outputShape))) {
      return input.op(opName).addInput(sizes).addInput(spread).addInput(input)
          .setAttr("strides", withUnitEnds(strides)).setAttr("padding", "VALID").build();
    }
  }

  /**
   * tf.nn.max_pool with padding "VALID": the largest value of each window.
   *
   * @param input rank 3, 4 or 5, channels last
   * @param windows the window's size per spatial axis, each 1 or more
   * @param strides the step per spatial axis, each 1 or more
   * @return a new array in the input's manager, of its type
   * @throws IllegalArgumentException for a rank other than 3, 4 or 5 or parameters that do not
   *     match it
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray maxPool(NDArray input, long[] windows, long[] strides) {
    return pool("MaxPool", input, windows, strides);
  }

  /**
   * tf.nn.avg_pool with padding "VALID": the mean of each window.
   *
   * @param input rank 3, 4 or 5, channels last, floating-point
   * @param windows the window's size per spatial axis, each 1 or more
   * @param strides the step per spatial axis, each 1 or more
   * @return a new array in the input's manager, of its type
   * @throws IllegalArgumentException for a rank other than 3, 4 or 5 or parameters that do not
   *     match it
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray avgPool(NDArray input, long[] windows, long[] strides) {
    return pool("AvgPool", input, windows, strides);
  }

  /**
   * tf.nn.bias_add: {@code bias} added along the last axis.
   *
   * @param x values of rank 2 or more
   * @param bias a vector of x's last axis's size and x's type
   * @return a new array in x's manager
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray biasAdd(NDArray x, NDArray bias) {
    Objects.requireNonNull(bias, "bias");
    return x.op("BiasAdd").addInput(x).addInput(bias).build();
  }

  /**
   * An LSTM layer over a whole sequence in one kernel (BlockLSTMV2 without peepholes or cell
   * clipping): for each step t, {@code [x_t, h_(t-1)]} times {@code kernel} plus {@code bias}
   * gives the gates in the order input, forget, cell candidate g, output (as PyTorch orders
   * them); then
   * {@code c_t = sigmoid(f) * c_(t-1) + sigmoid(i) * tanh(g)} and
   * {@code h_t = sigmoid(o) * tanh(c_t)}.
   *
   * @param x the inputs {@code [time, batch, features]}
   * @param c0 the initial cell state {@code [batch, hidden]}
   * @param h0 the initial hidden state {@code [batch, hidden]}
   * @param kernel {@code [features + hidden, 4 * hidden]}
   * @param bias {@code [4 * hidden]}
   * @return {@code {h, c}}: the hidden and cell states of every step, each
   *     {@code [time, batch, hidden]}, new arrays in x's manager
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray[] blockLstm(NDArray x, NDArray c0, NDArray h0, NDArray kernel,
      NDArray bias) {
    Objects.requireNonNull(c0, "c0");
    Objects.requireNonNull(h0, "h0");
    Objects.requireNonNull(kernel, "kernel");
    Objects.requireNonNull(bias, "bias");
    NDManager m = x.getManager();
    long hidden = h0.shape()[h0.shape().length - 1];
    NDArray[] outputs;
    try (NDArray steps = m.scalar(x.shape()[0]);
        NDArray noPeephole = m.zeros(x.dataType(), hidden)) {
      outputs = x.op("BlockLSTMV2").addInput(steps).addInput(x).addInput(c0).addInput(h0)
          .addInput(kernel).addInput(noPeephole).addInput(noPeephole).addInput(noPeephole)
          .addInput(bias).setAttr("cell_clip", 0f).setAttr("use_peephole", false).buildAll();
    }
    // Outputs i, cs, f, o, ci, co, h: keep h and cs.
    for (int i = 0; i < outputs.length; i++) {
      if (i != 1 && i != 6) {
        outputs[i].close();
      }
    }
    return new NDArray[] {outputs[6], outputs[1]};
  }

  private static NDArray pool(String opName, NDArray input, long[] windows, long[] strides) {
    int spatial = spatialAxes(opName, input, windows, strides);
    if (spatial == 1) {
      try (NDArray in = input.expandDims(1);
          NDArray out = pool(opName, in, withUnitHeight(windows), withUnitHeight(strides))) {
        return out.squeeze(1);
      }
    }
    return input.op(spatial == 3 ? opName + "3D" : opName).addInput(input)
        .setAttr("ksize", withUnitEnds(windows)).setAttr("strides", withUnitEnds(strides))
        .setAttr("padding", "VALID").build();
  }

  /** The number of spatial axes of a layer's input, checked against its per-axis parameters. */
  private static int spatialAxes(String what, NDArray input, long[] first, long[] second) {
    Objects.requireNonNull(input, "input");
    int spatial = input.shape().length - 2;
    if (spatial < 1 || spatial > 3) {
      throw new IllegalArgumentException(what + " needs [batch, spatial..., channels] input of "
          + "rank 3, 4 or 5, got rank " + (spatial + 2));
    }
    for (long[] values : new long[][] {first, second}) {
      if (values.length != spatial || Arrays.stream(values).anyMatch(v -> v < 1)) {
        throw new IllegalArgumentException(what + ": " + Arrays.toString(values) + " must hold "
            + spatial + " values of 1 or more");
      }
    }
    return spatial;
  }

  private static NDArray conv(String opName, NDArray x, NDArray filter, long[] strides) {
    return x.op(opName).addInput(x).addInput(filter).setAttr("strides", withUnitEnds(strides))
        .setAttr("padding", "VALID").build();
  }

  private static NDArray dilatedConvolution(String opName, NDArray x, NDArray filter,
      long[] strides, long[] dilations) {
    int d = dilations.length;
    long[] shape = x.shape();
    long[] endPadding = new long[2 * d];
    for (int i = 0; i < d; i++) {
      // Each axis padded at its end to a multiple of the dilation; cropped again below.
      endPadding[2 * i + 1] = (dilations[i] - shape[i + 1] % dilations[i]) % dilations[i];
    }
    NDManager m = x.getManager();
    long[] ones = new long[d];
    Arrays.fill(ones, 1);
    try (NDArray block = m.vector(dilations); NDArray padding = m.create(endPadding, d, 2);
        NDArray batched = x.op("SpaceToBatchND").addInput(x).addInput(block).addInput(padding)
            .build();
        NDArray convolved = conv(opName, batched, filter, ones);
        NDArray dense = x.op("BatchToSpaceND").addInput(convolved).addInput(block)
            .addInput(padding).build()) {
      long[] zeros = new long[d + 2];
      return dense.stridedSlice(zeros, zeros, withUnitEnds(strides), 0, (1L << (d + 2)) - 1, 0,
          0);
    }
  }

  /**
   * A new array: the filter {@code [kernel..., a, b]} with {@code dilation - 1} zeros between
   * its taps along each spatial axis, the undilated filter of the same reach.
   */
  private static NDArray spreadTaps(NDArray filter, long[] dilations) {
    NDArray spread = filter.copy();
    for (int i = 0; i < dilations.length; i++) {
      if (dilations[i] == 1) {
        continue;
      }
      long[] shape = spread.shape();
      long[][] zerosAfterEachTap = new long[shape.length + 1][2];
      zerosAfterEachTap[i + 1][1] = dilations[i] - 1;
      long[] interleavedShape = shape.clone();
      interleavedShape[i] = shape[i] * dilations[i];
      long[] reach = shape.clone();
      reach[i] = (shape[i] - 1) * dilations[i] + 1;
      try (NDArray previous = spread; NDArray each = previous.expandDims(i + 1);
          NDArray padded = each.pad(zerosAfterEachTap);
          NDArray interleaved = padded.reshape(interleavedShape)) {
        spread = interleaved.slice(new long[shape.length], reach);
      }
    }
    return spread;
  }

  private static long[] withUnitHeight(long[] values) {
    return new long[] {1, values[0]};
  }

  private static long[] withUnitEnds(long[] values) {
    long[] out = new long[values.length + 2];
    out[0] = 1;
    out[out.length - 1] = 1;
    System.arraycopy(values, 0, out, 1, values.length);
    return out;
  }

  private static boolean allOnes(long[] values) {
    return Arrays.stream(values).allMatch(v -> v == 1);
  }

  private static int[] toInts(long[] values) {
    int[] out = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Math.toIntExact(values[i]);
    }
    return out;
  }
}
