package io.tfjni.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sixteen threads send tagged requests of one to three rows through one batching predictor,
 * half blocking and half through futures, and the predictor is closed while they run. Every
 * request must end exactly once: with its own rows' answer (multi's add, a + b, checked against
 * arithmetic on the tag; or the strings model's transform of strings that spell the tag, checked
 * against the tag spelled with "_suffix" and in capitals) or refused because of the close;
 * nothing else, and nothing left open.
 */
@ExtendWith(TestModels.NoLeaks.class)
class BatchingStressTest {
  private static final int THREADS = 16;
  private static final int REQUESTS_PER_THREAD = 200;

  private record Outcome(int answered, int refused) {}

  /** What the requests hold: numbers or strings. */
  enum Rows {
    NUMBERS("multi", "add"),
    STRINGS("strings", "transform");

    final String model;
    final String signature;

    Rows(String model, String signature) {
      this.model = model;
      this.signature = signature;
    }
  }

  /**
   * With no delay, a blocking caller that finds the model idle may also run its rows alone, and
   * blocking callers run unbatched while the policy measures that to be faster. With {@code
   * reuse}, blocking callers get their answers in a result each reuses.
   */
  @ParameterizedTest(name = "{0}, callerLeads={1}, delay {2} ms, reuse={3}")
  @CsvSource({"NUMBERS, true, 1, false", "NUMBERS, false, 1, false", "NUMBERS, false, 0, false",
      "NUMBERS, false, 0, true", "STRINGS, true, 1, true", "STRINGS, false, 0, false",
      "STRINGS, false, 0, true"})
  void everyRequestEndsOnceWithItsOwnAnswerWhileCloseCutsIn(Rows kind, boolean callerLeads,
      int delayMillis, boolean reuse) throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath(kind.model));
        Predictor predictor = model.predictor(kind.signature)) {
      BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(8)
          .maxDelay(Duration.ofMillis(delayMillis)).callerLeads(callerLeads).build();
      CountDownLatch halfway = new CountDownLatch(THREADS);
      CountDownLatch closed = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<Outcome>> outcomes = new ArrayList<>();
      try {
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          outcomes.add(pool.submit(() -> {
            int answered = 0;
            int refused = 0;
            boolean passedHalfway = false;
            try (RunResult reused = reuse ? batcher.newResult() : null) {
              for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
                if (i == REQUESTS_PER_THREAD / 2) {
                  passedHalfway = true;
                  halfway.countDown();
                  if (thread == 0) {
                    closed.await();  // so that some requests surely come after the close
                  }
                }
                int tag = thread * REQUESTS_PER_THREAD + i;
                boolean blocking = i % 2 == 0;
                RunResult into = blocking ? reused : null;
                if (kind == Rows.NUMBERS ? request(batcher, tag, 1 + i % 3, into, blocking)
                    : requestStrings(batcher, tag, 1 + i % 3, into, blocking)) {
                  answered++;
                } else {
                  refused++;
                }
              }
            } finally {
              if (!passedHalfway) {
                halfway.countDown();  // a thread that failed early must not keep the close waiting
              }
            }
            return new Outcome(answered, refused);
          }));
        }
        halfway.await();
        batcher.close();
        closed.countDown();
        int answered = 0;
        int refused = 0;
        for (Future<Outcome> outcome : outcomes) {
          answered += outcome.get().answered();
          refused += outcome.get().refused();
        }
        assertEquals(THREADS * REQUESTS_PER_THREAD, answered + refused);
        assertTrue(answered >= THREADS * REQUESTS_PER_THREAD / 2, "answered " + answered);
        assertTrue(refused >= REQUESTS_PER_THREAD / 2, "refused " + refused);
      } finally {
        closed.countDown();
        pool.shutdown();
        batcher.close();
      }
    }
  }

  /**
   * One request of {@code rows} rows tagged {@code tag}: a = 4 tag + k, b = 2 a, so every sum is
   * 3 a, exact in float32. True if answered (and checked), false if refused by the close.
   */
  private static boolean request(BatchingPredictor batcher, int tag, int rows, RunResult into,
      boolean blocking) throws InterruptedException {
    float[] a = new float[rows];
    float[] b = new float[rows];
    for (int k = 0; k < rows; k++) {
      a[k] = 4 * tag + k;
      b[k] = 2 * a[k];
    }
    Answer result;
    try (Tensor ta = Tensor.of(a, rows); Tensor tb = Tensor.of(b, rows)) {
      result = answer(batcher, tag, into, blocking, ta, tb);
    }
    if (result == null) {
      return false;
    }
    try (result) {
      float[] sums = result.get("sum").toFloatArray();
      assertEquals(rows, sums.length, "rows of request " + tag);
      for (int k = 0; k < rows; k++) {
        assertEquals(3 * a[k], sums[k], "row " + k + " of request " + tag);
      }
    }
    return true;
  }

  /**
   * One request of {@code rows} strings spelling {@code tag} and the row (of different lengths:
   * the row number repeats the tag), checked as {@link #request} checks numbers.
   */
  private static boolean requestStrings(BatchingPredictor batcher, int tag, int rows,
      RunResult into, boolean blocking) throws InterruptedException {
    String[] strings = new String[rows];
    for (int k = 0; k < rows; k++) {
      strings[k] = "tag" + tag + "-row" + k + "-" + ("t" + tag).repeat(k);
    }
    Answer result;
    try (Tensor s = Tensor.ofStrings(strings, rows)) {
      result = answer(batcher, tag, into, blocking, s);
    }
    if (result == null) {
      return false;
    }
    try (result) {
      String[] joined = result.get("joined").toStringArray();
      String[] upper = result.get("upper").toStringArray();
      int[] length = result.get("length").toIntArray();
      assertEquals(rows, joined.length, "rows of request " + tag);
      for (int k = 0; k < rows; k++) {
        String row = "row " + k + " of request " + tag;
        assertEquals(strings[k] + "_suffix", joined[k], row);
        assertEquals(strings[k].toUpperCase(Locale.ROOT), upper[k], row);
        assertEquals(strings[k].length(), length[k], row);
      }
    }
    return true;
  }

  /** A request's outputs: a batched result of its own, or a reused result (not closed). */
  private record Answer(BatchedResult own, RunResult reused) implements AutoCloseable {
    Tensor get(String key) {
      return own != null ? own.get(key) : reused.get(key);
    }

    @Override
    public void close() {
      if (own != null) {
        own.close();
      }
    }
  }

  /** The request's answer (into {@code into} if given), or null if the close refused it. */
  private static Answer answer(BatchingPredictor batcher, int tag, RunResult into,
      boolean blocking, Tensor... inputs) throws InterruptedException {
    try {
      if (into != null) {
        return new Answer(null, batcher.predict(inputs, into));
      }
      return new Answer(blocking ? batcher.predict(inputs) : batcher.submit(inputs).get(), null);
    } catch (IllegalStateException e) {
      return null;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IllegalStateException) {
        return null;
      }
      throw new AssertionError("request " + tag + " failed", e.getCause());
    }
  }
}
