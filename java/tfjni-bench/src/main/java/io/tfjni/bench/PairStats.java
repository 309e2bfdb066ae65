package io.tfjni.bench;

import java.util.Arrays;

/**
 * The arithmetic of {@link PairedCallerBench}: calls per second, a slice's median latency, the
 * quartiles of the per-pair ratios and the medians of their two halves. Quantiles interpolate
 * linearly between the closest ranks, as numpy's default and the floor's LatencySamples do.
 */
final class PairStats {
  private PairStats() {}

  /** The first quartile, median and third quartile of some values. */
  record Quartiles(double q1, double median, double q3) {
    static Quartiles of(double[] values) {
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      return new Quartiles(quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75));
    }
  }

  /** The {@code q} quantile (0 to 1) of ascending {@code sorted} values; NaN if there are none. */
  static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double rank = q * (sorted.length - 1);
    int low = (int) Math.floor(rank);
    int high = Math.min(low + 1, sorted.length - 1);
    return sorted[low] + (rank - low) * (sorted[high] - sorted[low]);
  }

  /**
   * The medians of the first half and of the second half of {@code inOrder} (the middle value of an
   * odd count goes to the second): how far the median moved while the pairs ran.
   */
  static double[] halfMedians(double[] inOrder) {
    int half = inOrder.length / 2;
    return new double[] {
      Quartiles.of(Arrays.copyOfRange(inOrder, 0, half)).median(),
      Quartiles.of(Arrays.copyOfRange(inOrder, half, inOrder.length)).median()
    };
  }

  /** The median of the first {@code count} nanosecond values, in microseconds. */
  static double medianMicros(long[] nanos, int count) {
    double[] sorted = new double[count];
    for (int i = 0; i < count; i++) {
      sorted[i] = nanos[i];
    }
    Arrays.sort(sorted);
    return quantile(sorted, 0.5) / 1e3;
  }

  /** Calls per second of one thread that made {@code calls} calls in {@code nanos}. */
  static double perSecond(long calls, long nanos) {
    return calls * 1e9 / nanos;
  }

  /** {@code contender / floor}, per pair. */
  static double[] ratios(double[] contender, double[] floor) {
    if (contender.length != floor.length) {
      throw new IllegalArgumentException(contender.length + " contender values, " + floor.length
          + " floor");
    }
    double[] ratios = new double[contender.length];
    for (int i = 0; i < contender.length; i++) {
      ratios[i] = contender[i] / floor[i];
    }
    return ratios;
  }
}
