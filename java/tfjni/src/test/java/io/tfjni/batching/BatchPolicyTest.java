package io.tfjni.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.batching.BatchPolicy.Decision;
import io.tfjni.batching.BatchPolicy.Mode;
import io.tfjni.batching.BatchPolicy.Settings;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The batching decision, step by step on a clock the test moves: no threads, no model. Expected
 * decisions follow from the options and the arithmetic of the rows and times the test reports.
 */
class BatchPolicyTest {
  private static final long MS = 1_000_000;
  private static final int MAX_BATCH = 8;
  private static final int UNBATCHED_CONCURRENCY = 4;
  /**
   * Windows of 1 ms and 2 runs or more; twice the windows after a lost probe, at most 4; every
   * window measured; the batched mode first (the rules of each mode are tested from their
   * start).
   */
  private static final long WINDOW = MS;
  private static final int MIN_RUNS = 2;
  private static final int MAX_WINDOWS_BETWEEN_PROBES = 4;

  /** A clock that moves only when the test moves it. */
  private static final class FakeClock implements LongSupplier {
    long now = 1_000 * MS;

    @Override
    public long getAsLong() {
      return now;
    }
  }

  private final FakeClock clock = new FakeClock();

  private BatchPolicy policy(long maxDelayNanos, int[] allowed, int maxConcurrentBatches) {
    return new BatchPolicy(new Settings(MAX_BATCH, maxDelayNanos, allowed, maxConcurrentBatches,
        UNBATCHED_CONCURRENCY, WINDOW, MIN_RUNS, MAX_WINDOWS_BETWEEN_PROBES, 2, 0, Mode.BATCHED),
        clock);
  }

  private BatchPolicy noDelay() {
    return policy(0, new int[0], 1);
  }

  /** One run of {@code rows} rows (one per caller) that takes {@code nanos} on the clock. */
  private void run(BatchPolicy policy, int rows, long nanos) {
    long started = policy.runStarted();
    clock.now += nanos;
    policy.runFinished(started, rows, rows, nanos);
  }

  /**
   * One window: {@link #MIN_RUNS} runs of {@code rowsPerRun} rows over {@code nanos}, of callers
   * that overlap (so that batching may be probed from the unbatched mode).
   */
  private void window(BatchPolicy policy, int rowsPerRun, long nanos) {
    policy.callersOverlapped();
    for (int i = 0; i < MIN_RUNS; i++) {
      run(policy, rowsPerRun, nanos / MIN_RUNS);
    }
  }

  @Test
  void anIdleModelNeverWaitsAndRowsQueuedDuringARunRunTogetherWhenItEnds() {
    BatchPolicy policy = noDelay();
    assertEquals(Decision.RUN_ALONE, policy.forCaller(1, false));
    assertEquals(Decision.run(1), policy.forQueue(clock.now, 1));
    long started = policy.runStarted();  // the lone caller's run
    long queuedAt = clock.now;
    assertEquals(Decision.QUEUE, policy.forCaller(1, false));
    assertEquals(Decision.WAIT_FOR_RUN, policy.forQueue(queuedAt, 1));
    clock.now += MS / 10;
    assertEquals(Decision.WAIT_FOR_RUN, policy.forQueue(queuedAt, 5));
    policy.runFinished(started, 1, 1, 0);
    assertEquals(Decision.run(5), policy.forQueue(queuedAt, 5));
    // More than a batch holds: the largest batch runs, the rest after it.
    assertEquals(Decision.run(MAX_BATCH), policy.forQueue(queuedAt, MAX_BATCH + 3));
  }

  @Test
  void afterALongBatchASmallerDueBatchWaitsAQuarterOfItForTheLastCallersRows() {
    BatchPolicy policy = noDelay();
    long batch = policy.runStarted();
    clock.now += MS;
    policy.runFinished(batch, 8, 8, MS);  // 8 callers' rows ran for 1 ms; they queue their next
    long firstBack = clock.now;
    assertEquals(Decision.waitUntil(firstBack + MS / 4), policy.forQueue(firstBack, 3));
    clock.now += MS / 8;
    assertEquals(Decision.waitUntil(firstBack + MS / 4), policy.forQueue(firstBack, 7));
    assertEquals(Decision.run(8), policy.forQueue(firstBack, 8));  // all back: at once
    clock.now += MS / 8;  // the quarter of the run is up: whoever is back runs
    assertEquals(Decision.run(5), policy.forQueue(firstBack, 5));
  }

