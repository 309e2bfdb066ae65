package io.tfjni.batching;

import java.util.function.LongSupplier;

/**
 * What a {@link BatchingPredictor} does next, decided from its state alone: whether a blocking
 * caller runs its own rows on its own thread now, whether the queued rows run now (and how many),
 * or until when they wait. It keeps the state it decides from (runs in flight, the callers recent
 * runs served, the rows per second measured in each mode) and reads the time from the clock it is
 * given, so tests drive it step by step with a clock of their own. Not thread-safe: the batching
 * predictor calls it under its lock.
 *
 * <p>Two modes. Batched: the queued rows run as one batch, at most {@code maxConcurrentBatches}
 * at once, and a blocking caller runs alone only when the model is idle and recent runs served
 * about one caller each. Unbatched: a blocking caller runs its own rows on its own thread whenever
 * fewer than {@code unbatchedConcurrency} runs are in flight and nothing is queued, admitted
 * without the lock by the predictor's {@link UnbatchedLane}, whose runs it counts in bulk. Batching
 * saves runs but costs every batched call a hand-off to another thread and back; which costs more
 * depends on the model, the callers and the machine, so the policy measures: it counts the rows
 * that finished in windows of time, keeps the mode that ran more rows per second, and probes the
 * other mode for one window from time to time, less often each time the probe loses (batching only
 * once two callers' rows were in flight at once: a lone caller has no batch-mates); a probe is
 * compared with the kept mode over all its windows since the last probe. A mode's window starts
 * when the other mode's last run has ended, so that it measures the mode rather than the change.
 * It adapts only without a delay: a delay asks for batch-mates, so rows always batch.
 *
 * <p>Batched, the model never waits for rows while idle but in one case: when a batch's run of
 * {@link #MIN_GATHERING_RUN_NANOS} or more ends, its callers are about to queue their next rows,
 * so a smaller batch waits up to {@link #GATHER_PART_OF_RUN a part of that run} for as many rows
 * as it held. A batch formed at once would hold the callers answered first and leave the others
 * to the run after it, shrinking the batches of a model whose runs are long enough to batch.
 */
final class BatchPolicy {
  /** Below this many callers per recent run, a caller finding the model idle runs alone. */
  static final double LONE_CALLERS_PER_RUN = 1.5;
  /** How much a run weighs in the mean of callers per run (1/8: about the last 8 runs). */
  static final double RECENT_RUN_WEIGHT = 1.0 / 8;
  /**
   * The mean of callers per run the batched mode starts from after the unbatched one, whose runs
   * served one caller each: callers queue, so that the batches show how many come at once (a
   * lone caller runs alone again after 11 runs). From a mean of 1, each caller that finds the
   * model idle would run alone and the others queue behind it: small batches after hand-offs
   * (measured: the batched windows lost to the unbatched ones where batching ran 1.6 times the
   * rows).
   */
  static final double CALLERS_PER_RUN_AFTER_UNBATCHED = 3;
  /**
   * After a batch's run, a smaller due batch waits for its rows at most this part of that run
   * (measured on the dense benchmark model at 16 callers: batches of about 12 calls with the
   * wait, 9 without).
   */
  static final long GATHER_PART_OF_RUN = 4;
  /** Runs shorter than this gather nothing: the wait would cost what the hand-offs it saves do. */
  static final long MIN_GATHERING_RUN_NANOS = 200_000;
  /** The token of a run started in a mode that has changed since (a lane's, closed under it). */
  static final long EARLIER_MODE = -1;

  /** How the rows of several callers run. */
  enum Mode {
    /** Queued rows run together, one batch per run. */
    BATCHED,
    /** Each blocking caller runs its own rows on its own thread. */
    UNBATCHED;

    Mode other() {
      return this == BATCHED ? UNBATCHED : BATCHED;
    }
  }

