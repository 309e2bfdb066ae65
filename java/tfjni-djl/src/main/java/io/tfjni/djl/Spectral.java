package io.tfjni.djl;

import io.tfjni.DataType;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import java.util.Arrays;

/**
 * DJL's Fourier transforms and complex views, with torch.fft's meaning, over TensorFlow's FFT
 * ops. TensorFlow transforms the innermost axis only, so the requested axis is swapped to the
 * end, cropped or zero-padded to the requested length, transformed and swapped back. DJL's
 * complex views are torch's: {@code complex()} reads a trailing axis of 2 as (real, imaginary),
 * {@code real()} writes one.
 */
final class Spectral {
  private Spectral() {}

  static boolean isComplex(NDArray x) {
    return x.dataType() == DataType.COMPLEX64 || x.dataType() == DataType.COMPLEX128;
  }

  /** torch.fft.fft ({@code op} "FFT") or torch.fft.ifft ("IFFT", scaled by 1/length). */
  static NDArray transform(NDManager tf, NDArray x, long length, int axis, String op) {
    try (Temporaries t = new Temporaries()) {
      NDArray c = isComplex(x) ? x : t.add(x.cast(DataType.COMPLEX64));
      NDArray last = t.addUnless(Axes.toEnd(c, axis), c);
      NDArray fitted = t.addUnless(fitInnermost(tf, last, length), last);
      NDArray done = tf.opBuilder(op).addInput(fitted).build();
      return Axes.backFromEnd(t, done, axis);
    }
  }

  /** torch.fft.fft2 / ifft2: the 1-D transform along each axis in turn. */
  static NDArray transform2(NDManager tf, NDArray x, long[] sizes, int[] axes, String op) {
    if (sizes.length != axes.length) {
      throw new IllegalArgumentException("fft2: " + sizes.length + " sizes for " + axes.length
          + " axes");
    }
    NDArray result = Temporaries.chain(x, axes.length,
        (previous, i) -> transform(tf, previous, sizes[i], axes[i], op));
    return result == x ? x.cast(x.dataType()) : result;
  }

  /** torch.fft.rfft: the non-negative frequencies (length / 2 + 1) of a real signal. */
  static NDArray rfft(NDManager tf, NDArray x, long length, int axis) {
    if (isComplex(x)) {
      throw new IllegalArgumentException("rfft needs a real array, got " + x.dataType());
    }
    try (Temporaries t = new Temporaries()) {
      NDArray real = x.dataType() == DataType.FLOAT ? x : t.add(x.cast(DataType.FLOAT));
      NDArray last = t.addUnless(Axes.toEnd(real, axis), real);
      // The kernel crops but does not pad (tf.signal.rfft pads in Python).
      NDArray fitted = t.addUnless(fitInnermost(tf, last, length), last);
      NDArray n = t.add(tf.create(new int[] {Math.toIntExact(length)}, 1));
      NDArray done = tf.opBuilder("RFFT").addInput(fitted).addInput(n).build();
      return Axes.backFromEnd(t, done, axis);
    }
  }

  /** torch.fft.irfft: the real signal of {@code length} samples from its one-sided spectrum. */
  static NDArray irfft(NDManager tf, NDArray x, long length, int axis) {
    try (Temporaries t = new Temporaries()) {
      NDArray c = isComplex(x) ? x : t.add(x.cast(DataType.COMPLEX64));
      NDArray last = t.addUnless(Axes.toEnd(c, axis), c);
      NDArray fitted = t.addUnless(fitInnermost(tf, last, length / 2 + 1), last);
      NDArray n = t.add(tf.create(new int[] {Math.toIntExact(length)}, 1));
      NDArray done = tf.opBuilder("IRFFT").addInput(fitted).addInput(n)
          .setAttr("Treal", DataType.FLOAT).build();
      return Axes.backFromEnd(t, done, axis);
    }
  }

