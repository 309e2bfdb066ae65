package io.tfjni.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.numpy.Npy;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * What the module's tests share: the cluster, the digits' goldens, collecting a query, reading
 * failures.
 */
final class FlinkTests {
  /** The held-out digits of the manifest. */
  static final int DIGITS = 360;

  private FlinkTests() {}

  /** A MiniCluster of one TaskManager with 2 slots. */
  static MiniClusterExtension twoSlotCluster() {
    return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
        .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());
  }

  /** The held-out digits' pixels (64 a digit) and TensorFlow Python's probabilities (10). */
  record Digits(float[] images, float[] probabilities) {
    static Digits read() throws IOException {
      try (Tensor x = Npy.read(TestModels.dir().resolve("digits_holdout_images.npy"));
          Tensor p = Npy.read(TestModels.dir().resolve("digits_holdout_probs.npy"))) {
        return new Digits(x.toFloatArray(), p.toFloatArray());
      }
    }

    /** Digit {@code image}'s 64 pixels. */
    float[] pixels(int image) {
      float[] pixels = new float[64];
      System.arraycopy(images, image * 64, pixels, 0, 64);
      return pixels;
    }

    /**
     * Asserts {@code probabilities} (an array of 10 numbers, primitive or boxed) are Python's
     * for digit {@code image}.
     */
    void assertPythons(int image, Object probabilities, String what) {
      assertEquals(10, Array.getLength(probabilities), what);
      for (int c = 0; c < 10; c++) {
        float expected = this.probabilities[image * 10 + c];
        double actual = ((Number) Array.get(probabilities, c)).doubleValue();
        assertEquals(expected, actual, 1e-6 + 1e-5 * Math.abs(expected), what + " class " + c);
      }
    }

    /**
     * As {@link #assertPythons}, within the absolute tolerance the manifest allows a LiteRT run
     * of digits (its case litert_digits_b1: max(1e-5, 10 x the difference TensorFlow's own
     * interpreter shows)).
     */
    void assertPythonsOnLiteRt(int image, Object probabilities, String what) {
      double tolerance = liteRtTolerance();
      assertEquals(10, Array.getLength(probabilities), what);
      for (int c = 0; c < 10; c++) {
        float expected = this.probabilities[image * 10 + c];
        double actual = ((Number) Array.get(probabilities, c)).doubleValue();
        assertEquals(expected, actual, tolerance, what + " class " + c);
      }
    }
  }

  private static double liteRtTolerance() {
    for (com.fasterxml.jackson.databind.JsonNode c
        : TestModels.manifest().path("litert").path("cases")) {
      if (c.path("name").asText().equals("litert_digits_b1")) {
        return c.path("tolerance").asDouble();
      }
    }
    throw new AssertionError("manifest.json has no LiteRT case litert_digits_b1");
  }

  /**
   * The lines the core logs at INFO the first time it makes a LiteRT predictor of a loaded model
   * ("... at batch N runs on LiteRT: FILE ..."), from its opening to its closing. The MiniCluster's TaskManager runs in
   * this JVM, so its operators' lines arrive here.
   */
  static final class LiteRtLog extends java.util.logging.Handler implements AutoCloseable {
    private final java.util.concurrent.ConcurrentLinkedQueue<String> lines =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Held: java.util.logging keeps loggers weakly, and a new one would have no handler. */
    private final java.util.logging.Logger logger = java.util.logging.Logger.getLogger("io.tfjni");

    LiteRtLog() {
      logger.addHandler(this);
    }

    List<String> lines() {
      return List.copyOf(lines);
    }

    @Override
    public void publish(java.util.logging.LogRecord record) {
      if (record.getLevel() == java.util.logging.Level.INFO
          && record.getMessage().contains("runs on LiteRT")) {
        lines.add(record.getMessage());
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }

  /**
   * The lines the module logs at DEBUG for each batch of an operator with LiteRT predictors, from
   * its opening to its closing, each without its operator's name: "a batch of N rows[, padded to
   * M,] runs on LiteRT" (or TensorFlow).
   */
  static final class BatchLog extends java.util.logging.Handler implements AutoCloseable {
    private static final String BATCH = ", a batch of ";
    private final java.util.concurrent.ConcurrentLinkedQueue<String> lines =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Held: java.util.logging keeps loggers weakly, and a new one would have no handler. */
    private final java.util.logging.Logger logger =
        java.util.logging.Logger.getLogger("io.tfjni.flink");

    BatchLog() {
      logger.setLevel(java.util.logging.Level.FINE);  // System.Logger's DEBUG
      logger.addHandler(this);
    }

    List<String> lines() {
      return List.copyOf(lines);
    }

    @Override
    public void publish(java.util.logging.LogRecord record) {
      String message = String.valueOf(record.getMessage());
      if (message.startsWith("tfjni-flink: ") && message.contains(BATCH)) {
        lines.add(message.substring(message.indexOf(BATCH) + 2));
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
      logger.setLevel(null);
    }
  }

  /** Every exception of a failure's chain, a line each, for a message. */
  static String causes(Throwable failure) {
    StringBuilder chain = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      chain.append("\n  ").append(t);
    }
    return chain.toString();
  }

  /** The message of the first exception of the chain that contains {@code text}, or null. */
  static String messageNaming(Throwable failure, String text) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains(text)) {
        return t.getMessage();
      }
    }
    return null;
  }

  /** The rows of {@code query}, run to its end. */
  static List<Row> collect(StreamTableEnvironment tables, String query) throws Exception {
    List<Row> rows = new ArrayList<>();
    CloseableIterator<Row> results = tables.sqlQuery(query).execute().collect();
    try {
      results.forEachRemaining(rows::add);
    } finally {
      results.close();
    }
    return rows;
  }
}