  /**
   * The options the policy applies.
   *
   * @param maxBatchSize the most rows one run takes
   * @param maxDelayNanos how long the oldest queued row may wait for batch-mates; 0 for none
   * @param allowedBatchSizes the sizes a batch is padded to (increasing; empty: any size)
   * @param maxConcurrentBatches the most runs in flight in the batched mode
   * @param unbatchedConcurrency the most runs in flight in the unbatched mode
   * @param windowNanos the shortest window over which rows per second are measured
   * @param minRunsPerWindow the fewest runs a window holds before it ends
   * @param maxWindowsBetweenProbes the most windows of the kept mode between two probes
   * @param probeBackoff what the windows between probes are multiplied by when a probe loses
   * @param settleNanos after each change of mode, how long (and {@code minRunsPerWindow} runs)
   *     the new mode settles before its window starts; 0 for no settling
   * @param firstMode the mode the policy starts in (batched if there is a delay)
   */
  record Settings(int maxBatchSize, long maxDelayNanos, int[] allowedBatchSizes,
      int maxConcurrentBatches, int unbatchedConcurrency, long windowNanos, int minRunsPerWindow,
      int maxWindowsBetweenProbes, int probeBackoff, long settleNanos, Mode firstMode) {
    /**
     * Windows of 20 ms and 8 runs or more; after a probe that lost, 8 times as many windows
     * before the next, at most 64 (a probe of a mode that runs a fifth of the rows then costs
     * the other about 1.5%). After each change the new mode settles for 5 ms and 8 runs before
     * its window starts: in the first window after a change from unbatched runs, batching ran a
     * twelfth to a half of the rows it ran once settled (the mlp at 64 callers). Without a delay
     * the policy starts unbatched: a caller is never held back before batching is measured to
     * pay.
     */
    static Settings of(int maxBatchSize, long maxDelayNanos, int[] allowedBatchSizes,
        int maxConcurrentBatches) {
      return new Settings(maxBatchSize, maxDelayNanos, allowedBatchSizes, maxConcurrentBatches,
          Math.max(maxBatchSize, maxConcurrentBatches), 20_000_000, 8, 64, 8, 5_000_000,
          maxDelayNanos == 0 ? Mode.UNBATCHED : Mode.BATCHED);
    }
  }

  /** What to do next; {@code rows} is set for {@link Kind#RUN}, {@code untilNanos} for WAIT. */
  record Decision(Kind kind, int rows, long untilNanos) {
    enum Kind {
      /** The blocking caller runs its own rows now, on its own thread. */
      RUN_ALONE,
      /** The caller's rows join the queue. */
      QUEUE,
      /** Up to {@code rows} queued rows (those that fit with the oldest) run now as a batch. */
      RUN,
      /** The queued rows wait for batch-mates until {@code untilNanos} on the clock. */
      WAIT_UNTIL,
      /** The queued rows are due, but as many runs as may are in flight: wait for one to end. */
      WAIT_FOR_RUN,
    }

    static final Decision RUN_ALONE = new Decision(Kind.RUN_ALONE, 0, 0);
    static final Decision QUEUE = new Decision(Kind.QUEUE, 0, 0);
    static final Decision WAIT_FOR_RUN = new Decision(Kind.WAIT_FOR_RUN, 0, 0);

    static Decision run(int rows) {
      return new Decision(Kind.RUN, rows, 0);
    }

    static Decision waitUntil(long nanos) {
      return new Decision(Kind.WAIT_UNTIL, 0, nanos);
    }
  }

  private final Settings settings;
  private final LongSupplier clock;

  /** Runs in flight, and how many of them started before the last change of mode. */
  private int running;
  private int runningOfEarlierMode;
  /**
   * Counts the changes of mode: a run started under an earlier one does not count against the
   * current mode's limit, so that a probe is not measured waiting for the other's runs.
   */
  private long modeChanges;
  /** The callers a run served, averaged over recent runs: near 1 without load. */
  private double recentCallersPerRun = 1;

  private Mode mode;
  /** The mode measured best, which the policy returns to after a probe of the other. */
  private Mode keptMode;
  private boolean probing;
  /**
   * The rows and the time of the kept mode's windows since the last probe: their rows per second
   * is what the next probe must beat (on a busy machine windows' rates differed tenfold: against
   * the last window alone, a probe often won by chance).
   */
  private long keptRows;
  private long keptNanos;
  /**
   * Whether two callers' rows were in flight at once since the last time a probe was due: while
   * unbatched, batching is probed only then (a lone caller's rows have no batch-mates, so a probe
   * of batching would cost its windows and could not win).
   */
  private boolean callersOverlapped;
  /** Windows of the kept mode before the next probe, and that count after the next probe lost. */
  private int windowsUntilProbe = 1;
  private int windowsBetweenProbes = 1;
  private long windowStartNanos;
  /** Whether the mode changed and is settling: its window has not started yet. */
  private boolean settling;
  private long windowRows;
  private long windowRuns;
  /** The rows of the last run that ended, and until when a smaller batch waits for as many. */
  private int lastRunRows;
  private long gatherUntilNanos;

