package io.tfjni.serving;

import io.tfjni.TensorFlowException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@link VersionedModel} has done, per version: a snapshot taken by {@link
 * VersionedModel#metrics()}. Counters only grow; each is read on its own, so a snapshot taken
 * while calls run may be off by the calls that ended while it was taken. Immutable.
 *
 * @param model the model's name
 * @param servingVersion the version new calls go to, or {@link VersionedModel#NO_VERSION}
 * @param swaps how many times new calls were sent to another version (the first version's
 *     arrival counts)
 * @param sourceFailures how many times the base directory offered nothing to serve ({@link
 *     VersionFailure.Stage#SOURCE})
 * @param versions every loaded version, and the most recent others that loaded or failed to, in
 *     the order of their numbers
 */
public record ServingMetrics(String model, long servingVersion, long swaps, long sourceFailures,
    List<Version> versions) {

  /**
   * One version's metrics.
   *
   * @param number the version's number
   * @return its metrics, if it is among {@link #versions()}
   */
  public Optional<Version> version(long number) {
    return versions.stream().filter(v -> v.version() == number).findFirst();
  }

  /**
   * One version's metrics. Calls are those of its {@link ServingPredictor}s and {@link
   * ServingBatchingPredictor}s (not of its {@link VersionLease}s); a call counts once it has
   * returned, a batching predictor's once its answer is complete.
   *
   * @param version the version's number
   * @param calls the calls that returned or failed
   * @param rows the rows of the calls that succeeded (the first input's first dimension)
   * @param errors the calls that failed with a {@link TensorFlowException}, by its code (codes
   *     never seen are absent)
   * @param otherFailures the calls that failed otherwise (a bad argument, say)
   * @param inFlight the calls running now
   * @param runTime each call's time from the version's acquisition to its return, queueing in a
   *     batching predictor included
   * @param queueWait for each call of a {@link ServingBatchingPredictor} whose rows ran, the time
   *     its rows waited in the queue before their batch began (0 for a call whose rows ran alone
   *     on its thread)
   * @param batchSizes the rows of each run of the version's batching predictors (a batch, or a
   *     call's rows run alone), padding not counted
   * @param loads how many times it loaded and warmed up (more than once if it came back)
   * @param failedLoads how many times it failed to load, to match or to warm up
   * @param unloads how many times it was unloaded
   * @param loadTime its last load's TensorFlow load and predictor preparation
   * @param warmUpTime its last load's warm-up
   * @param liteRtBatchSizes which runtime serves what: per signature key, the batch sizes (ascending)
   *     at which its predictors run on LiteRT (the version loaded with {@link
   *     io.tfjni.SessionOptions#preferLiteRt(int)}, a model converted at that size, a predictor
   *     feeding every input and fetching every output in key order: {@link
   *     io.tfjni.SavedModel#liteRtPredictors}); every other size, and every signature absent,
   *     runs on TensorFlow. A batching predictor's batch runs on LiteRT when its size, after any
   *     padding, is one of these.
   */
  public record Version(long version, long calls, long rows,
      Map<TensorFlowException.Code, Long> errors, long otherFailures, long inFlight,
      HistogramSnapshot runTime, HistogramSnapshot queueWait, SizeHistogramSnapshot batchSizes,
      long loads, long failedLoads, long unloads, Duration loadTime,
      Duration warmUpTime, Map<String, List<Integer>> liteRtBatchSizes) {

    /**
     * The failed calls with one TensorFlow code.
     *
     * @param code the code
     * @return their number, 0 if none
     */
    public long errors(TensorFlowException.Code code) {
      return errors.getOrDefault(code, 0L);
    }
  }
}
