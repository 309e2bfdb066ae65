package io.tfjni.serving;

import static io.tfjni.serving.Exports.A;
import static io.tfjni.serving.Exports.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.LiveObjects;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import io.tfjni.batching.BatchedResult;
import io.tfjni.internal.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Callers run without pause while versions are swapped under them, and while the model closes.
 * Odd versions are export A, even ones B, so each answer says which version gave it, and it must
 * be exactly that version's answer for the caller's row. Half the callers go through a batching
 * predictor, whose answers do not name their version: each must be exactly A's or B's answer
 * for the caller's row (rows differ between callers, so a row mixed up in a batch shows). The
 * 16-caller, wall-clock version of this runs outside CI (scripts/test/swap-soak.sh).
 */
@ExtendWith(TestModels.NoLeaks.class)
class SwapLoadTest {
  private static final int CALLERS = 8;
  private static final int SWAPS = 24;
  private static final int MIN_CALLS_PER_CALLER = 200;

  @TempDir
  Path temp;

  private static String exportOf(long version) {
    return version % 2 == 1 ? A : B;
  }

  @Test
  void everyAnswerIsItsVersionsAnswerWhileVersionsAlternate() throws Exception {
    LiveObjects baseline = TensorFlow.liveObjects();
    Path base = Files.createDirectory(temp.resolve("model"));
    Exports.publish(base, 1, A);
    AtomicLong swaps = new AtomicLong();
    ServingListener countSwaps = new ServingListener() {
      @Override
      public void onSwap(long previousVersion, long newVersion, Duration unavailable) {
        swaps.incrementAndGet();
      }
    };
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicLong calls = new AtomicLong();
    AtomicLong callsOnLaterVersions = new AtomicLong();
    try (VersionedModel model = VersionedModel.builder(base).pollInterval(Duration.ZERO)
        .listener(countSwaps).build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      ServingBatchingPredictor batching = model.batchingPredictor(SavedModel.DEFAULT_SIGNATURE,
          List.of("x"), List.of("y"), options -> options.maxBatchSize(CALLERS));
      AtomicLong batchedCalls = new AtomicLong();
      AtomicBoolean swapperDone = new AtomicBoolean();
      CountDownLatch callersStarted = new CountDownLatch(CALLERS);
      List<Thread> threads = new ArrayList<>();
      for (int c = 0; c < CALLERS; c++) {
        int row = c % Exports.rowCount();
        boolean batched = c % 2 == 1;
        threads.add(new Thread(() -> {
          callersStarted.countDown();
          try (Tensor x = Exports.row(row)) {
            for (int n = 0; !swapperDone.get() || n < MIN_CALLS_PER_CALLER; n++) {
              if (batched) {
                try (BatchedResult answer = batching.predict(x)) {
                  Exports.assertAnswerOfEither(A, B, row, answer.get(0).toFloatArray());
                }
                batchedCalls.incrementAndGet();
              } else {
                try (ServingPredictor.VersionedResult answer = predictor.runVersioned(x)) {
                  Exports.assertAnswer(exportOf(answer.version()), row,
                      answer.result().get(0).toFloatArray());
                  if (answer.version() > 1) {
                    callsOnLaterVersions.incrementAndGet();
                  }
                }
              }
              calls.incrementAndGet();
            }
          } catch (Throwable t) {
            failures.add(t);
          }
        }, "caller-" + c));
      }
      Thread swapper = new Thread(() -> {
        try {
          callersStarted.await();
          for (long version = 2; version <= SWAPS + 1; version++) {
            Exports.publish(base, version, exportOf(version));
            model.refresh();
            assertEquals(version, model.refresh().servingVersion());
            FileTrees.deleteUnchecked(base.resolve(Long.toString(version - 1)));
          }
        } catch (Throwable t) {
          failures.add(t);
        } finally {
          swapperDone.set(true);
        }
      }, "swapper");
      threads.add(swapper);
      threads.forEach(Thread::start);
      for (Thread thread : threads) {
        thread.join();
      }
      assertEquals(List.of(), List.copyOf(failures), "no call may fail");
      assertEquals(SWAPS + 1, swaps.get(), "the first version and every swap");
      assertEquals(SWAPS + 1, model.servingVersion());
      assertTrue(calls.get() >= (long) CALLERS * MIN_CALLS_PER_CALLER, calls + " calls");
      assertTrue(callsOnLaterVersions.get() > 0, "calls reached swapped-in versions");
      assertTrue(batchedCalls.get() >= (long) CALLERS / 2 * MIN_CALLS_PER_CALLER,
          batchedCalls + " batched calls");
    }
    assertEquals(baseline, TensorFlow.liveObjects(), "every version closed");
  }

  @Test
  void closeUnderLoadLetsCallsInFlightFinishAndRefusesTheRest() throws Exception {
    Path base = Files.createDirectory(temp.resolve("model"));
    Exports.publish(base, 1, A);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicLong refusedAfterClose = new AtomicLong();
    VersionedModel model = VersionedModel.builder(base).pollInterval(Duration.ZERO).build();
    ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
    CountDownLatch running = new CountDownLatch(CALLERS);
    AtomicBoolean closed = new AtomicBoolean();
    List<Thread> callers = new ArrayList<>();
    for (int c = 0; c < CALLERS; c++) {
      int row = c % Exports.rowCount();
      callers.add(new Thread(() -> {
        try (Tensor x = Exports.row(row)) {
          for (int n = 0; ; n++) {
            boolean closedBefore = closed.get();
            try (var result = predictor.run(x)) {
              if (closedBefore) {
                throw new AssertionError("a call started after close() returned ran");
              }
              Exports.assertAnswer(A, row, result.get(0).toFloatArray());
            } catch (IllegalStateException e) {
              TestModels.assertMentions(e, "VersionedModel 'model' is closed");
              refusedAfterClose.incrementAndGet();
              return;
            }
            if (n == MIN_CALLS_PER_CALLER) {
              running.countDown();
            }
          }
        } catch (Throwable t) {
          failures.add(t);
          running.countDown();
        }
      }, "caller-" + c));
    }
    callers.forEach(Thread::start);
    running.await();
    model.close();
    closed.set(true);
    for (Thread caller : callers) {
      caller.join();
    }
    assertEquals(List.of(), List.copyOf(failures));
    assertEquals(CALLERS, refusedAfterClose.get(), "each caller ends on the closed model");
  }

  @Test
  void deletingVersionDirectoriesDoesNotDisturbCalls() throws IOException {
    Path base = Files.createDirectory(temp.resolve("model"));
    Exports.publish(base, 1, A);
    try (VersionedModel model = VersionedModel.builder(base).pollInterval(Duration.ZERO).build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      FileTrees.deleteUnchecked(base.resolve("1"));
      Exports.assertServes(predictor, A);
    }
  }
}
