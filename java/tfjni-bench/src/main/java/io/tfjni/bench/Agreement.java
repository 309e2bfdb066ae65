package io.tfjni.bench;

import java.util.Locale;

/**
 * How far one runtime's output is from TensorFlow Python's for the same input, and whether it is
 * within that runtime's tolerance: every element within {@code tolerance * max|expected|}, a
 * fraction of the output's own scale (the benchmark outputs range from probabilities near 1 to
 * logits near 1e-11, so a fixed absolute bound would pass anything on the small ones). A runtime
 * that disagrees is reported with its worst element and never timed.
 */
record Agreement(double maxAbsDifference, double allowed, boolean agrees, String worst) {
  static Agreement of(float[] expected, float[] actual, double tolerance) {
    if (actual.length != expected.length) {
      return new Agreement(Double.NaN, Double.NaN, false, actual.length
          + " output values, expected " + expected.length);
    }
    double scale = 0;
    for (float e : expected) {
      scale = Math.max(scale, Math.abs(e));
    }
    double allowed = tolerance * scale;
    double max = 0;
    int worst = -1;
    for (int i = 0; i < expected.length; i++) {
      double diff = Math.abs((double) actual[i] - expected[i]);
      if (!(diff <= max) || worst < 0) {  // NaN counts as the worst
        max = diff;
        worst = i;
      }
    }
    String detail = worst < 0 ? "no values" : String.format(Locale.ROOT,
        "[%d] = %s, TensorFlow Python gives %s", worst, actual[worst], expected[worst]);
    return new Agreement(max, allowed, worst < 0 || max <= allowed, detail);
  }
}
