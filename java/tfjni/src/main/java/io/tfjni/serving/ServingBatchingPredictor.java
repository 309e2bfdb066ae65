package io.tfjni.serving;

import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import io.tfjni.batching.BatchedResult;
import io.tfjni.batching.BatchingPredictor;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A {@link BatchingPredictor} that follows a {@link VersionedModel}'s swaps. Every loaded version
 * has a batching predictor of its own, built with the same options over the predictor prepared
 * on it; a call is queued on the serving version's, and counts as in flight on that version until
 * its answer is complete, so the version is unloaded only after its queue has drained. During a
 * swap, calls already queued run on the old version and new calls batch on the new one. Held for
 * the versioned model's life and owned by it (nothing to close).
 *
 * <p>Thread safety: every method may be called from any thread.
 */
public final class ServingBatchingPredictor {
  private final VersionedModel owner;
  private final PredictorContract contract;
  private final Consumer<BatchingPredictor.Builder> options;

  ServingBatchingPredictor(VersionedModel owner, PredictorContract contract,
      Consumer<BatchingPredictor.Builder> options) {
    this.owner = owner;
    this.contract = contract;
    this.options = options;
  }

  PredictorContract contract() {
    return contract;
  }

  /**
   * This predictor's batching predictor on {@code version}, built with the user's options; the
   * version's metrics hear its runs (queue waits, batch sizes).
   */
  BatchingPredictor buildOn(LoadedVersion version) {
    BatchingPredictor.Builder builder = BatchingPredictor.builder(version.predictor(contract))
        .predictorsBySize(version.liteRtPredictors(contract));
    options.accept(builder);
    return builder.listener(version.metrics).build();
  }

  /**
   * What each input must look like, as on the version this predictor was made on.
   *
   * @return the inputs' specs, in the order {@link #predict} takes them
   */
  public List<TensorSpec> inputs() {
    return contract.inputs();
  }

  /**
   * Queues the caller's rows on the serving version's batching predictor and waits for its
   * outputs, as {@link BatchingPredictor#predict} does.
   *
   * @param inputs the caller's rows of every input; copied before the rows are queued
   * @return the caller's rows of every output, which the caller closes
   * @throws IllegalStateException if the versioned model is closed
   * @throws VersionUnavailableException if no version serves at the moment
   * @throws io.tfjni.TensorFlowException the batch's run failed
   */
  public BatchedResult predict(Tensor... inputs) {
    return ServingCalls.call(owner, inputs, this, inputs,
        (version, predictor, in) -> version.batcher(predictor).predict(in));
  }

  /**
   * Queues one row given as Java arrays, as {@link BatchingPredictor#predictRow} does.
   *
   * @param row one array per input
   * @return the row's outputs, which the caller closes
   * @throws IllegalStateException if the versioned model is closed
   * @throws VersionUnavailableException if no version serves at the moment
   * @throws io.tfjni.TensorFlowException the batch's run failed
   */
  public BatchedResult predictRow(Object... row) {
    return ServingCalls.call(owner, null, this, row,
        (version, predictor, arrays) -> version.batcher(predictor).predictRow(arrays));
  }

  /**
   * Queues one row given as Java arrays and returns the future of its outputs, as {@link
   * BatchingPredictor#submitRow} does; the version stays loaded until the future completes.
   *
   * @param row one array per input; copied before this returns
   * @return the future of the row's outputs, which the caller closes
   * @throws io.tfjni.InvalidRowException if an array does not fit its input, naming it
   * @throws IllegalStateException if the versioned model is closed
   * @throws VersionUnavailableException if no version serves at the moment
   */
  public CompletableFuture<BatchedResult> submitRow(Object... row) {
    return ServingCalls.submit(owner, null, this, row,
        (version, predictor, arrays) -> version.batcher(predictor).submitRow(arrays));
  }

  /**
   * Queues the caller's rows and returns the future of its outputs, as {@link
   * BatchingPredictor#submit} does; the version stays loaded until the future completes.
   *
   * @param inputs the caller's rows of every input; copied before this returns
   * @return the future of the caller's outputs, which the caller closes
   * @throws IllegalStateException if the versioned model is closed
   * @throws VersionUnavailableException if no version serves at the moment
   */
  public CompletableFuture<BatchedResult> submit(Tensor... inputs) {
    return ServingCalls.submit(owner, inputs, this, inputs,
        (version, predictor, in) -> version.batcher(predictor).submit(in));
  }
}