  @Test
  void shortRunsLoneRunsAndTheUnbatchedModeGatherNothing() {
    BatchPolicy policy = noDelay();
    long batch = policy.runStarted();
    long shortRun = BatchPolicy.MIN_GATHERING_RUN_NANOS - 1;
    clock.now += shortRun;
    policy.runFinished(batch, 8, 8, shortRun);  // too short to be worth a wait
    assertEquals(Decision.run(3), policy.forQueue(clock.now, 3));
    long lone = policy.runStarted();
    clock.now += MS;
    policy.runFinished(lone, 1, 1, 0);  // a caller's own rows: nobody else to wait for
    assertEquals(Decision.run(1), policy.forQueue(clock.now, 1));

    // Unbatched, rows queue only while callers may not run alone: a long batch gathers nothing.
    BatchPolicy unbatched = noDelay();
    window(unbatched, 1, 2 * WINDOW);
    assertEquals(Mode.UNBATCHED, unbatched.mode());
    batch = unbatched.runStarted();
    clock.now += MS;
    unbatched.runFinished(batch, 8, 8, MS);
    assertEquals(Decision.run(3), unbatched.forQueue(clock.now, 3));
  }

  @Test
  void aDelayIsTheLongestARowWaitsEvenAfterALongBatch() {
    BatchPolicy policy = policy(MS / 10, new int[0], 1);
    long batch = policy.runStarted();
    clock.now += MS;
    policy.runFinished(batch, 8, 8, MS);
    long queuedAt = clock.now;
    assertEquals(Decision.waitUntil(queuedAt + MS / 10), policy.forQueue(queuedAt, 3));
    clock.now += MS / 10;
    assertEquals(Decision.run(3), policy.forQueue(queuedAt, 3));
  }

  @Test
  void batchesRunUpToTheConcurrencyLimit() {
    BatchPolicy policy = policy(0, new int[0], 2);
    policy.runStarted();
    assertEquals(Decision.run(3), policy.forQueue(clock.now, 3));
    policy.runStarted();
    assertEquals(Decision.WAIT_FOR_RUN, policy.forQueue(clock.now, 3));
  }

  @Test
  void aDelayWaitsForBatchMatesUntilItIsUpOrTheBatchIsFull() {
    long delay = 5 * MS;
    BatchPolicy policy = policy(delay, new int[0], 1);
    long queuedAt = clock.now;
    assertEquals(Decision.QUEUE, policy.forCaller(1, false));
    assertEquals(Decision.waitUntil(queuedAt + delay), policy.forQueue(queuedAt, 3));
    clock.now = queuedAt + delay - 1;
    assertEquals(Decision.waitUntil(queuedAt + delay), policy.forQueue(queuedAt, 3));
    clock.now = queuedAt + delay;
    assertEquals(Decision.run(3), policy.forQueue(queuedAt, 3));
    clock.now = queuedAt;
    assertEquals(Decision.run(MAX_BATCH), policy.forQueue(queuedAt, MAX_BATCH));
  }

  @Test
  void aCallerRunsAloneOnlyWithAnAllowedSizeAndNothingElseWaiting() {
    BatchPolicy policy = policy(0, new int[] {2, 4, MAX_BATCH}, 1);
    assertEquals(Decision.QUEUE, policy.forCaller(1, false));
    assertEquals(Decision.RUN_ALONE, policy.forCaller(2, false));
    assertEquals(Decision.QUEUE, policy.forCaller(3, false));
    assertEquals(Decision.RUN_ALONE, policy.forCaller(4, false));
    assertEquals(Decision.QUEUE, policy.forCaller(2, true));
  }

