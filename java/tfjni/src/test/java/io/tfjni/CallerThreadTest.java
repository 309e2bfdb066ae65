package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link SessionOptions#runOnCallerThread()} reaches TensorFlow: which thread runs an op, seen
 * without timing. The {@code thread_probe} model's {@code read_file} signature opens the file it is
 * given; fed {@code /proc/thread-self/stat}, whose first field the kernel fills with the id of the
 * thread that opens it, it returns the id of the thread that ran the op. The Java thread that called
 * the run reads the same file itself for its own id.
 */
@ExtendWith(TestModels.NoLeaks.class)
class CallerThreadTest {
  private static final String THREAD_STAT = "/proc/thread-self/stat";

  /** The thread id at the start of a /proc/PID/task/TID/stat line. */
  private static long threadIdIn(String stat) {
    return Long.parseLong(stat.substring(0, stat.indexOf(' ')));
  }

  /** This thread's id, as the kernel gives it to this thread. */
  private static long myThreadId() {
    try {
      return threadIdIn(Files.readString(Path.of(THREAD_STAT), StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private record Observed(long caller, long ranOp) {}

  /**
   * Calls {@code run} (which runs the probe and returns its stat line) on a fresh thread, so that
   * the calling thread is neither the test's nor the one that loaded the model.
   */
  private static Observed onNewThread(Function<Tensor, String> run) throws InterruptedException {
    AtomicReference<Observed> seen = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try (Tensor path = Tensor.ofStrings(new String[] {THREAD_STAT})) {
        long me = myThreadId();
        seen.set(new Observed(me, threadIdIn(run.apply(path))));
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "caller-thread-test");
    caller.start();
    caller.join();
    if (failure.get() != null) {
      throw new AssertionError("the probe failed", failure.get());
    }
    return seen.get();
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

  private static Observed probeEager(EagerContext context) {
    try (NDManager manager = NDManager.newBaseManager(context)) {
      NDArray path = manager.create(new String[] {THREAD_STAT});
      long me = myThreadId();
      NDArray stat = manager.opBuilder("ReadFile").addInput(path.reshape()).build();
      return new Observed(me, threadIdIn(stat.toStringArray()[0]));
    }
  }

  /** What every NDManager gets by default: ops on the calling thread. */
  @Test
  void sharedEagerContextRunsOpsOnTheCallingThread() throws InterruptedException {
    AtomicReference<Observed> seen = new AtomicReference<>();
    Thread caller = new Thread(() -> seen.set(probeEager(EagerContext.shared())));
    caller.start();
    caller.join();
    assertEquals(seen.get().caller(), seen.get().ranOp());
  }

  @Test
  void synchronousContextWithCallerThreadRunsOpsOnTheCallingThread() {
    try (EagerContext context = EagerContext.create(
        SessionOptions.defaults().intraOpThreads(2).runOnCallerThread(), false,
        EagerContext.DevicePlacement.SILENT)) {
      Observed seen = probeEager(context);
      assertEquals(seen.caller(), seen.ranOp());
    }
  }

  /** The control: an async context runs ops on its executor's thread. */
  @Test
  void asyncContextRunsOpsOnItsExecutorThread() {
    try (EagerContext context = EagerContext.create(SessionOptions.defaults(), true,
        EagerContext.DevicePlacement.SILENT)) {
      Observed seen = probeEager(context);
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
