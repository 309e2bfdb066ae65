package io.tfjni.flink;

import io.tfjni.RowSpec;
import io.tfjni.batching.BatchedResult;
import io.tfjni.serving.ServingBatchingPredictor;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A subtask's records through the JVM's batching predictor of a versioned model, which follows
 * the model's swaps: each record's rows are queued on the serving version as the arrays they
 * are (the core checks them, {@link RowSpec#checkArray}). The batching predictor is the shared
 * model's, not this batcher's.
 */
final class VersionedBatcher implements RecordBatcher {
  private final ServingBatchingPredictor batcher;
  private final List<RowSpec> outputs;

  VersionedBatcher(ServingBatchingPredictor batcher, List<RowSpec> outputs) {
    this.batcher = batcher;
    this.outputs = outputs;
  }

  @Override
  public CompletableFuture<Prediction> submit(Object[] rows) {
    CompletableFuture<BatchedResult> pending;
    try {
      pending = batcher.submitRow(rows);  // checks the rows and copies them
    } catch (RuntimeException e) {  // closed, no version serving, or a row that does not fit
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Prediction> answer = new CompletableFuture<>();
    Completions.relay(pending,
        result -> answer.complete(OperatorBatcher.prediction(result, outputs)),
        answer::completeExceptionally);
    return answer;
  }

  /** Nothing of its own: the shared model closes its batching predictor. */
  @Override
  public void close() {}
}