  @Test
  void whileRecentRunsServeSeveralCallersACallerFindingTheModelIdleQueues() {
    BatchPolicy policy = noDelay();
    // Each run weighs 1/8 in the mean of callers per run, which starts at 1: after k runs of 4
    // callers it is 4 - 3 (7/8)^k, 1.375 after one run and 1.703 after two.
    double mean = 1;
    for (int k = 1; k <= 6; k++) {
      run(policy, 4, 0);
      mean = 4 - 3 * Math.pow(7.0 / 8, k);
      Decision expected = mean < 1.5 ? Decision.RUN_ALONE : Decision.QUEUE;
      assertEquals(expected, policy.forCaller(1, false), "after " + k + " runs of 4 callers");
    }
    // Runs of one caller bring the mean back down: m -> m - (m - 1) / 8 until it is below 1.5.
    int lone = 0;
    while (mean >= 1.5) {
      assertEquals(Decision.QUEUE, policy.forCaller(1, false));
      run(policy, 1, 0);
      mean -= (mean - 1) / 8;
      lone++;
    }
    assertEquals(Decision.RUN_ALONE, policy.forCaller(1, false), "after " + lone + " lone runs");
  }

  @Test
  void unbatchedCallersGoThroughTheLaneAndQueuedRowsRunUpToItsCapacity() {
    BatchPolicy policy = noDelay();
    assertFalse(policy.laneOpen());
    window(policy, 2, WINDOW);  // the first window ends: the policy probes the unbatched mode
    assertEquals(Mode.UNBATCHED, policy.mode());
    assertTrue(policy.laneOpen());
    assertEquals(UNBATCHED_CONCURRENCY, policy.laneCapacity());
    // The lane admits callers; one it refused (full, or rows queued) queues.
    assertEquals(Decision.QUEUE, policy.forCaller(1, false));
    long[] started = new long[UNBATCHED_CONCURRENCY];
    for (int batch = 0; batch < UNBATCHED_CONCURRENCY; batch++) {
      assertEquals(Decision.run(1), policy.forQueue(clock.now, 1), "batch " + batch);
      started[batch] = policy.runStarted();
    }
    assertEquals(Decision.WAIT_FOR_RUN, policy.forQueue(clock.now, 1));
    policy.runFinished(started[0], 1, 1, 0);
    assertEquals(Decision.run(1), policy.forQueue(clock.now, 1));
  }

  @Test
  void theLanesRunsCountInTheWindowInBulk() {
    BatchPolicy policy = noDelay();
    window(policy, 1, 2 * WINDOW);  // batched: 2 rows in 2 ms, 1,000 rows/s; unbatched is tried
    assertEquals(Mode.UNBATCHED, policy.mode());
    clock.now += WINDOW / 2;
    policy.laneRunsFinished(MIN_RUNS, 3);  // enough runs, not enough time: the window goes on
    assertEquals(Mode.UNBATCHED, policy.mode());
    clock.now += WINDOW / 2;
    policy.laneRunsFinished(1, 1);  // 4 rows in 1 ms, 4,000 rows/s: the unbatched mode is kept
    assertEquals(Mode.UNBATCHED, policy.mode());
    clock.now += WINDOW;
    policy.laneRunsFinished(0, 0);  // nothing to count: no window ends
    assertEquals(Mode.UNBATCHED, policy.mode());
    policy.callersOverlapped();
    policy.laneRunsFinished(MIN_RUNS, MIN_RUNS);  // the kept mode's window: batching is tried
    assertEquals(Mode.BATCHED, policy.mode());
    // Batching is tried as after unbatched runs told one by one: from a mean of 3 callers per
    // run, callers queue.
    assertEquals(Decision.QUEUE, policy.forCaller(1, false));
  }

