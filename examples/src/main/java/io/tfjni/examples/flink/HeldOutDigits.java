package io.tfjni.examples.flink;

import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.numpy.Npy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The held-out digits (MODELS_DIR/digits_holdout_{images,labels}.npy), TensorFlow Python's
 * probabilities for them (digits_holdout_probs.npy), and the check both Flink jobs end with.
 */
final class HeldOutDigits {
  /** How far a probability may be from TensorFlow Python's. */
  private static final double TOLERANCE = 1e-5;

  private final float[] pixels;
  private final long[] labels;
  private final float[] python;

  private HeldOutDigits(float[] pixels, long[] labels, float[] python) {
    this.pixels = pixels;
    this.labels = labels;
    this.python = python;
  }

  static HeldOutDigits read(Path models) throws IOException {
    try (Tensor images = Npy.read(models.resolve("digits_holdout_images.npy"));
        Tensor truth = Npy.read(models.resolve("digits_holdout_labels.npy"));
        Tensor probabilities = Npy.read(models.resolve("digits_holdout_probs.npy"))) {
      return new HeldOutDigits(images.toFloatArray(), truth.toLongArray(),
          probabilities.toFloatArray());
    }
  }

  int count() {
    return labels.length;
  }

  /** Digit {@code id}'s 64 pixels. */
  float[] pixels(int id) {
    int perImage = pixels.length / labels.length;
    float[] image = new float[perImage];
    System.arraycopy(pixels, id * perImage, image, 0, perImage);
    return image;
  }

  /**
   * Prints the accuracy of the job's predictions (probabilities by digit id) and how far they are
   * from TensorFlow Python's, then the live native objects; exits 1 unless every digit was scored
   * once, within {@link #TOLERANCE} of Python's.
   */
  void checkAndExit(String how, int predictions, Map<Integer, float[]> byId) {
    int classes = python.length / labels.length;
    int correct = 0;
    double worst = 0;
    for (Map.Entry<Integer, float[]> digit : byId.entrySet()) {
      int id = digit.getKey();
      float[] p = digit.getValue();
      int best = 0;
      for (int c = 0; c < classes; c++) {
        worst = Math.max(worst, Math.abs(p[c] - python[id * classes + c]));
        best = p[c] > p[best] ? c : best;
      }
      correct += best == labels[id] ? 1 : 0;
    }
    System.out.printf("%d digits scored %s: accuracy %.2f%%, max |p - p_python| = %.2e%n",
        predictions, how, 100.0 * correct / Math.max(1, byId.size()), worst);
    boolean everyDigitOnce = predictions == labels.length && byId.size() == labels.length;
    System.out.println("live native objects after the job: " + TensorFlow.liveObjects().total());
    if (!everyDigitOnce || worst > TOLERANCE) {
      System.out.println("disagrees with TensorFlow Python");
      System.exit(1);
    }
  }
}
