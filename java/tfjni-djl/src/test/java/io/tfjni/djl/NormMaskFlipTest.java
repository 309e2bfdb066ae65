package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import ai.djl.util.RandomUtils;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Norms of any order, normalize(p), booleanMask on inner axes and the random image flips;
 * expected values by hand.
 */
class NormMaskFlipTest extends ManagerTest {
  private static final float EPS = 1e-5f;

  private NDArray matrix() {
    return manager.create(new float[] {1, -2, 3, 4}, new Shape(2, 2));
  }

  @Test
  void normOfAnyOrderIsTheEntrywisePNorm() {
    try (NDArray x = matrix(); NDArray cubic = x.norm(3, new int[] {1}, false);
        NDArray zero = x.norm(0, new int[] {0, 1}, false);
        NDArray harmonic = x.norm(-1, new int[] {1}, true);
        NDArray two = x.norm(2, new int[] {0, 1}, false)) {
      assertArrayEquals(new float[] {(float) Math.cbrt(9), (float) Math.cbrt(91)},
          cubic.toFloatArray(), EPS);
      assertArrayEquals(new float[] {4}, zero.toFloatArray(), EPS);
      assertArrayEquals(new long[] {2, 1}, harmonic.getShape().getShape());
      assertArrayEquals(new float[] {1 / (1 + 0.5f), 1 / (1 / 3f + 0.25f)},
          harmonic.toFloatArray(), EPS);
      assertArrayEquals(new float[] {(float) Math.sqrt(30)}, two.toFloatArray(), EPS);
    }
  }

  @Test
  void integerNormsSumInInt64AsDjlsSum() {
    // toLongArray refuses any other type than INT64.
    try (NDArray x = manager.create(new int[] {1, -2, 3, 4}, new Shape(2, 2));
        NDArray one = x.norm(1, new int[] {1}, false);
        NDArray zero = x.norm(0, new int[] {0, 1}, false)) {
      assertArrayEquals(new long[] {3, 7}, one.toLongArray());
      assertArrayEquals(new long[] {4}, zero.toLongArray());
    }
  }

  @Test
  void normalizeWithAnyP() {
    try (NDArray x = matrix(); NDArray inf = x.normalize(Double.POSITIVE_INFINITY, 1);
        NDArray cubic = x.normalize(3, 0); NDArray one = x.normalize(1, 1)) {
      assertArrayEquals(new float[] {0.5f, -1, 0.75f, 1}, inf.toFloatArray(), EPS);
      float c0 = (float) Math.cbrt(28);
      float c1 = (float) Math.cbrt(72);
      assertArrayEquals(new float[] {1 / c0, -2 / c1, 3 / c0, 4 / c1}, cubic.toFloatArray(),
          EPS);
      assertArrayEquals(new float[] {1 / 3f, -2 / 3f, 3 / 7f, 4 / 7f}, one.toFloatArray(), EPS);
    }
  }

  @Test
  void booleanMaskOnAnInnerAxis() {
    try (NDArray x = manager.arange(12f).reshape(2, 3, 2);
        NDArray mask = manager.create(new boolean[] {true, false, true});
        NDArray picked = x.booleanMask(mask, 1)) {
      assertArrayEquals(new long[] {2, 2, 2}, picked.getShape().getShape());
      assertArrayEquals(new float[] {0, 1, 4, 5, 6, 7, 10, 11}, picked.toFloatArray());
    }
    try (NDArray x = manager.arange(12f).reshape(2, 2, 3);
        NDArray mask = manager.create(new boolean[] {true, false, false, false, true, true},
            new Shape(2, 3));
        NDArray picked = x.booleanMask(mask, 1); NDArray last = x.booleanMask(mask.get(0), -1)) {
      assertArrayEquals(new long[] {2, 3}, picked.getShape().getShape());
      assertArrayEquals(new float[] {0, 4, 5, 6, 10, 11}, picked.toFloatArray());
      assertArrayEquals(new long[] {2, 2, 1}, last.getShape().getShape());
      assertArrayEquals(new float[] {0, 3, 6, 9}, last.toFloatArray());
    }
    try (NDArray x = manager.ones(new Shape(2, 2));
        NDArray mask = manager.create(new boolean[] {true, false, true})) {
      assertThrows(IllegalArgumentException.class, () -> x.booleanMask(mask.reshape(1, 3), 1));
    }
  }

  @Test
  void randomFlipsMirrorTheImageHalfTheTime() {
    // HWC 2 x 3 x 1: rows [0 1 2], [3 4 5].
    float[] same = {0, 1, 2, 3, 4, 5};
    float[] leftRight = {2, 1, 0, 5, 4, 3};
    float[] topBottom = {3, 4, 5, 0, 1, 2};
    checkFlips(false, same, leftRight);
    checkFlips(true, same, topBottom);
    try (NDArray vector = manager.ones(new Shape(3))) {
      assertThrows(IllegalArgumentException.class,
          () -> vector.getNDArrayInternal().randomFlipLeftRight());
    }
  }

  /**
   * With DJL's RandomUtils seeded, each call flips exactly when the same seed's next float is
   * below 1/2 (DJL's rule for a random flip), and so about half of 64 calls do.
   */
  private void checkFlips(boolean vertical, float[] same, float[] flipped) {
    long seed = vertical ? 11 : 12;
    RandomUtils.RANDOM.setSeed(seed);
    Random expected = new Random(seed);
    int flips = 0;
    try (NDArray image = manager.arange(6f).reshape(2, 3, 1)) {
      for (int i = 0; i < 64; i++) {
        boolean flip = expected.nextFloat() < 0.5f;
        try (NDArray out = vertical ? image.getNDArrayInternal().randomFlipTopBottom()
            : image.getNDArrayInternal().randomFlipLeftRight()) {
          assertArrayEquals(flip ? flipped : same, out.toFloatArray(), "call " + i);
        }
        flips += flip ? 1 : 0;
      }
    }
    assertTrue(flips >= 20 && flips <= 44, flips + " flips in 64");
  }
}