  BatchPolicy(Settings settings, LongSupplier clock) {
    if (settings.firstMode() == Mode.UNBATCHED && settings.maxDelayNanos() != 0) {
      throw new IllegalArgumentException("with a delay, rows always batch");
    }
    this.settings = settings;
    this.clock = clock;
    this.mode = settings.firstMode();
    this.keptMode = mode;
    this.windowStartNanos = clock.getAsLong();
  }

  /**
   * Whether a blocking caller with {@code rows} rows runs them now on its own thread or queues
   * them. If it runs, call {@link #runStarted} before releasing the lock.
   *
   * @param othersWaiting whether other rows are queued or a batch is being formed
   */
  Decision forCaller(int rows, boolean othersWaiting) {
    if (!adapts() || othersWaiting
        || PaddedBatchSizes.paddedSize(rows, settings.allowedBatchSizes()) != rows) {
      // A delay waits for batch-mates; queued rows go first; a size that is not allowed is padded.
      return Decision.QUEUE;
    }
    if (mode == Mode.UNBATCHED) {
      // The unbatched lane admits callers without the lock (UnbatchedLane), up to the lane's
      // capacity; a caller it refused queues.
      return Decision.QUEUE;
    }
    // Batched: under load runs serve several callers and callers queue, so that batches form
    // (measured: callers that ran alone whenever the model was idle made smaller batches).
    return runningOfThisMode() < settings.maxConcurrentBatches()
        && recentCallersPerRun < LONE_CALLERS_PER_RUN ? Decision.RUN_ALONE : Decision.QUEUE;
  }

  /**
   * Whether a caller may find {@link #forCaller} answering RUN_ALONE while nothing is queued;
   * read without the lock, so that under load a caller goes straight to the queue.
   */
  boolean callersMayRunAlone() {
    return adapts() && mode == Mode.BATCHED && recentCallersPerRun < LONE_CALLERS_PER_RUN;
  }

  /**
   * Whether blocking callers run their own rows through the unbatched lane, which admits them
   * without the lock while fewer than {@link #laneCapacity()} of its runs are in flight and
   * nothing is queued; its runs are told to the policy in bulk ({@link #laneRunsFinished}).
   */
  boolean laneOpen() {
    return adapts() && mode == Mode.UNBATCHED;
  }

  /** The most runs the unbatched lane admits at once. */
  int laneCapacity() {
    return settings.unbatchedConcurrency();
  }

  /** Identifies the current mode among the changes: the epoch of the lane opened for it. */
  long modeToken() {
    return modeChanges;
  }

  /**
   * What the queued rows do next.
   *
   * @param oldestQueuedNanos when the oldest queued request arrived, on the clock
   * @param rowsLikeOldest the queued rows that can run in one batch with the oldest
   */
  Decision forQueue(long oldestQueuedNanos, int rowsLikeOldest) {
    long dueNanos = oldestQueuedNanos + settings.maxDelayNanos();
    long now = clock.getAsLong();
    boolean due = rowsLikeOldest >= settings.maxBatchSize() || now - dueNanos >= 0;
    if (!due) {
      return Decision.waitUntil(dueNanos);
    }
    if (runningOfThisMode() >= concurrency()) {
      return Decision.WAIT_FOR_RUN;  // meanwhile more rows queue: the batch grows with the load
    }
    if (mode == Mode.BATCHED && adapts() && rowsLikeOldest < lastRunRows
        && gatherUntilNanos - now > 0) {
      return Decision.waitUntil(gatherUntilNanos);  // the last run's callers are queueing
    }
    return Decision.run(Math.min(rowsLikeOldest, settings.maxBatchSize()));
  }

  /** Two callers' rows were in flight at once: the unbatched lane admitted one beside another. */
  void callersOverlapped() {
    callersOverlapped = true;
  }

  /**
   * A run (a batch, or a caller's rows alone) starts.
   *
   * @return the token to give {@link #runFinished} when it ends
   */
  long runStarted() {
    running++;
    return modeChanges;
  }

