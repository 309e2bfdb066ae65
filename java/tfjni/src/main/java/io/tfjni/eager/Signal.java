package io.tfjni.eager;

import io.tfjni.DataType;
import io.tfjni.TensorFlowException;
import java.util.Objects;

/**
 * Discrete Fourier transforms and framing (tf.signal) along any axis. TensorFlow's kernels
 * transform the innermost axis; here the axis is swapped to the end and back, and its length
 * cropped or zero-padded to the transform's length first, as numpy.fft's {@code n} does. Results
 * belong to the input's manager.
 */
public final class Signal {
  private Signal() {}

  /**
   * The discrete Fourier transform of {@code length} points along {@code axis}
   * (tf.signal.fft, after cropping or zero-padding that axis to {@code length}).
   *
   * @param x COMPLEX64 or COMPLEX128 values
   * @param length the number of points, positive
   * @param axis the axis; a negative one counts from the last
   * @return a new array in x's manager, of x's type
   * @throws IllegalArgumentException for a real array or a length below 1
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray fft(NDArray x, long length, int axis) {
    return complexTransform(x, "FFT", length, axis);
  }

  /**
   * The inverse discrete Fourier transform of {@code length} points along {@code axis}, scaled by
   * 1 / length (tf.signal.ifft, after cropping or zero-padding that axis to {@code length}).
   *
   * @param x COMPLEX64 or COMPLEX128 values
   * @param length the number of points, positive
   * @param axis the axis; a negative one counts from the last
   * @return a new array in x's manager, of x's type
   * @throws IllegalArgumentException for a real array or a length below 1
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray ifft(NDArray x, long length, int axis) {
    return complexTransform(x, "IFFT", length, axis);
  }

  /**
   * The non-negative frequencies ({@code length / 2 + 1}) of the transform of a real signal of
   * {@code length} points along {@code axis} (tf.signal.rfft with {@code fft_length}).
   *
   * @param x FLOAT (COMPLEX64 result) or DOUBLE (COMPLEX128 result) values
   * @param length the number of points, positive
   * @param axis the axis; a negative one counts from the last
   * @return a new array in x's manager
   * @throws IllegalArgumentException for a type other than FLOAT and DOUBLE, or a length below 1
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray rfft(NDArray x, long length, int axis) {
    DataType type = x.dataType();
    if (type != DataType.FLOAT && type != DataType.DOUBLE) {
      throw new IllegalArgumentException("rfft needs FLOAT or DOUBLE values, got " + type);
    }
    DataType complex = type == DataType.FLOAT ? DataType.COMPLEX64 : DataType.COMPLEX128;
    return alongLastAxis(x, length, length, axis, (fitted, n) -> fitted.op("RFFT")
        .addInput(fitted).addInput(n).setAttr("Tcomplex", complex).build());
  }

  /**
   * The real signal of {@code length} points along {@code axis} whose non-negative frequencies
   * are given (tf.signal.irfft with {@code fft_length}: the axis is cropped or zero-padded to
   * {@code length / 2 + 1} first).
   *
   * @param x COMPLEX64 (FLOAT result) or COMPLEX128 (DOUBLE result) values
   * @param length the number of points of the result, positive
   * @param axis the axis; a negative one counts from the last
   * @return a new array in x's manager
   * @throws IllegalArgumentException for a real array or a length below 1
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public static NDArray irfft(NDArray x, long length, int axis) {
    DataType real = realPartType(x, "irfft");
    return alongLastAxis(x, length / 2 + 1, length, axis, (fitted, n) -> fitted.op("IRFFT")
        .addInput(fitted).addInput(n).setAttr("Treal", real).build());
  }

  /**
   * Frames of {@code frameLength} samples every {@code frameStep} samples along the last axis,
   * the incomplete ones at the end dropped (tf.signal.frame with {@code pad_end=False}): the
   * last axis becomes [frames, frameLength].
   *
   * @param x the signal, rank 1 or more
   * @param frameLength the samples per frame, positive
   * @param frameStep the samples between the starts of neighbouring frames, positive
   * @return a new array in x's manager, of x's type
   * @throws IllegalArgumentException for a scalar or a length or step below 1
   */
  public static NDArray frame(NDArray x, long frameLength, long frameStep) {
    Objects.requireNonNull(x, "x");
    if (frameLength < 1 || frameStep < 1) {
      throw new IllegalArgumentException("frame needs frameLength and frameStep of 1 or more, "
          + "got " + frameLength + " and " + frameStep);
    }
    long[] shape = x.shape();
    if (shape.length == 0) {
      throw new IllegalArgumentException("frame needs a signal of rank 1 or more");
    }
    long samples = shape[shape.length - 1];
    int frames = Math.toIntExact(samples < frameLength ? 0
        : 1 + (samples - frameLength) / frameStep);
    long[] positions = new long[Math.toIntExact(frames * frameLength)];
    for (int f = 0; f < frames; f++) {
      for (int k = 0; k < frameLength; k++) {
        positions[Math.toIntExact(f * frameLength + k)] = f * frameStep + k;
      }
    }
    try (NDArray index = x.getManager().create(positions, frames, frameLength)) {
      return x.gather(index, shape.length - 1);
    }
  }

  @FunctionalInterface
  private interface InnermostTransform {
    NDArray apply(NDArray fitted, NDArray length);
  }

  private static NDArray complexTransform(NDArray x, String opName, long length, int axis) {
    realPartType(x, opName.toLowerCase());
    return alongLastAxis(x, length, length, axis,
        (fitted, n) -> fitted.op(opName).addInput(fitted).build());
  }

  private static DataType realPartType(NDArray x, String what) {
    DataType type = x.dataType();
    if (!NDArray.isComplex(type)) {
      throw new IllegalArgumentException(what + " needs COMPLEX64 or COMPLEX128 values, got "
          + type);
    }
    return type == DataType.COMPLEX64 ? DataType.FLOAT : DataType.DOUBLE;
  }

  /**
   * {@code transform} of x with {@code axis} swapped last and cropped or zero-padded to
   * {@code fitted} points, given the INT32 vector {@code {length}}; swapped back after.
   */
  private static NDArray alongLastAxis(NDArray x, long fitted, long length, int axis,
      InnermostTransform transform) {
    if (length < 1) {
      throw new IllegalArgumentException("the transform's length must be positive, got "
          + length);
    }
    int n = Math.toIntExact(length);
    return x.alongLastAxis(axis, last -> {
      try (NDArray fit = fitInnermost(last, fitted);
          NDArray lengthArray = x.getManager().vector(new int[] {n})) {
        return transform.apply(fit, lengthArray);
      }
    });
  }

  /** A new array: x with its innermost axis cropped or zero-padded to {@code length}. */
  private static NDArray fitInnermost(NDArray x, long length) {
    long[] shape = x.shape();
    int r = shape.length;
    long have = shape[r - 1];
    if (have >= length) {
      long[] size = shape.clone();
      size[r - 1] = length;
      return x.slice(new long[r], size);
    }
    long[][] pads = new long[r][2];
    pads[r - 1][1] = length - have;
    return x.pad(pads);
  }
}
