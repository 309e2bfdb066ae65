package io.tfjni.batching;

/**
 * Hears each run of a {@link BatchingPredictor} (a batch, or a caller's rows run alone on its
 * thread), to bind to metrics: how long each caller's rows waited in the queue, how many rows the
 * run held, and which predictor ran it. Called on the thread that ran the batch, before its
 * callers are answered, so a caller that has its answer finds its run counted. Added with {@link
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

  /**
   * A run is about to start through the predictor chosen for its size: the one given for that
   * size ({@link BatchingPredictor.Builder#predictorsBySize}, such as a converted LiteRT model's),
   * else the batcher's own. Does nothing unless overridden.
   *
   * @param rows the callers' rows, padding not counted
   * @param batchSize the run's size: {@code rows} padded up to the next allowed batch size, if
   *     sizes are set ({@link BatchingPredictor.Builder#allowedBatchSizes})
   * @param ofItsSize whether the run goes through the predictor given for {@code batchSize}
   */
  default void onPredictorChosen(int rows, int batchSize, boolean ofItsSize) {}
}
