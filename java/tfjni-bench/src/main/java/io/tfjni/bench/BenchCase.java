package io.tfjni.bench;

import io.tfjni.internal.JsonText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One benchmark case of bench_models.json (written by scripts/bench/generate_bench_models.py): which
 * SavedModel and signature to run, its single input (float32 from a .npy file, or UTF-8 strings),
 * and TensorFlow Python's output for it, which every contender must reproduce before it is timed.
 */
record BenchCase(
    String name,
    Path modelDir,
    String signature,
    String inputKey,
    String inputDtype,
    long[] inputShape,
    float[] inputFloats,
    String[] inputStrings,
    String outputKey,
    long[] outputShape,
    float[] expected) {

  /** The system property naming the directory that `scripts/bench/bench-models.sh` prints. */
  static final String MODELS_PROPERTY = "tfjni.bench.models";
  static final String MODELS_ENV = "TFJNI_BENCH_MODELS";
  /** Tolerance of the output check: |actual - expected| <= ABS + REL * |expected|. */
  static final double ABS_TOLERANCE = 1e-4;
  static final double REL_TOLERANCE = 1e-4;

  /** The directory of the generated benchmark models, from the property or the environment. */
  static Path modelsDir() {
    String dir = System.getProperty(MODELS_PROPERTY);
    if (dir == null || dir.isEmpty()) {
      dir = System.getenv(MODELS_ENV);
    }
    if (dir == null || dir.isEmpty()) {
      throw new IllegalStateException("set -D" + MODELS_PROPERTY + " (or " + MODELS_ENV
          + ") to the directory printed by scripts/bench/bench-models.sh");
    }
    return Path.of(dir);
  }

  static BenchCase load(String name) {
    try {
      return fromJson(modelsDir(), entry(name));
    } catch (IOException e) {
      throw new UncheckedIOException("reading benchmark case " + name + " from "
          + modelsDir().resolve("bench_models.json"), e);
    }
  }

  /** The case's entry in the models directory's bench_models.json, as parsed JSON. */
  static Map<?, ?> entry(String name) {
    Path manifest = modelsDir().resolve("bench_models.json");
    try {
      Map<?, ?> root =
          (Map<?, ?>) JsonText.parse(Files.readString(manifest, StandardCharsets.UTF_8));
      for (Object entry : (List<?>) root.get("cases")) {
        Map<?, ?> c = (Map<?, ?>) entry;
        if (name.equals(c.get("name"))) {
          return c;
        }
      }
      throw new IllegalArgumentException("no case '" + name + "' in " + manifest);
    } catch (IOException e) {
      throw new UncheckedIOException("reading benchmark case " + name + " from " + manifest, e);
    }
  }

  private static BenchCase fromJson(Path dir, Map<?, ?> c) throws IOException {
    String name = text(c, "name");
    String dtype = text(c, "input_dtype");
    long[] inputShape = dims(c, "input_shape");
    float[] floats = null;
    String[] strings = null;
    if (dtype.equals("float32")) {
      NpyFloats input = NpyFloats.read(dir.resolve(text(c, "input_npy")));
      if (!Arrays.equals(input.shape(), inputShape)) {
        throw new IOException(name + ": input_npy has shape " + Arrays.toString(input.shape())
            + ", the manifest says " + Arrays.toString(inputShape));
      }
      floats = input.values();
    } else if (dtype.equals("string")) {
      strings = ((List<?>) c.get("input_strings")).stream().map(String.class::cast)
          .toArray(String[]::new);
      if (inputShape.length != 1 || inputShape[0] != strings.length) {
        throw new IOException(name + ": " + strings.length + " strings for input shape "
            + Arrays.toString(inputShape));
      }
    } else {
      throw new IOException(name + ": input dtype " + dtype + " is not benchmarked");
    }
    long[] outputShape = dims(c, "output_shape");
    NpyFloats expected = NpyFloats.read(dir.resolve(text(c, "expected_npy")));
    if (!Arrays.equals(expected.shape(), outputShape)) {
      throw new IOException(name + ": expected_npy has shape " + Arrays.toString(expected.shape())
          + ", the manifest says " + Arrays.toString(outputShape));
    }
    return new BenchCase(name, dir.resolve(text(c, "model")), text(c, "signature"),
        text(c, "input_key"), dtype, inputShape, floats, strings, text(c, "output_key"),
        outputShape, expected.values());
  }

  boolean isStringInput() {
    return inputStrings != null;
  }

  /** Elements of the output, the length of the array each caller copies the output into. */
  int outputElements() {
    return expected.length;
  }

  /**
   * Throws unless {@code actual} matches TensorFlow Python's output within the tolerance: a
   * contender that computes something else must never be timed.
   */
  void check(String contender, float[] actual) {
    if (actual.length != expected.length) {
      throw new IllegalStateException(contender + " on " + name + ": " + actual.length
          + " output values, expected " + expected.length);
    }
    for (int i = 0; i < expected.length; i++) {
      double diff = Math.abs((double) actual[i] - expected[i]);
      if (!(diff <= ABS_TOLERANCE + REL_TOLERANCE * Math.abs(expected[i]))) {
        throw new IllegalStateException(contender + " on " + name + " computes a wrong output: "
            + outputKey + "[" + i + "] = " + actual[i] + ", TensorFlow Python gives "
            + expected[i]);
      }
    }
  }

  private static String text(Map<?, ?> c, String key) throws IOException {
    Object value = c.get(key);
    if (!(value instanceof String s)) {
      throw new IOException("bench_models.json: case " + c.get("name") + " has no string '" + key
          + "'");
    }
    return s;
  }

  private static long[] dims(Map<?, ?> c, String key) {
    return ((List<?>) c.get(key)).stream().mapToLong(d -> ((Double) d).longValue()).toArray();
  }
}
