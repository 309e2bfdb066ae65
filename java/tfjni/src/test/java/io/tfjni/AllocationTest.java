package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tfjni.batching.BatchListener;
import io.tfjni.batching.BatchingPredictor;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import io.tfjni.eager.OpBuilder;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The prepared path allocates nothing on the Java heap: a run into a reused {@link RunResult} and
 * reading its output with {@link Tensor#copyTo(Object)}. Counted with the JVM's per-thread
 * allocation counter around many calls, not timed. A real allocation happens on every call, so a
 * round of {@value #CALLS} calls finds at least that many bytes; the test passes if one of a few
 * rounds allocates nothing (a one-off allocation inside the JVM cannot fail it). Metrics on a run
 * path add nothing to what it allocates: a batching predictor's listeners here, the serving
 * metrics in their package's tests (which use {@link #fewestBytesAllocated}).
 */
@ExtendWith(TestModels.NoLeaks.class)
public class AllocationTest {
  private static final int WARM_UP_CALLS = 20_000;
  private static final int CALLS = 5_000;
  private static final int ROUNDS = 3;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static SavedModel multi;
  private static SavedModel digits;

  @BeforeAll
  static void load() {
    multi = SavedModel.load(TestModels.dir().resolve("multi"));
    digits = SavedModel.load(TestModels.dir().resolve("digits"));
  }

  @AfterAll
  static void close() {
    if (multi != null) {
      multi.close();
    }
    if (digits != null) {
      digits.close();
    }
  }

  /** The fewest bytes this thread allocated in any of the rounds of {@code calls} calls. */
  private static long fewestBytesAllocated(Runnable call) {
    return fewestBytesAllocated(call, ROUNDS);
  }

  /**
   * The fewest bytes this thread allocated in any of up to {@code rounds} rounds of {@value
   * #CALLS} calls (it stops at a round that allocates nothing), after {@value #WARM_UP_CALLS}
   * calls; skips the test where the JVM does not count allocations per thread. More rounds give
   * the JIT time to compile a path whose allocation only its escape analysis removes.
   *
   * @param call one call
   * @param rounds the most rounds
   * @return bytes
   */
  public static long fewestBytesAllocated(Runnable call, int rounds) {
    assumeTrue(THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled(),
        "this JVM does not count allocated bytes per thread");
    for (int i = 0; i < WARM_UP_CALLS; i++) {
      call.run();
    }
    long fewest = Long.MAX_VALUE;
    for (int round = 0; round < rounds && fewest > 0; round++) {
      long before = THREADS.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < CALLS; i++) {
        call.run();
      }
      fewest = Math.min(fewest, THREADS.getCurrentThreadAllocatedBytes() - before);
    }
    return fewest;
  }

  @Test
  void theAllocationCounterSeesAnAllocationPerCall() {
    // The counter must not miss small allocations, or the zero below would prove nothing.
    Object[] keep = new Object[1];
    long bytes = fewestBytesAllocated(() -> keep[0] = new long[] {System.nanoTime()});
    assertTrue(bytes >= (long) CALLS * 16, "expected >= 16 bytes per call, counted " + bytes);
  }

  @Test
  void aSingleInputRunIntoAReusedResultAllocatesNothing() throws Exception {
    float[] pixels = new float[64];
    for (int i = 0; i < pixels.length; i++) {
      pixels[i] = (i * 7 % 17) / 16f;
    }
    try (Predictor predictor = digits.predictor("serving_default");
        RunResult result = predictor.newResult();
        Tensor images = Tensor.of(pixels, 1, 8, 8, 1)) {
      float[] expected;
      try (RunResult reference = predictor.run(images)) {
        expected = reference.get("output_0").toFloatArray();
      }
      float[] probabilities = new float[10];
      long bytes = fewestBytesAllocated(() -> {
        predictor.run(images, result);
        result.get(0).copyTo(probabilities);
      });
      assertEquals(0, bytes, "bytes allocated by " + CALLS + " runs (" + (double) bytes / CALLS
          + " per run)");
      assertArrayEquals(expected, probabilities, "the runs computed the model's output");
    }
  }

  @Test
  void aRunOfSeveralInputsAndOutputsIntoAReusedResultAllocatesNothing() {
    try (Predictor predictor = multi.predictor("scale");
        Predictor add = multi.predictor("add");
        RunResult scaled = predictor.newResult();
        RunResult sums = add.newResult();
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
        Tensor a = Tensor.of(new float[] {1, 2, 3}, 3);
        Tensor b = Tensor.of(new float[] {10, 20, 30}, 3)) {
      Tensor[] addInputs = {a, b};
      float[] twice = new float[6];
      float[] total = new float[1];
      float[] sum = new float[3];
      long bytes = fewestBytesAllocated(() -> {
        predictor.run(x, scaled);
        scaled.get("scaled").copyTo(twice);
        scaled.get("total").copyTo(total);
        add.run(addInputs, sums);
        sums.get(0).copyTo(sum);
      });
      assertEquals(0, bytes, "bytes allocated by " + CALLS + " rounds of runs");
      assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12}, twice);
      assertArrayEquals(new float[] {21}, total);
      assertArrayEquals(new float[] {11, 22, 33}, sum);
      assertEquals(List.of("scaled", "total"), scaled.keys());
    }
  }

  @Test
  void aLiteRtRunIntoAReusedResultAllocatesNothing() {
    Path file = TestModels.dir().resolve(
        TestModels.manifest().path("litert").path("models").path("multi").path("path").asText());
    try (LiteRtModel model = LiteRtModel.load(file, 1);
        Predictor scale = model.predictor("scale");
        Predictor add = model.predictor("add");
        RunResult scaled = scale.newResult();
        RunResult sums = add.newResult();
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
        Tensor a = Tensor.of(new float[] {1, 2, 3, 4}, 4);
        Tensor b = Tensor.of(new float[] {10, 20, 30, 40}, 4)) {
      Tensor[] addInputs = new Tensor[2];
      for (int i = 0; i < 2; i++) {
        addInputs[i] = add.inputs().get(i).key().equals("a") ? a : b;
      }
      float[] twice = new float[6];
      float[] total = new float[1];
      float[] sum = new float[4];
      long bytes = fewestBytesAllocated(() -> {
        scale.run(x, scaled);
        scaled.get("scaled").copyTo(twice);
        scaled.get("total").copyTo(total);
        add.run(addInputs, sums);
        sums.get(0).copyTo(sum);
      });
      assertEquals(0, bytes, "bytes allocated by " + CALLS + " rounds of LiteRT runs");
      assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12}, twice);
      assertArrayEquals(new float[] {21}, total);
      assertArrayEquals(new float[] {11, 22, 33, 44}, sum);
    }
  }

  @Test
  void aRunWithOptionsIntoAReusedResultAllocatesNothing() {
    // The options are encoded once, by withOptions: each run passes the same bytes.
    try (Predictor plain = digits.predictor("serving_default");
        Predictor timed = plain.withOptions(RunOptions.defaults().withTimeoutMillis(60_000));
        RunResult result = timed.newResult();
        Tensor images = Tensor.of(new float[64], 1, 8, 8, 1)) {
      float[] probabilities = new float[10];
      long bytes = fewestBytesAllocated(() -> {
        timed.run(images, result);
        result.get(0).copyTo(probabilities);
      });
      assertEquals(0, bytes, "bytes allocated by " + CALLS + " runs with options");
      assertEquals(1.0, probabilities[0] + probabilities[1] + probabilities[2] + probabilities[3]
          + probabilities[4] + probabilities[5] + probabilities[6] + probabilities[7]
          + probabilities[8] + probabilities[9], 1e-5, "the runs computed softmax outputs");
    }
  }

  /**
   * A batching predictor's listener adds no allocation to a caller's rows run alone on its thread:
   * such a run allocates its result, so the bytes with a listener are compared with the bytes
   * without one; an object more per call would add at least 16 bytes per call.
   */
  @Test
  void aBatchListenerAddsNoAllocationToACallersRunAlone() {
    LongAdder callers = new LongAdder();
    LongAdder rowsHeard = new LongAdder();
    BatchListener counting = new BatchListener() {
      @Override
      public void onCallerStarted(long waitNanos) {
        callers.increment();
      }

      @Override
      public void onRun(int runCallers, int runRows, long runNanos, boolean failed) {
        rowsHeard.add(runRows);
      }
    };
    // A model of a few microseconds a run (y = x * [2, 3, 4] + 1), so that the rounds are short.
    try (SavedModel small = SavedModel.load(TestModels.modelPath("versioned_a"));
        Predictor predictor = small.predictor("serving_default");
        Tensor rows = Tensor.of(new float[3], 1, 3);
        BatchingPredictor plain = BatchingPredictor.builder(predictor).build();
        BatchingPredictor heard = BatchingPredictor.builder(predictor).listener(counting)
            .build()) {
      long without = bytesOfRunsAlone(plain, rows);
      long with = bytesOfRunsAlone(heard, rows);
      assertTrue(with <= without + CALLS * 8L, "bytes allocated by " + CALLS + " runs alone: "
          + with + " with a listener, " + without + " without");
      assertEquals(heard.rowsRun(), rowsHeard.sum(), "the listener heard every run's rows");
      assertEquals(heard.rowsRun(), callers.sum(), "and each call start: one row per call");
    }
  }

  /** The fewest bytes of a round of blocking calls, which (nearly all) run alone. */
  private static long bytesOfRunsAlone(BatchingPredictor batcher, Tensor rows) {
    long bytes = fewestBytesAllocated(() -> batcher.predict(rows).close());
    // The policy probes batching now and then: a few calls queue, not a round's worth.
    assertTrue(batcher.runsAlone() >= batcher.batchesRun() * 9 / 10, batcher.runsAlone()
        + " of " + batcher.batchesRun() + " calls ran alone");
    return bytes;
  }

  /**
   * An eager op allocates its result array and, where the JIT cannot keep it in registers, its
   * builder: no lists, arrays, strings or tracking nodes per op. An NDArray is 48 bytes and an
   * OpBuilder 64 with compressed references (the JVM's default here); the bound leaves room for
   * a few bytes of either, not for one more object of any size that matters.
   */
  @Test
  void anEagerOpAllocatesOnlyItsResultArrayAndBuilder() {
    try (NDManager manager = NDManager.newBaseManager();
        NDArray a = manager.create(new float[] {1}, 1);
        NDArray b = manager.create(new float[] {2}, 1)) {
      float[] sum = new float[1];
      long bytes = fewestBytesAllocated(() -> {
        try (NDArray c = manager.opBuilder("AddV2").addInput(a).addInput(b).build()) {
          sum[0] += c.isClosed() ? -1 : 1;
        }
      });
      assertTrue(bytes <= (long) CALLS * 128, "bytes allocated by " + CALLS + " ops: " + bytes
          + " (" + (double) bytes / CALLS + " per op)");
      try (NDArray c = manager.opBuilder("AddV2").addInput(a).addInput(b).build()) {
        assertArrayEquals(new float[] {3}, c.toFloatArray(), "1 + 2");
      }
    }
  }
}