  /**
   * torch.stft on the last axis: frames of {@code nFft} samples every {@code hop} (after
   * reflect-padding {@code nFft / 2} on both sides when {@code center}), each multiplied by the
   * window and transformed; frequencies then frames, as torch orders them. One-sided for real
   * signals, full for complex ones; {@code normalize} scales by 1/sqrt(nFft).
   */
  static NDArray stft(NDManager tf, NDArray x, long nFft, long hop, boolean center,
      NDArray window, boolean normalize) {
    if (nFft <= 0 || hop <= 0) {
      throw new IllegalArgumentException("stft needs nFft > 0 and hopLength > 0, got " + nFft
          + " and " + hop);
    }
    long[] shape = x.shape();
    if (shape.length < 1) {
      throw new IllegalArgumentException("stft needs a signal of rank >= 1");
    }
    int r = shape.length;
    try (Temporaries t = new Temporaries()) {
      NDArray signal = isComplex(x) || x.dataType() == DataType.FLOAT ? x
          : t.add(x.cast(DataType.FLOAT));
      if (center) {
        long[] pads = new long[2 * r];
        pads[2 * r - 2] = nFft / 2;
        pads[2 * r - 1] = nFft / 2;
        NDArray paddings = t.add(tf.create(pads, r, 2));
        signal = t.add(tf.opBuilder("MirrorPad").addInput(signal).addInput(paddings)
            .setAttr("mode", "REFLECT").build());
      }
      long samples = signal.shape()[r - 1];
      if (samples < nFft) {
        throw new IllegalArgumentException("stft: " + samples + " samples for nFft " + nFft);
      }
      int frames = Math.toIntExact(1 + (samples - nFft) / hop);
      long[] positions = new long[Math.toIntExact(frames * nFft)];
      for (int f = 0; f < frames; f++) {
        for (int k = 0; k < nFft; k++) {
          positions[(int) (f * nFft + k)] = f * hop + k;
        }
      }
      NDArray index = t.add(tf.create(positions, frames, nFft));
      NDArray axisArg = t.add(tf.scalar(r - 1));
      NDArray framed = t.add(tf.opBuilder("GatherV2").addInput(signal).addInput(index)
          .addInput(axisArg).build());
      NDArray windowed = framed;
      if (window != null) {
        NDArray w = t.addUnless(fitWindow(tf, window, nFft), window);
        NDArray wCast = w.dataType() == framed.dataType() ? w : t.add(w.cast(framed.dataType()));
        windowed = t.add(framed.mul(wCast));
      }
      NDArray spectrum = isComplex(windowed)
          ? t.add(transform(tf, windowed, nFft, r, "FFT"))
          : t.add(rfft(tf, windowed, nFft, r));
      if (normalize) {
        NDArray scale = t.add(tf.scalar(DataType.COMPLEX64, 1.0 / Math.sqrt(nFft)));
        spectrum = t.add(spectrum.mul(scale));
      }
      return spectrum.transpose(Axes.swapWithLast(r + 1, r - 1));
    }
  }

  /** A window shorter than nFft is zero-padded on both sides, as torch centres it. */
  private static NDArray fitWindow(NDManager tf, NDArray window, long nFft) {
    long length = window.shape()[0];
    if (length == nFft) {
      return window;
    }
    if (length > nFft) {
      throw new IllegalArgumentException("stft: a window of " + length + " for nFft " + nFft);
    }
    long left = (nFft - length) / 2;
    return window.pad(new long[][] {{left, nFft - length - left}});
  }

  /** torch.view_as_complex: a trailing axis of 2 read as (real, imaginary). */
  static NDArray complex(NDManager tf, NDArray x) {
    long[] shape = x.shape();
    if (shape.length == 0 || shape[shape.length - 1] != 2) {
      throw new IllegalArgumentException("complex() needs a last axis of 2 (real, imaginary),"
          + " got shape " + Arrays.toString(shape));
    }
    try (Temporaries t = new Temporaries()) {
      NDArray f = x.dataType() == DataType.FLOAT ? x : t.add(x.cast(DataType.FLOAT));
      NDArray[] parts = tf.opBuilder("Unpack").addInput(f).setAttr("num", 2L)
          .setAttr("axis", -1L).buildAll();
      t.add(parts[0]);
      t.add(parts[1]);
      return tf.opBuilder("Complex").addInput(parts[0]).addInput(parts[1])
          .setAttr("Tout", DataType.COMPLEX64).build();
    }
  }

  /** torch.view_as_real: a complex array as (real, imaginary) pairs on a new last axis. */
  static NDArray real(NDManager tf, NDArray x) {
    if (!isComplex(x)) {
      throw new IllegalArgumentException("real() needs a complex array, got " + x.dataType());
    }
    DataType part = x.dataType() == DataType.COMPLEX64 ? DataType.FLOAT : DataType.DOUBLE;
    try (NDArray re = tf.opBuilder("Real").addInput(x).setAttr("Tout", part).build();
        NDArray im = tf.opBuilder("Imag").addInput(x).setAttr("Tout", part).build()) {
      return tf.opBuilder("Pack").addInputList(re, im).setAttr("axis", -1L).build();
    }
  }

  /** The complex conjugate; a real array is returned as it is (copied). */
  static NDArray conj(NDManager tf, NDArray x) {
    return tf.opBuilder(isComplex(x) ? "Conj" : "Identity").addInput(x).build();
  }

  /** Crops or zero-pads the innermost axis to {@code length}. */
  private static NDArray fitInnermost(NDManager tf, NDArray x, long length) {
    long[] shape = x.shape();
    int r = shape.length;
    long n = shape[r - 1];
    if (length <= 0) {
      throw new IllegalArgumentException("fft length must be positive, got " + length);
    }
    if (n == length) {
      return x;
    }
    if (n > length) {
      long[] size = new long[r];
      Arrays.fill(size, -1);
      size[r - 1] = length;
      return x.slice(new long[r], size);
    }
    long[][] pads = new long[r][2];
    pads[r - 1][1] = length - n;
    return x.pad(pads);
  }
}
