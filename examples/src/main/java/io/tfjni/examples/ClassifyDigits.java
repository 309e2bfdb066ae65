package io.tfjni.examples;

import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.numpy.Npy;
import java.nio.file.Path;

/**
 * Classifies the held-out handwritten digits with the digits CNN and compares every probability
 * with TensorFlow Python's. Usage: ClassifyDigits MODELS_DIR (holding digits/ and
 * digits_holdout_{images,labels,probs}.npy). Exits 1 if any prediction disagrees with Python's.
 */
public final class ClassifyDigits {
  private ClassifyDigits() {}

  public static void main(String[] args) throws Exception {
    Path models = Path.of(args[0]);
    System.out.println("TensorFlow " + TensorFlow.version() + " from " + TensorFlow.libraryPath());
    try (Tensor images = Npy.read(models.resolve("digits_holdout_images.npy"));
        Tensor labels = Npy.read(models.resolve("digits_holdout_labels.npy"));
        Tensor python = Npy.read(models.resolve("digits_holdout_probs.npy"));
        SavedModel model = SavedModel.load(models.resolve("digits"));
        Predictor predictor = model.predictor("serving_default");
        RunResult result = predictor.run(images)) {
      float[] probabilities = result.get(0).toFloatArray();
      float[] expected = python.toFloatArray();
      long[] truth = labels.toLongArray();
      int classes = probabilities.length / truth.length;
      int correct = 0;
      double worst = 0;
      for (int i = 0; i < truth.length; i++) {
        int best = 0;
        for (int c = 0; c < classes; c++) {
          int at = i * classes + c;
          worst = Math.max(worst, Math.abs(probabilities[at] - expected[at]));
          if (probabilities[at] > probabilities[i * classes + best]) {
            best = c;
          }
        }
        correct += best == truth[i] ? 1 : 0;
      }
      System.out.printf("%d digits: accuracy %.2f%%, max |p - p_python| = %.2e%n", truth.length,
          100.0 * correct / truth.length, worst);
      if (worst > 1e-5) {
        System.out.println("disagrees with TensorFlow Python");
        System.exit(1);
      }
    }
    System.out.println("live native objects after close: " + TensorFlow.liveObjects().total());
  }
}
