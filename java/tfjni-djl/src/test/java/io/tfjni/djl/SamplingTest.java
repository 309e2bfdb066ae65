package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

/**
 * samplePoisson and sampleGamma: one distribution per parameter on the leading axes (DJL's
 * layout, where TensorFlow's samplers put the parameter last), checked by the sample mean and
 * variance against the distributions' own (Poisson: lam, lam; Gamma: alpha beta, alpha beta^2).
 * 40,000 draws per parameter: the tolerances are over 5 standard errors.
 */
class SamplingTest extends ManagerTest {
  /** {mean, variance} of each row of a [k, n...] sample, over the n axes. */
  private static float[][] moments(NDArray samples) {
    int k = (int) samples.getShape().get(0);
    NDArray rows = samples.reshape(k, -1);
    NDArray mean = rows.mean(new int[] {1}, true);
    NDArray variance = rows.sub(mean).pow(2).mean(new int[] {1});
    return new float[][] {mean.toFloatArray(), variance.toFloatArray()};
  }

  private static void assertNear(float expected, float actual, float tolerance, String what) {
    if (Math.abs(expected - actual) > tolerance) {
      throw new AssertionError(what + ": expected " + expected + " +- " + tolerance + ", got "
          + actual);
    }
  }

  @Test
  void poissonHasTheRatesMeanAndVariance() {
    NDArray lam = manager.create(new double[] {1.0, 8.5, 30.0});
    NDArray one = manager.samplePoisson(lam);
    assertEquals(new Shape(3), one.getShape());
    NDArray samples = manager.samplePoisson(lam, new Shape(200, 200));
    assertEquals(new Shape(3, 200, 200), samples.getShape());
    assertEquals(DataType.FLOAT32, samples.getDataType());
    float[][] m = moments(samples);
    double[] rates = {1.0, 8.5, 30.0};
    for (int i = 0; i < 3; i++) {
      double se = Math.sqrt(rates[i] / 40_000);
      assertNear((float) rates[i], m[0][i], (float) (6 * se), "mean of Poisson(" + rates[i] + ")");
      // the sample variance's standard error: sqrt((mu4 - var^2) / n), mu4 = lam (1 + 3 lam)
      double seVar = Math.sqrt((rates[i] * (1 + 3 * rates[i]) - rates[i] * rates[i]) / 40_000);
      assertNear((float) rates[i], m[1][i], (float) (6 * seVar),
          "variance of Poisson(" + rates[i] + ")");
    }
  }

  @Test
  void gammaHasShapeTimesScale() {
    NDArray alpha = manager.create(new float[] {0f, 2.5f, 9f, 0.5f}, new Shape(2, 2));
    NDArray beta = manager.create(new float[] {1f, 0.7f, 2f, 3f}, new Shape(2, 2));
    NDArray samples = manager.sampleGamma(alpha, beta, new Shape(40_000));
    assertEquals(new Shape(2, 2, 40_000), samples.getShape());
    float[][] m = moments(samples.reshape(4, 40_000));
    float[] a = {0f, 2.5f, 9f, 0.5f};
    float[] b = {1f, 0.7f, 2f, 3f};
    for (int i = 0; i < 4; i++) {
      float mean = a[i] * b[i];
      float variance = a[i] * b[i] * b[i];
      // Gamma's mu4 = 3 a (a + 2) b^4: the sample variance's standard error
      double seVar = Math.sqrt((3 * a[i] * (a[i] + 2) - a[i] * a[i]) * Math.pow(b[i], 4) / 40_000);
      assertNear(mean, m[0][i], (float) (6 * Math.sqrt(variance / 40_000) + 1e-6), "mean " + i);
      assertNear(variance, m[1][i], (float) (6 * seVar + 1e-6), "variance " + i);
    }
  }
}
