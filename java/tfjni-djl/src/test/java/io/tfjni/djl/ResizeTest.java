package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import ai.djl.modality.cv.Image;
import ai.djl.modality.cv.util.NDImageUtils;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.Test;

/**
 * Bilinear resizing with half-pixel centres by default, and without them when the system property
 * says so (DJL's own TensorFlow engine's numbers). Expected values from TensorFlow Python:
 * {@code tf.image.resize(x, [3, 5], "bilinear")} and
 * {@code tf.compat.v1.image.resize_bilinear(x, [3, 5])} for x = [[0, 10, 20], [30, 40, 50]].
 */
class ResizeTest extends ManagerTest {
  private static final float[] HALF_PIXEL = {
      0f, 4.0000005f, 10f, 16.000002f, 20f, 15f, 19f, 25f, 31f, 35f, 30f, 34f, 40f, 46f, 50f};
  private static final float[] TENSORFLOW_1 = {
      0f, 6f, 12f, 18f, 20f, 20f, 26f, 32f, 38f, 40f, 30f, 36f, 42f, 48f, 50f};

  private float[] resized() {
    try (NDArray image = manager.create(new float[] {0, 10, 20, 30, 40, 50}, new Shape(2, 3, 1));
        NDArray out = NDImageUtils.resize(image, 5, 3, Image.Interpolation.BILINEAR)) {
      return out.toFloatArray();
    }
  }

  @Test
  void halfPixelCentresByDefaultAndTensorFlow1sResizeOnRequest() {
    assertArrayEquals(HALF_PIXEL, resized(), 1e-5f);
    System.setProperty(TfjniEngine.RESIZE_HALF_PIXEL_CENTERS, "false");
    try {
      assertArrayEquals(TENSORFLOW_1, resized(), 1e-5f);
    } finally {
      System.clearProperty(TfjniEngine.RESIZE_HALF_PIXEL_CENTERS);
    }
    assertArrayEquals(HALF_PIXEL, resized(), 1e-5f);
  }
}