  @Test
  void runsOfTheModeBeforeAChangeDoNotHoldBackTheNext() {
    BatchPolicy policy = noDelay();
    window(policy, 1, 2 * WINDOW);  // batched: 2 rows in 2 ms; the unbatched mode is probed
    clock.now += WINDOW;
    policy.laneRunsFinished(MIN_RUNS, MIN_RUNS);  // 2 rows in 1 ms: the unbatched mode is kept
    clock.now += WINDOW;
    policy.callersOverlapped();
    policy.laneRunsFinished(MIN_RUNS, MIN_RUNS);  // the kept mode's window: batching is probed
    assertEquals(Mode.BATCHED, policy.mode());
    policy.laneClosedWith(2);  // two of the lane's runs were still in flight
    assertEquals(2, policy.running());
    // They run as the unbatched mode's; the batched mode has none: a batch runs at once.
    assertEquals(Decision.run(3), policy.forQueue(clock.now, 3));
    long batch = policy.runStarted();
    assertEquals(Decision.WAIT_FOR_RUN, policy.forQueue(clock.now, 3));
    policy.runFinished(BatchPolicy.EARLIER_MODE, 1, 1, 0);
    assertEquals(Decision.WAIT_FOR_RUN, policy.forQueue(clock.now, 3));
    policy.runFinished(batch, 3, 3, 0);
    assertEquals(Decision.run(3), policy.forQueue(clock.now, 3));
    policy.runFinished(BatchPolicy.EARLIER_MODE, 1, 1, 0);
    assertEquals(0, policy.running());
  }

  @Test
  void aWindowStartsWhenTheLaneRunsOfTheEarlierModeHaveEnded() {
    BatchPolicy policy = noDelay();
    window(policy, 1, 2 * WINDOW);  // batched, 1,000 rows/s; unbatched is tried
    clock.now += WINDOW;
    policy.laneRunsFinished(MIN_RUNS, MIN_RUNS);  // unbatched, 2,000 rows/s: kept
    clock.now += WINDOW;
    policy.callersOverlapped();
    policy.laneRunsFinished(MIN_RUNS, MIN_RUNS);  // the kept mode's window: batching is tried
    assertEquals(Mode.BATCHED, policy.mode());
    policy.laneClosedWith(1);
    run(policy, 10, WINDOW);  // a batch while the lane's run is still in flight: not measured
    policy.runFinished(BatchPolicy.EARLIER_MODE, 1, 1, 0);  // the window starts now
    run(policy, 1, WINDOW);
    run(policy, 1, WINDOW);  // 2 rows in 2 ms: batching lost (from the batch on: 11 in 2 ms)
    assertEquals(Mode.UNBATCHED, policy.mode());
  }

  @Test
  void aWindowStartsWhenTheLastRunOfTheEarlierModeHasEnded() {
    BatchPolicy policy = noDelay();
    long batch = policy.runStarted();  // a batch that runs on through the change of mode
    window(policy, 1, 2 * WINDOW);  // batched: 2 rows in 2 ms, 1,000 rows/s; unbatched is tried
    assertEquals(Mode.UNBATCHED, policy.mode());
    run(policy, 1, WINDOW / 2);  // an unbatched run while the batch still runs: not measured
    policy.runFinished(batch, 100, 100, 0);  // nor is the batch: the window starts now
    run(policy, 1, WINDOW);
    run(policy, 1, WINDOW);  // 2 rows in 2 ms: a tie (counting from the change: 3 in 2.5 ms)
    assertEquals(Mode.BATCHED, policy.mode());
  }

  /**
   * A lone caller's rows have no batch-mates: while unbatched, batching is probed only once two
   * callers' rows were in flight at once, through the lane or in a batch of rows that queued.
   */
  @Test
  void batchingIsNotProbedUntilCallersOverlap() {
    for (boolean throughTheLane : new boolean[] {true, false}) {
      BatchPolicy policy = new BatchPolicy(new Settings(MAX_BATCH, 0, new int[0], 1,
          UNBATCHED_CONCURRENCY, WINDOW, MIN_RUNS, MAX_WINDOWS_BETWEEN_PROBES, 2, 0,
          Mode.UNBATCHED), clock);
      for (int w = 0; w < 3 * MAX_WINDOWS_BETWEEN_PROBES; w++) {
        clock.now += WINDOW;
        policy.laneRunsFinished(MIN_RUNS, MIN_RUNS);  // one caller's runs, one after another
        assertEquals(Mode.UNBATCHED, policy.mode(), "window " + w);
      }
      if (throughTheLane) {
        policy.callersOverlapped();
      } else {
        run(policy, 2, 0);  // two callers' rows that queued ran as one batch
      }
      clock.now += WINDOW;
      policy.laneRunsFinished(MIN_RUNS, MIN_RUNS);
      assertEquals(Mode.BATCHED, policy.mode(), "through the lane: " + throughTheLane);
    }
  }

