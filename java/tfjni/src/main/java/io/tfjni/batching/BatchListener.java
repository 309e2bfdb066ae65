package io.tfjni.batching;

/**
 * Hears each run of a {@link BatchingPredictor} (a batch, or a caller's rows run alone on its
 * thread), to bind to metrics: how long each caller's rows waited in the queue and how many rows
 * the run held. Called on the thread that ran the batch, before its callers are answered, so a
 * caller that has its answer finds its run counted. Added with {@link
 * BatchingPredictor.Builder#listener}.
 *
 * <p>Each method is on the request path: it must return quickly, must not allocate per call if
 * the run path is to stay allocation-free, and should not throw (what it throws is logged and
 * otherwise ignored; the callers still get their answers).
 */
public interface BatchListener {
  /**
   * A caller's rows are about to run.
   *
   * @param waitNanos from the moment the caller's rows were queued until their run began; 0 for
   *     a caller that ran its own rows at once on its own thread
   */
  void onCallerStarted(long waitNanos);

  /**
   * A run ended, successfully or not (its callers are answered after this returns).
   *
   * @param callers the callers whose rows it held (1 for a caller's rows run alone)
   * @param rows their rows, padding not counted
   * @param runNanos the run's time, the concatenation and split of the rows included
   * @param failed whether the run failed (every caller in it gets the failure)
   */
  void onRun(int callers, int rows, long runNanos, boolean failed);
}
