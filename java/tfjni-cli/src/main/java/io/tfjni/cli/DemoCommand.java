package io.tfjni.cli;

import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Signature;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.numpy.Npy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tfjni demo}: the end-to-end example. Classifies the held-out handwritten digits with the
 * Keras CNN that scripts/setup.sh trains and exports (sklearn's digits data set), through tfjni,
 * and compares every prediction with TensorFlow Python's.
 */
@Command(name = "demo", sortOptions = false,
    description = {"Classifies held-out handwritten digits (8x8, from scikit-learn) with a small"
        + " Keras CNN exported as a SavedModel, through tfjni; prints the accuracy, a few digits"
        + " as ASCII art with their predictions, and checks every prediction against TensorFlow"
        + " Python's. Exits with 1 if any differs."})
final class DemoCommand implements Callable<Integer> {
  /** System property naming the models directory; bin/tfjni sets it. */
  static final String MODELS_PROPERTY = "tfjni.models";
  static final String MODELS_ENV = "TFJNI_MODELS";
  static final String MODEL = "digits";
  private static final String SHADES = " .:-=+*#%@";
  private static final int CLASSES = 10;

  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Option(names = "--models", paramLabel = "DIR",
      description = {"Where scripts/setup.sh generated the models: DIR/digits and"
          + " DIR/digits_holdout_{images,labels,probs}.npy (default: the -D" + MODELS_PROPERTY
          + " property bin/tfjni sets, or $" + MODELS_ENV + ")."})
  Path models;

  @Option(names = "--show", paramLabel = "N", defaultValue = "3",
      description = "How many digits to draw (default: ${DEFAULT-VALUE}).")
  int show;

  /** What the demo found: predictions by tfjni and by TensorFlow Python, and the timing. */
  record Result(int[] predicted, int[] pythonPredicted, long[] labels, float[] probabilities,
      float[] pixels, double millis, double maxDifference, Signature signature) {
    int count() {
      return labels.length;
    }

    int correct() {
      int correct = 0;
      for (int i = 0; i < labels.length; i++) {
        correct += predicted[i] == labels[i] ? 1 : 0;
      }
      return correct;
    }

    int agreeing() {
      int agree = 0;
      for (int i = 0; i < labels.length; i++) {
        agree += predicted[i] == pythonPredicted[i] ? 1 : 0;
      }
      return agree;
    }
  }

  @Override
  public Integer call() throws IOException {
    if (show < 0) {
      throw new CliException("--show must be >= 0, got " + show);
    }
    Path dir = modelsDir(models);
    PrintWriter out = spec.commandLine().getOut();
    out.println("TensorFlow " + TensorFlow.version() + " from " + TensorFlow.libraryPath());
    Result result = classify(dir);
    Signature signature = result.signature();
    out.println("signature " + signature.key() + ": " + signature.inputs() + " -> "
        + signature.outputs());
    for (int i = 0; i < Math.min(show, result.count()); i++) {
      out.println();
      drawDigit(result.pixels(), i, out);
      int predicted = result.predicted()[i];
      out.printf("predicted %d (p=%.3f), true label %d%n", predicted,
          result.probabilities()[i * CLASSES + predicted], result.labels()[i]);
    }
    out.println();
    out.printf("%d held-out digits classified in %.1f ms: accuracy %.2f%%%n", result.count(),
        result.millis(), 100.0 * result.correct() / result.count());
    out.printf("agreement with TensorFlow Python: %d/%d, max |p - p_python| = %.2e%n",
        result.agreeing(), result.count(), result.maxDifference());
    out.println("live native objects after close: " + TensorFlow.liveObjects().total());
    out.flush();
    if (result.agreeing() != result.count()) {
      throw new CliException("tfjni's predictions differ from TensorFlow Python's on "
          + (result.count() - result.agreeing()) + " of " + result.count() + " digits",
          CliException.FAILURE);
    }
    return 0;
  }

  /** The models directory: the option, else the system property, else the environment. */
  static Path modelsDir(Path option) {
    Path dir = option;
    String source = "--models";
    if (dir == null && System.getProperty(MODELS_PROPERTY) != null
        && !System.getProperty(MODELS_PROPERTY).isEmpty()) {
      dir = Path.of(System.getProperty(MODELS_PROPERTY));
      source = "-D" + MODELS_PROPERTY;
    }
    if (dir == null && System.getenv(MODELS_ENV) != null && !System.getenv(MODELS_ENV).isEmpty()) {
      dir = Path.of(System.getenv(MODELS_ENV));
      source = "$" + MODELS_ENV;
    }
    if (dir == null) {
      throw new CliException("where are the models? give --models DIR (scripts/setup.sh"
          + " generates them; bin/tfjni passes their directory by default)");
    }
    if (!Files.isDirectory(dir.resolve(MODEL))) {
      throw new CliException("no " + MODEL + " model in " + dir + " (from " + source
          + "); run 'make build' (scripts/setup.sh), which trains and exports it");
    }
    return dir;
  }

  /** Classifies every held-out digit in one batch and compares with Python's probabilities. */
  static Result classify(Path dir) throws IOException {
    SessionOptions options = SessionOptions.defaults().intraOpThreads(2).interOpThreads(1);
    try (SavedModel model = SavedModel.load(dir.resolve(MODEL), options, SavedModel.DEFAULT_TAG);
        Tensor images = Npy.read(file(dir, "digits_holdout_images.npy"));
        Tensor labelTensor = Npy.read(file(dir, "digits_holdout_labels.npy"));
        Tensor pythonTensor = Npy.read(file(dir, "digits_holdout_probs.npy"))) {
      Signature signature = model.signature(SavedModel.DEFAULT_SIGNATURE);
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
      if (probs.length != n * CLASSES || pythonProbs.length != n * CLASSES) {
        throw new CliException("the hold-out files do not match the model: " + n + " labels, "
            + probs.length + " probabilities from tfjni, " + pythonProbs.length + " from Python",
            CliException.FAILURE);
      }
      int[] predicted = new int[n];
      int[] pythonPredicted = new int[n];
      double maxDiff = 0;
      for (int i = 0; i < n; i++) {
        predicted[i] = argMax(probs, i * CLASSES);
        pythonPredicted[i] = argMax(pythonProbs, i * CLASSES);
        for (int k = 0; k < CLASSES; k++) {
          maxDiff = Math.max(maxDiff,
              Math.abs(probs[i * CLASSES + k] - pythonProbs[i * CLASSES + k]));
        }
      }
      return new Result(predicted, pythonPredicted, labels, probs, pixels, millis, maxDiff,
          signature);
    }
  }

  private static Path file(Path dir, String name) {
    Path file = dir.resolve(name);
    if (!Files.isRegularFile(file)) {
      throw new CliException("no " + file + "; run 'make build' (scripts/setup.sh), which"
          + " writes it");
    }
    return file;
  }

  static int argMax(float[] values, int offset) {
    int best = 0;
    for (int k = 1; k < CLASSES; k++) {
      if (values[offset + k] > values[offset + best]) {
        best = k;
      }
    }
    return best;
  }

  private static void drawDigit(float[] pixels, int index, PrintWriter out) {
    for (int row = 0; row < 8; row++) {
      StringBuilder line = new StringBuilder("    ");
      for (int col = 0; col < 8; col++) {
        float v = pixels[index * 64 + row * 8 + col];
        char c = SHADES.charAt(Math.max(0, Math.min(SHADES.length() - 1,
            (int) (v * SHADES.length()))));
        line.append(c).append(c);
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