  /**
   * Runs of the unbatched lane that ended since the last call, in the current mode, one caller
   * each; their rows count in the current window, which may end and change the mode.
   */
  void laneRunsFinished(long runs, long rows) {
    if (runs == 0) {
      return;
    }
    recentCallersPerRun = 1 + (recentCallersPerRun - 1) * Math.pow(1 - RECENT_RUN_WEIGHT, runs);
    long now = clock.getAsLong();
    lastRunRows = 1;
    gatherUntilNanos = now;
    countInWindow(runs, rows, now);
  }

  /**
   * The unbatched lane closed after a change of mode with {@code runs} in flight: they now run
   * as the earlier mode's, each to end with {@link #runFinished} given {@link #EARLIER_MODE}.
   */
  void laneClosedWith(int runs) {
    running += runs;
    runningOfEarlierMode += runs;
  }

  /**
   * A run ended, successfully or not; its rows count in the current window, which may end and
   * change the mode.
   *
   * @param started what {@link #runStarted} returned for this run, or {@link #EARLIER_MODE}
   * @param runNanos how long the run took; 0 where it does not matter (a caller's rows alone)
   */
  void runFinished(long started, int callers, int rows, long runNanos) {
    running--;
    callersOverlapped |= callers > 1;
    recentCallersPerRun += (callers - recentCallersPerRun) * RECENT_RUN_WEIGHT;
    long now = clock.getAsLong();
    lastRunRows = rows;
    long gather = runNanos >= MIN_GATHERING_RUN_NANOS ? runNanos / GATHER_PART_OF_RUN : 0;
    gatherUntilNanos = now + gather;
    if (started != modeChanges) {
      // A run of the earlier mode: its rows are not this mode's, and this mode's window starts
      // when the last such run has ended (measured: a window that held the change measured
      // mostly the change, and the batched mode lost where it ran 1.6 times the rows).
      if (--runningOfEarlierMode == 0) {
        startWindow(now);
      }
      return;
    }
    countInWindow(1, rows, now);
  }

  private void countInWindow(long runs, long rows, long now) {
    windowRows += rows;
    windowRuns += runs;
    long elapsed = now - windowStartNanos;
    if (settling) {
      // The callers are still moving to this mode: its rows are not measured yet.
      if (elapsed >= settings.settleNanos() && windowRuns >= settings.minRunsPerWindow()) {
        settling = false;
        startWindow(now);
      }
      return;
    }
    if (elapsed >= settings.windowNanos() && windowRuns >= settings.minRunsPerWindow()) {
      endWindow(elapsed, now);
    }
  }

  private void startWindow(long now) {
    windowStartNanos = now;
    windowRows = 0;
    windowRuns = 0;
  }

  private void endWindow(long elapsed, long now) {
    long rows = windowRows;
    startWindow(now);
    if (!adapts()) {
      return;
    }
    if (!probing) {
      keptRows += rows;
      keptNanos += elapsed;
      if (--windowsUntilProbe == 0) {
        if (keptMode == Mode.UNBATCHED && !callersOverlapped) {
          windowsUntilProbe = 1;  // no two callers' rows were ever there to batch: not yet
        } else {
          probing = true;
          changeMode(keptMode.other());
        }
        callersOverlapped = false;
      }
      return;
    }
    probing = false;
    boolean probeWins = (double) rows / elapsed > (double) keptRows / keptNanos;
    keptRows = 0;
    keptNanos = 0;
    if (probeWins) {
      // The probed mode ran more rows: keep it, and soon check that the other still loses.
      keptMode = mode;
      windowsBetweenProbes = 1;
    } else {
      changeMode(keptMode);
      windowsBetweenProbes = Math.min(settings.probeBackoff() * windowsBetweenProbes,
          settings.maxWindowsBetweenProbes());
    }
    windowsUntilProbe = windowsBetweenProbes;
  }

  private void changeMode(Mode next) {
    if (next == Mode.BATCHED) {
      recentCallersPerRun = Math.max(recentCallersPerRun, CALLERS_PER_RUN_AFTER_UNBATCHED);
    }
    mode = next;
    modeChanges++;
    runningOfEarlierMode = running;
    settling = settings.settleNanos() > 0;
  }

  private int runningOfThisMode() {
    return running - runningOfEarlierMode;
  }

  private boolean adapts() {
    return settings.maxDelayNanos() == 0;
  }

  private int concurrency() {
    return mode == Mode.BATCHED ? settings.maxConcurrentBatches()
        : settings.unbatchedConcurrency();
  }

  /** Runs in flight: batches and callers' own runs. */
  int running() {
    return running;
  }

  Mode mode() {
    return mode;
  }
}
