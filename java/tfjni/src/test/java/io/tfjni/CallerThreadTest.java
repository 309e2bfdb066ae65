package io.tfjni;

import static io.tfjni.ThreadProbe.THREAD_STAT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.ThreadProbe.Observed;
import io.tfjni.eager.EagerContext;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link SessionOptions#runOnCallerThread()} reaches TensorFlow: which thread runs an op, seen
 * without timing through the {@code thread_probe} model and an eager {@code ReadFile}
 * ({@link ThreadProbe}).
 */
@ExtendWith(TestModels.NoLeaks.class)
class CallerThreadTest {
  /** Runs {@code run} on a fresh thread with the probe's path as its input tensor. */
  private static Observed onNewThread(Function<Tensor, String> run) throws InterruptedException {
    return ThreadProbe.onNewThread(() -> {
      try (Tensor path = Tensor.ofStrings(new String[] {THREAD_STAT})) {
        return run.apply(path);
      }
    });
  }

  private static Observed probeFastPath(SessionOptions options) throws InterruptedException {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("thread_probe"), options,
            SavedModel.DEFAULT_TAG);
        Predictor predictor = model.predictor("read_file");
        RunResult result = predictor.newResult()) {
      return onNewThread(path -> {
        predictor.run(path, result);
        return result.get("contents").toStringArray()[0];
      });
    }
  }

  private static Observed probeMapApi(SessionOptions options) throws InterruptedException {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("thread_probe"), options,
        SavedModel.DEFAULT_TAG)) {
      return onNewThread(path -> {
        try (RunResult result = model.run("read_file", Map.of("path", path))) {
          return result.get("contents").toStringArray()[0];
        }
      });
    }
  }

  @Test
  void runOnCallerThreadRunsEveryOpOnTheCallingThread() throws InterruptedException {
    Observed fast = probeFastPath(SessionOptions.defaults().intraOpThreads(2).runOnCallerThread());
    assertEquals(fast.caller(), fast.ranOp(), "fast path");
    Observed map = probeMapApi(SessionOptions.defaults().runOnCallerThread());
    assertEquals(map.caller(), map.ranOp(), "map API");
  }

  @Test
  void interOpThreadsMinusOneIsTheSame() throws InterruptedException {
    assertEquals(-1, SessionOptions.CALLER_THREAD);
    Observed seen = probeFastPath(SessionOptions.defaults().intraOpThreads(2).interOpThreads(-1));
    assertEquals(seen.caller(), seen.ranOp());
  }

  /** The control: with an inter-op pool the op runs on a pool thread, so the probe can tell. */
  @Test
  void pooledSessionRunsOpsOnAnotherThread() throws InterruptedException {
    Observed seen = probeFastPath(SessionOptions.defaults().intraOpThreads(2).interOpThreads(2));
    assertNotEquals(seen.caller(), seen.ranOp());
    // A later setter wins: -1 then 2 is a pooled session.
    Observed overridden = probeFastPath(
        SessionOptions.defaults().runOnCallerThread().interOpThreads(2));
    assertNotEquals(overridden.caller(), overridden.ranOp());
  }

  @Test
  void otherNegativeInterOpCountsAreRejected() {
    for (int bad : new int[] {-2, -100, Integer.MIN_VALUE}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> SessionOptions.defaults().interOpThreads(bad));
      assertTrue(e.getMessage().contains(String.valueOf(bad))
          && e.getMessage().contains("-1") && e.getMessage().contains("calling thread"),
          e.getMessage());
    }
  }

  /** TensorFlow would silently run the ops on the session's own pools: refused at load. */
  @Test
  void callerThreadWithTheSessionsOwnPoolsFailsToLoad() {
    for (SessionOptions options : new SessionOptions[] {
        SessionOptions.defaults().runOnCallerThread().usePerSessionThreads(true),
        SessionOptions.defaults().runOnCallerThread().addSessionInterOpThreadPool(2, null)}) {
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> SavedModel.load(TestModels.modelPath("thread_probe"), options,
              SavedModel.DEFAULT_TAG).close());
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
      assertTrue(e.getMessage().contains("calling thread"), e.getMessage());
    }
  }

  // ------------------------------------------------------------------ eager

  /** The stat line an eager ReadFile read, run here on {@code context}. */
  private static String readStatEagerly(EagerContext context) {
    try (NDManager manager = NDManager.newBaseManager(context)) {
      NDArray path = manager.create(new String[] {THREAD_STAT});
      return manager.opBuilder("ReadFile").addInput(path.reshape()).build().toStringArray()[0];
    }
  }

  /** What every NDManager gets by default: ops on the calling thread. */
  @Test
  void sharedEagerContextRunsOpsOnTheCallingThread() throws InterruptedException {
    Observed seen = ThreadProbe.onNewThread(() -> readStatEagerly(EagerContext.shared()));
    assertEquals(seen.caller(), seen.ranOp());
  }

  @Test
  void synchronousContextWithCallerThreadRunsOpsOnTheCallingThread() throws Exception {
    try (EagerContext context = EagerContext.create(
        SessionOptions.defaults().intraOpThreads(2).runOnCallerThread(), false,
        EagerContext.DevicePlacement.SILENT)) {
      Observed seen = ThreadProbe.observe(() -> readStatEagerly(context));
      assertEquals(seen.caller(), seen.ranOp());
    }
  }

  /** The control: an async context runs ops on its executor's thread. */
  @Test
  void asyncContextRunsOpsOnItsExecutorThread() throws Exception {
    try (EagerContext context = EagerContext.create(SessionOptions.defaults(), true,
        EagerContext.DevicePlacement.SILENT)) {
      Observed seen = ThreadProbe.observe(() -> readStatEagerly(context));
      assertNotEquals(seen.caller(), seen.ranOp());
    }
  }

  @Test
  void asyncContextRejectsCallerThread() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EagerContext.create(SessionOptions.defaults().runOnCallerThread(), true,
            EagerContext.DevicePlacement.SILENT).close());
    assertTrue(e.getMessage().contains("synchronous"), e.getMessage());
  }
}
