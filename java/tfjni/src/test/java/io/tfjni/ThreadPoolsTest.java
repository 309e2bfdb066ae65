package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.ThreadProbe.Observed;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ThreadPools}: a model's thread counts take a form TensorFlow honours whatever loaded
 * before, or are refused. The intra-op answers depend on what the process started first, so they
 * are asked in fresh JVMs ({@link ThreadPoolsProbe}).
 */
@ExtendWith(TestModels.NoLeaks.class)
class ThreadPoolsTest {
  private static final String SIZED = "TensorFlow sizes its intra-op pool once per process";

  private static List<String> probe(String first) throws Exception {
    ChildJvm.Outcome outcome = ChildJvm.run(List.of(), ThreadPoolsProbe.class,
        List.of(first, TestModels.dir().toString()), List.of(), Map.of());
    assertEquals(0, outcome.exitCode(), outcome.output());
    return outcome.output().lines().filter(line -> line.contains("intra ")).toList();
  }

  @Test
  void theFirstSessionsIntraOpCountIsTheOnlyOneAccepted() throws Exception {
    List<String> answers = probe("session");
    assertEquals(List.of("before, intra 3: accepted", "after, intra 3: accepted"),
        answers.subList(0, 2));
    assertTrue(answers.get(2).startsWith("after, intra 5: refused: intra-op threads 5 cannot take"
        + " effect: " + SIZED) && answers.get(2).contains("sized it to 3 threads"), answers.get(2));
    assertEquals("after, intra 0: accepted", answers.get(3));
    assertTrue(answers.get(4).startsWith("after another, intra 7: refused")
        && answers.get(4).contains("sized it to 3 threads"), answers.get(4));
  }

  @Test
  void anEagerContextSizesTheIntraOpPoolToo() throws Exception {
    List<String> answers = probe("eager");
    assertEquals("after, intra 3: refused", answers.get(1).substring(0, 23), answers.get(1));
    assertTrue(answers.get(1).contains("sized it to TensorFlow's default"), answers.get(1));
    assertEquals("after, intra 0: accepted", answers.get(3));
  }

  @Test
  void negativeCountsOtherThanCallerThreadAreRefused() {
    IllegalArgumentException inter = assertThrows(IllegalArgumentException.class,
        () -> ThreadPools.interOpThreads(SessionOptions.defaults(), -2));
    assertTrue(inter.getMessage().contains("got -2") && inter.getMessage().contains("own"),
        inter.getMessage());
    IllegalArgumentException intra = assertThrows(IllegalArgumentException.class,
        () -> ThreadPools.intraOpThreads(SessionOptions.defaults(), -1));
    assertTrue(intra.getMessage().contains("got -1"), intra.getMessage());
  }

  private static Observed probeThread(SessionOptions options) throws InterruptedException {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("thread_probe"), options,
            SavedModel.DEFAULT_TAG);
        Predictor predictor = model.predictor("read_file");
        RunResult result = predictor.newResult()) {
      return ThreadProbe.onNewThread(() -> {
        try (Tensor path = Tensor.ofStrings(new String[] {ThreadProbe.THREAD_STAT})) {
          predictor.run(path, result);
          return result.get("contents").toStringArray()[0];
        }
      });
    }
  }

  /**
   * Inter-op -1 runs on the caller; a count of its own is a pool of the session's own, which
   * TensorFlow honours after other sessions (the shared pool's count it would ignore): it loads
   * (the calling thread with per-session pools would not) and runs the op on a pool thread.
   */
  @Test
  void interOpCountsTakeAFormTensorFlowHonoursAfterOtherSessions() throws Exception {
    SavedModel.load(TestModels.modelPath("multi")).close();
    Observed onCaller = probeThread(ThreadPools.interOpThreads(SessionOptions.defaults(), -1));
    assertEquals(onCaller.caller(), onCaller.ranOp());
    SessionOptions ownPool = ThreadPools.interOpThreads(SessionOptions.defaults(), 2);
    Observed pooled = probeThread(ownPool);
    assertNotEquals(pooled.caller(), pooled.ranOp());
    assertThrows(TensorFlowException.class, () -> probeThread(ownPool.runOnCallerThread()),
        "the options do ask for the session's own pools");
  }
}
