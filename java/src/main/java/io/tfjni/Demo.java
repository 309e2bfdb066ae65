package io.tfjni;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The end-to-end example: classifies held-out handwritten digits with a Keras CNN exported as a
 * SavedModel, through tfjni, and compares with TensorFlow Python's predictions.
 */
public final class Demo {
  private static final String SHADES = " .:-=+*#%@";

  private Demo() {}

  public static void main(String[] args) throws Exception {
    Path models = Path.of(args.length > 0 ? args[0] : "build/models");
    Path modelDir = models.resolve("digits");
    if (!Files.isDirectory(modelDir)) {
      System.err.println("tfjni demo: no model at " + modelDir
          + " (run `make demo`, which generates it)");
      System.exit(2);
    }
    System.out.println("TensorFlow " + TensorFlow.version() + " from " + TensorFlow.libraryPath());
    SessionOptions options = SessionOptions.defaults().intraOpThreads(2).interOpThreads(1);
    try (SavedModel model = SavedModel.load(modelDir, options, SavedModel.DEFAULT_TAG);
        Tensor images = Npy.read(models.resolve("digits_holdout_images.npy"));
        Tensor labelTensor = Npy.read(models.resolve("digits_holdout_labels.npy"));
        Tensor pythonTensor = Npy.read(models.resolve("digits_holdout_probs.npy"))) {
      Signature signature = model.signature(SavedModel.DEFAULT_SIGNATURE);
      System.out.println("signature " + signature.key() + ": " + signature.inputs() + " -> "
          + signature.outputs());
      long[] labels = labelTensor.toLongArray();
      float[] pythonProbs = pythonTensor.toFloatArray();
      float[] pixels = images.toFloatArray();
      float[] probs;
      long start = System.nanoTime();
      try (Predictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
          RunResult result = predictor.run(images)) {
        probs = result.get(0).toFloatArray();
      }
      double millis = (System.nanoTime() - start) / 1e6;
      int n = labels.length;
      int correct = 0;
      int agree = 0;
      double maxDiff = 0;
      for (int i = 0; i < n; i++) {
        int predicted = argMax(probs, i * 10);
        correct += predicted == labels[i] ? 1 : 0;
        agree += predicted == argMax(pythonProbs, i * 10) ? 1 : 0;
        for (int k = 0; k < 10; k++) {
          maxDiff = Math.max(maxDiff, Math.abs(probs[i * 10 + k] - pythonProbs[i * 10 + k]));
        }
      }
      for (int i : List.of(0, 1, 2)) {
        System.out.println();
        printDigit(pixels, i);
        int predicted = argMax(probs, i * 10);
        System.out.printf("predicted %d (p=%.3f), true label %d%n", predicted,
            probs[i * 10 + predicted], labels[i]);
      }
      System.out.println();
      System.out.printf("%d held-out digits classified in %.1f ms: accuracy %.2f%%%n", n, millis,
          100.0 * correct / n);
      System.out.printf("agreement with TensorFlow Python: %d/%d, max |p - p_python| = %.2e%n",
          agree, n, maxDiff);
    }
    System.out.println("live native objects after close: " + TensorFlow.liveObjects().total());
  }

  private static int argMax(float[] values, int offset) {
    int best = 0;
    for (int k = 1; k < 10; k++) {
      if (values[offset + k] > values[offset + best]) {
        best = k;
      }
    }
    return best;
  }

  private static void printDigit(float[] pixels, int index) {
    for (int row = 0; row < 8; row++) {
      StringBuilder line = new StringBuilder("    ");
      for (int col = 0; col < 8; col++) {
        float v = pixels[index * 64 + row * 8 + col];
        char c = SHADES.charAt(Math.min(SHADES.length() - 1, (int) (v * SHADES.length())));
        line.append(c).append(c);
      }
      System.out.println(line);
    }
  }
}
