package io.tfjni;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Latency of the same models through tfjni's TensorFlow path and its LiteRT path, side by side:
 * one caller, a prepared predictor and a reused result each, rounds alternating between the two
 * so that the machine's load falls on both alike. Prints the median and 90th percentile per call
 * and the Java heap bytes allocated per call. Not a test (no timing is asserted); run it with the
 * test class path, e.g.
 *
 * <pre>
 * java -cp java/tfjni/target/classes:java/tfjni/target/test-classes \
 *   -Dtfjni.tensorflow.dir=... -Dtfjni.litert.library=... io.tfjni.LiteRtLatency MODELS_DIR
 * </pre>
 */
public final class LiteRtLatency {
  private static final int THREADS = Integer.getInteger("threads", 2);
  private static final int ROUNDS = 10;

  private LiteRtLatency() {}

  /** One contender: a prepared predictor, its inputs and a result to refill. */
  private record Contender(String name, Predictor predictor, Tensor[] inputs, RunResult result) {
    void call() {
      predictor.run(inputs, result);
    }
  }

  public static void main(String[] args) {
    Path models = Path.of(args[0]);
    SessionOptions options = SessionOptions.defaults().intraOpThreads(THREADS).runOnCallerThread();
    System.out.printf("one caller, %d threads per model (TensorFlow: intra-op %d, ops on the"
        + " calling thread; LiteRT: XNNPACK %d), %d alternating rounds%n", THREADS, THREADS,
        THREADS, ROUNDS);
    try (SavedModel mobilenet = SavedModel.load(models.resolve("mobilenet_v2"), options, "serve");
        LiteRtModel mobilenetLite = LiteRtModel.load(
            models.resolve("litert/mobilenet_v2_b1.tflite"), THREADS);
        Tensor image = Tensor.allocate(DataType.FLOAT, 1, 224, 224, 3)) {
      compare("MobileNetV2 224x224, batch 1", 5, 30,
          contender("TensorFlow", mobilenet.predictor("serving_default"), image),
          contender("LiteRT", mobilenetLite.predictor("serving_default"), image));
    }
    try (GraphModel dense = GraphModel.load(models.resolve("frozen.pb"), options);
        LiteRtModel denseLite = LiteRtModel.load(models.resolve("litert/dense_b4.tflite"), THREADS);
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8}, 4, 2)) {
      compare("dense tanh(xW+b), [4,2] -> [4,3]", 2000, 5000,
          contender("TensorFlow", dense.predictor(List.of("x:0"), List.of("Identity:0")), x),
          contender("LiteRT", denseLite.predictor("serving_default"), x));
    }
    try (SavedModel digits = SavedModel.load(models.resolve("digits"), options, "serve");
        LiteRtModel digitsLite = LiteRtModel.load(models.resolve("digits/litert/serving_default/batch-1.tflite"),
            THREADS);
        Tensor images = Tensor.allocate(DataType.FLOAT, 1, 8, 8, 1)) {
      compare("digits CNN 8x8, batch 1", 2000, 5000,
          contender("TensorFlow", digits.predictor("serving_default"), images),
          contender("LiteRT", digitsLite.predictor("serving_default"), images));
    }
  }

  private static Contender contender(String name, Predictor predictor, Tensor input) {
    return new Contender(name, predictor, new Tensor[] {input}, predictor.newResult());
  }

  private static void compare(String model, int warmup, int callsPerRound, Contender... all) {
    long[][] nanos = new long[all.length][ROUNDS * callsPerRound];
    long[] allocated = new long[all.length];
    for (Contender c : all) {
      for (int i = 0; i < warmup; i++) {
        c.call();
      }
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long self = Thread.currentThread().getId();
    for (int round = 0; round < ROUNDS; round++) {
      for (int k = 0; k < all.length; k++) {
        long bytesBefore = threads.getThreadAllocatedBytes(self);
        for (int i = 0; i < callsPerRound; i++) {
          long start = System.nanoTime();
          all[k].call();
          nanos[k][round * callsPerRound + i] = System.nanoTime() - start;
        }
        allocated[k] += threads.getThreadAllocatedBytes(self) - bytesBefore;
      }
    }
    System.out.printf("%s (%d calls each):%n", model, ROUNDS * callsPerRound);
    for (int k = 0; k < all.length; k++) {
      long[] sorted = nanos[k].clone();
      Arrays.sort(sorted);
      System.out.printf("  %-10s median %10.1f us   p90 %10.1f us   %6.1f bytes/call%n",
          all[k].name(), sorted[sorted.length / 2] / 1e3, sorted[sorted.length * 9 / 10] / 1e3,
          (double) allocated[k] / sorted.length);
      all[k].result().close();
    }
  }
}
