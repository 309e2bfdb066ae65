package io.tfjni.djl;

import io.tfjni.DataType;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.Signal;
import java.util.Arrays;

/**
 * What DJL's Fourier transforms and complex views add to the core's {@link Signal}: torch.fft's
 * types (a real signal is transformed as COMPLEX64, rfft reads FLOAT), fft2 as one transform per
 * axis, torch.stft's centring, window and layout, and torch's complex views ({@code complex()}
 * reads a trailing axis of 2 as (real, imaginary), {@code real()} writes one).
 */
final class Spectral {
  private Spectral() {}

  /** torch.fft.fft ({@code inverse} false) or torch.fft.ifft (true, scaled by 1/length). */
  static NDArray transform(NDArray x, long length, int axis, boolean inverse) {
    try (Temporaries t = new Temporaries()) {
      NDArray c = Indexing.castTo(t, x, complexType(x));
      return inverse ? Signal.ifft(c, length, axis) : Signal.fft(c, length, axis);
    }
  }

  /** torch.fft.fft2 / ifft2: the 1-D transform along each axis in turn. */
  static NDArray transform2(NDArray x, long[] sizes, int[] axes, boolean inverse) {
    if (sizes.length != axes.length) {
      throw new IllegalArgumentException("fft2: " + sizes.length + " sizes for " + axes.length
          + " axes");
    }
    NDArray result = Temporaries.chain(x, axes.length,
        (previous, i) -> transform(previous, sizes[i], axes[i], inverse));
    return result == x ? x.cast(x.dataType()) : result;
  }

  /** torch.fft.rfft: the non-negative frequencies (length / 2 + 1) of a real signal. */
  static NDArray rfft(NDArray x, long length, int axis) {
    if (isComplex(x)) {
      throw new IllegalArgumentException("rfft needs a real array, got " + x.dataType());
    }
    try (Temporaries t = new Temporaries()) {
      return Signal.rfft(Indexing.castTo(t, x, DataType.FLOAT), length, axis);
    }
  }

  /** torch.fft.irfft: the real signal of {@code length} samples from its one-sided spectrum. */
  static NDArray irfft(NDArray x, long length, int axis) {
    try (Temporaries t = new Temporaries()) {
      return Signal.irfft(Indexing.castTo(t, x, complexType(x)), length, axis);
    }
  }

  /**
   * torch.stft on the last axis: frames of {@code nFft} samples every {@code hop} (after
   * reflect-padding {@code nFft / 2} on both sides when {@code center}), each multiplied by the
   * window and transformed; frequencies then frames, as torch orders them. One-sided for real
   * signals, full for complex ones; {@code normalize} scales by 1/sqrt(nFft).
   */
  static NDArray stft(NDArray x, long nFft, long hop, boolean center, NDArray window,
      boolean normalize) {
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
      NDArray signal = isComplex(x) ? x : Indexing.castTo(t, x, DataType.FLOAT);
      if (center) {
        long[][] pads = new long[r][2];
        pads[r - 1] = new long[] {nFft / 2, nFft / 2};
        signal = t.add(signal.padReflect(pads));
      }
      long samples = signal.shape()[r - 1];
      if (samples < nFft) {
        throw new IllegalArgumentException("stft: " + samples + " samples for nFft " + nFft);
      }
      NDArray framed = t.add(Signal.frame(signal, nFft, hop));
      NDArray windowed = framed;
      if (window != null) {
        NDArray w = t.addUnless(fitWindow(window, nFft), window);
        windowed = t.add(framed.mul(Indexing.castTo(t, w, framed.dataType())));
      }
      NDArray spectrum = isComplex(windowed) ? t.add(Signal.fft(windowed, nFft, r))
          : t.add(Signal.rfft(windowed, nFft, r));
      if (normalize) {
        spectrum = t.add(spectrum.mul(1.0 / Math.sqrt(nFft)));
      }
      return spectrum.transpose(Axes.swapWithLast(r + 1, r - 1));
    }
  }

  /** A window shorter than nFft is zero-padded on both sides, as torch centres it. */
  private static NDArray fitWindow(NDArray window, long nFft) {
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
  static NDArray complex(NDArray x) {
    long[] shape = x.shape();
    if (shape.length == 0 || shape[shape.length - 1] != 2) {
      throw new IllegalArgumentException("complex() needs a last axis of 2 (real, imaginary),"
          + " got shape " + Arrays.toString(shape));
    }
    try (Temporaries t = new Temporaries()) {
      NDArray[] parts = Indexing.castTo(t, x, DataType.FLOAT).unstack(-1);
      t.add(parts[0]);
      t.add(parts[1]);
      return parts[0].complex(parts[1]);
    }
  }

  /** torch.view_as_real: a complex array as (real, imaginary) pairs on a new last axis. */
  static NDArray real(NDArray x) {
    if (!isComplex(x)) {
      throw new IllegalArgumentException("real() needs a complex array, got " + x.dataType());
    }
    try (NDArray re = x.real(); NDArray im = x.imag()) {
      return re.stack(-1, im);
    }
  }

  private static boolean isComplex(NDArray x) {
    return x.dataType() == DataType.COMPLEX64 || x.dataType() == DataType.COMPLEX128;
  }

  /** torch's complex type of an array: its own if complex, else COMPLEX64. */
  private static DataType complexType(NDArray x) {
    return isComplex(x) ? x.dataType() : DataType.COMPLEX64;
  }
}