  @Test
  void aTryOfBatchingStartsWithCallersQueueing() {
    BatchPolicy policy = noDelay();
    window(policy, 1, 2 * WINDOW);  // batched, 1,000 rows/s
    window(policy, 1, WINDOW);  // unbatched, 2,000 rows/s: kept
    window(policy, 1, WINDOW);  // then batching is tried again
    assertEquals(Mode.BATCHED, policy.mode());
    // Every run so far served 1 caller; the batched mode starts from a mean of 3 callers per run,
    // and each lone run weighs 1/8: after k of them the mean is 1 + 2 (7/8)^k.
    int k = 0;
    while (1 + 2 * Math.pow(7.0 / 8, k) >= 1.5) {
      assertEquals(Decision.QUEUE, policy.forCaller(1, false), "after " + k + " runs");
      run(policy, 1, 0);
      k++;
    }
    assertEquals(11, k);
    assertEquals(Decision.RUN_ALONE, policy.forCaller(1, false));
  }

  @Test
  void theFasterModeIsKeptAndTheSlowerProbedLessAndLessOften() {
    BatchPolicy policy = noDelay();
    // Rows per window (of 1 ms): 2 runs of 1 row batched, 2 runs of 3 rows unbatched. The first
    // window is batched and a probe follows it; a probe that wins is kept and the other probed
    // after 1 window; one that loses doubles the windows until the next probe, at most 4.
    String expected = "BUUBUUBUUUUBUUUUB";
    StringBuilder seen = new StringBuilder();
    for (int w = 0; w < expected.length(); w++) {
      Mode mode = policy.mode();
      seen.append(mode == Mode.BATCHED ? 'B' : 'U');
      window(policy, mode == Mode.BATCHED ? 1 : 3, WINDOW);
    }
    assertEquals(expected, seen.toString());
    // The last probe lost: 4 unbatched windows follow. Now batching runs more rows per second
    // (the load rose): the next probe of it wins, and the unbatched mode is probed after it.
    String after = "UUUUBBUBBUBBBBU";
    seen.setLength(0);
    for (int w = 0; w < after.length(); w++) {
      Mode mode = policy.mode();
      seen.append(mode == Mode.BATCHED ? 'B' : 'U');
      window(policy, mode == Mode.BATCHED ? 8 : 3, WINDOW);
    }
    assertEquals(after, seen.toString());
  }

  @Test
  void withoutADelayThePolicyStartsUnbatchedSettlesAfterChangesAndBacksOffEightfold() {
    Settings settings = Settings.of(MAX_BATCH, 0, new int[0], 1);
    BatchPolicy policy = new BatchPolicy(settings, clock);
    assertEquals(Mode.UNBATCHED, policy.mode());
    assertTrue(policy.laneOpen());
    assertEquals(MAX_BATCH, policy.laneCapacity());
    // Steps of 8 runs over a quarter of a window (8 runs and a quarter of a window: what a mode
    // settles for after a change); unbatched runs 3 rows per run, batched 1. Each probe of
    // batching settles for a step, is measured for a window (4 steps) and loses; the windows
    // between probes grow 1, 8, 64, 64, each after a step in which the unbatched mode settles.
    assertEquals(settings.windowNanos() / 4, settings.settleNanos());
    String probe = "B" + "BBBB";
    String expected = "UUUU" + probe + "U" + "UUUU".repeat(8) + probe + "U" + "UUUU".repeat(64)
        + probe + "U" + "UUUU".repeat(64) + probe;
    StringBuilder seen = new StringBuilder();
    while (seen.length() < expected.length()) {
      Mode mode = policy.mode();
      seen.append(mode == Mode.BATCHED ? 'B' : 'U');
      for (int run = 0; run < 8; run++) {
        long started = policy.runStarted();
        clock.now += settings.windowNanos() / 32;
        int rows = mode == Mode.BATCHED ? 1 : 3;
        policy.runFinished(started, rows, rows, settings.windowNanos() / 32);
      }
    }
    assertEquals(expected, seen.toString());

    BatchPolicy delayed = new BatchPolicy(Settings.of(MAX_BATCH, MS, new int[0], 1), clock);
    assertEquals(Mode.BATCHED, delayed.mode());
    assertFalse(delayed.laneOpen());
  }

