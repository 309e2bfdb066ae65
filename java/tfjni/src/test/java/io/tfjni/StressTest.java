package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 16 threads at once run predictors and the map API, run eager ops, and create and close tensors
 * and managers, while the main thread closes the model mid-flight. Every completed result must be
 * right (arithmetic), runs after the close must be rejected with IllegalStateException saying the
 * model or predictor is closed (none may come before the close starts), nothing else may be
 * thrown, and no native object may remain.
 */
@ExtendWith(TestModels.NoLeaks.class)
class StressTest {
  private static final int THREADS = 16;
  private static final long EAGER_MILLIS = 1500;
  /** What a run rejected by the model's close says; set just before the close starts. */
  private static final Set<String> CLOSED_MESSAGES = Set.of("SavedModel is closed",
      "Predictor is closed");
  private static volatile boolean closing;

  /** Asserts that {@code e} is the close's rejection, not another failure of a run. */
  private static void rejectedByTheClose(IllegalStateException e) {
    if (!closing) {
      throw new AssertionError("IllegalStateException before the model was closed", e);
    }
    if (!CLOSED_MESSAGES.contains(e.getMessage()) || e.getCause() != null) {
      throw new AssertionError("not the close's rejection: " + e, e);
    }
  }

  @Test
  void sixteenThreadsWhileTheModelIsClosedMidFlight() throws Exception {
    closing = false;
    SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
    Predictor scale = model.predictor("scale");
    AtomicIntegerArray completed = new AtomicIntegerArray(THREADS);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    CountDownLatch warmedUp = new CountDownLatch(THREADS);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int id = t;
      Runnable work = switch (id % 4) {
        case 0 -> () -> predictorRuns(scale, id, completed, warmedUp);
        case 1 -> () -> mapApiRuns(model, id, completed, warmedUp);
        case 2 -> () -> eagerScopes(id, completed, warmedUp);
        default -> () -> eagerOnPredictorOutputs(scale, id, completed, warmedUp);
      };
      Thread thread = new Thread(() -> {
        try {
          work.run();
        } catch (Throwable e) {
          failures.add(e);
        }
      }, "stress-" + id);
      threads.add(thread);
      thread.start();
    }
    assertTrue(warmedUp.await(60, TimeUnit.SECONDS), "threads did not get going");
    closing = true;
    model.close();
    for (Thread thread : threads) {
      thread.join(TimeUnit.SECONDS.toMillis(60));
      assertTrue(!thread.isAlive(), thread.getName() + " did not finish");
    }
    if (!failures.isEmpty()) {
      AssertionError error = new AssertionError(failures.size() + " threads failed");
      failures.forEach(error::addSuppressed);
      throw error;
    }
    for (int t = 0; t < THREADS; t++) {
      assertTrue(completed.get(t) > 0, "thread " + t + " completed no work");
    }
    assertTrue(scale.isClosed());
  }

  private static float[] row(int id, int i) {
    return new float[] {id, i % 97, -1.5f};
  }

  /** Prepared runs into a reused result until the model's close rejects them. */
  private static void predictorRuns(Predictor scale, int id, AtomicIntegerArray completed,
      CountDownLatch warmedUp) {
    try (RunResult result = scale.newResult()) {
      for (int i = 0; ; i++) {
        float[] x = row(id, i);
        try (Tensor input = Tensor.of(x, 1, 3)) {
          scale.run(input, result);
        } catch (IllegalStateException closed) {
          rejectedByTheClose(closed);
          return;
        }
        assertArrayEquals(new float[] {2 * x[0], 2 * x[1], 2 * x[2]},
            result.get("scaled").toFloatArray());
        assertEquals(x[0] + x[1] + x[2], result.get("total").toFloatArray()[0]);
        progress(id, completed, warmedUp);
      }
    }
  }

  /** The map API, a new result each time, until the model's close rejects it. */
  private static void mapApiRuns(SavedModel model, int id, AtomicIntegerArray completed,
      CountDownLatch warmedUp) {
    for (int i = 0; ; i++) {
      try (Tensor a = Tensor.of(new float[] {id, i}, 2);
          Tensor b = Tensor.of(new float[] {0.5f, -i}, 2);
          RunResult result = model.run("add", Map.of("a", a, "b", b))) {
        assertArrayEquals(new float[] {id + 0.5f, 0}, result.get("sum").toFloatArray());
      } catch (IllegalStateException closed) {
        rejectedByTheClose(closed);
        return;
      }
      progress(id, completed, warmedUp);
    }
  }

  /** Eager ops in a sub-manager opened and closed every iteration (no model involved). */
  private static void eagerScopes(int id, AtomicIntegerArray completed, CountDownLatch warmedUp) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EAGER_MILLIS);
    try (NDManager root = NDManager.newBaseManager()) {
      for (int i = 0; System.nanoTime() < end || completed.get(id) == 0; i++) {
        try (NDManager scope = root.newSubManager()) {
          NDArray x = scope.create(new float[] {id, i, 1}, 3);
          float[] y = x.mul(x).add(1f).toFloatArray();
          assertArrayEquals(new float[] {id * id + 1, (float) i * i + 1, 2}, y);
        }
        progress(id, completed, warmedUp);
      }
    }
  }

  /** Predictor outputs fed to eager ops, until the model's close rejects the runs. */
  private static void eagerOnPredictorOutputs(Predictor scale, int id,
      AtomicIntegerArray completed, CountDownLatch warmedUp) {
    try (NDManager manager = NDManager.newBaseManager()) {
      for (int i = 0; ; i++) {
        float[] x = row(id, i);
        try (Tensor input = Tensor.of(x, 1, 3); RunResult result = scale.run(input);
            NDManager scope = manager.newSubManager()) {
          float total = scope.from(result.get("scaled")).sum().toFloatArray()[0];
          assertEquals(2 * (x[0] + x[1] + x[2]), total, 1e-5f);
        } catch (IllegalStateException closed) {
          rejectedByTheClose(closed);
          return;
        }
        progress(id, completed, warmedUp);
      }
    }
  }

  private static void progress(int id, AtomicIntegerArray completed, CountDownLatch warmedUp) {
    if (completed.incrementAndGet(id) == 20) {
      warmedUp.countDown();
    }
  }
}