  @Test
  void ratesAreRowsPerSecondAndATieKeepsTheKeptMode() {
    BatchPolicy policy = noDelay();
    window(policy, 5, WINDOW);  // batched: 10 rows in 1 ms, 10,000 rows/s
    assertEquals(Mode.UNBATCHED, policy.mode());
    window(policy, 10, 2 * WINDOW);  // 20 rows in 2 ms: 10,000 rows/s, a tie
    assertEquals(Mode.BATCHED, policy.mode(), "a tie keeps the batched mode");
    window(policy, 5, WINDOW);  // 2 windows of the kept mode before the next probe
    window(policy, 5, WINDOW);
    assertEquals(Mode.UNBATCHED, policy.mode());
    run(policy, 21, WINDOW);  // 21 rows in 2 ms: 10,500 rows/s, more than 10,000
    run(policy, 0, WINDOW);
    window(policy, 1, WINDOW);  // the unbatched mode was kept: the batched one is probed next
    assertEquals(Mode.BATCHED, policy.mode());
  }

  @Test
  void aProbeMustBeatTheKeptModeOverAllItsWindowsSinceTheLastProbe() {
    BatchPolicy policy = noDelay();
    window(policy, 1, 2 * WINDOW);  // batched: 1,000 rows/s
    window(policy, 2, 2 * WINDOW);  // unbatched: 2,000 rows/s, kept
    window(policy, 2, 2 * WINDOW);  // unbatched; then batching is tried
    window(policy, 1, 4 * WINDOW);  // batched: 500 rows/s, lost: 2 unbatched windows follow
    window(policy, 1, 2 * WINDOW);  // 1,000 rows/s
    window(policy, 3, 2 * WINDOW);  // 3,000 rows/s: 8 rows in 4 ms over both, 2,000 rows/s
    assertEquals(Mode.BATCHED, policy.mode());
    long window = 4 * MIN_RUNS * MS / 5;
    window(policy, 2, window);  // 4 rows in 1.6 ms: 2,500 rows/s, more than 2,000
    assertEquals(Mode.BATCHED, policy.mode(), "the probe won: batching is kept");
  }

  @Test
  void aWindowEndsAfterItsTimeAndItsRunsBothPassed() {
    BatchPolicy policy = noDelay();
    run(policy, 1, 2 * WINDOW);  // the time passed, one run of the two
    assertEquals(Mode.BATCHED, policy.mode());
    run(policy, 1, 0);
    assertEquals(Mode.UNBATCHED, policy.mode(), "the first window ended: a probe");
    long fifth = WINDOW / 5;
    for (int i = 0; i < 4; i++) {
      run(policy, 0, fifth);  // 4 runs, 0.8 ms: the runs passed, the time not
    }
    assertEquals(Mode.UNBATCHED, policy.mode(), "a window of 0 rows would have lost");
    run(policy, 10, fifth);  // 1 ms: the probe's window ended, 10 rows/ms against 1 row/ms
    run(policy, 1, WINDOW);
    run(policy, 1, 0);  // the next window (kept, unbatched) ended: the batched mode is probed
    assertEquals(Mode.BATCHED, policy.mode());
  }

  @Test
  void aDelayAsksForBatchMatesSoTheModeNeverChanges() {
    BatchPolicy policy = policy(MS, new int[0], 1);
    for (int w = 0; w < 8; w++) {
      window(policy, w + 1, WINDOW);
      assertEquals(Mode.BATCHED, policy.mode(), "window " + w);
      assertEquals(Decision.QUEUE, policy.forCaller(1, false));
    }
  }
}
