package io.tfjni.flink;

import io.tfjni.BatchedResult;
import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.serving.ServingBatchingPredictor;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A subtask's records through the JVM's batching predictor of a versioned model, which follows
 * the model's swaps: each record's rows become tensors of one row, queued on the serving
 * version. The batching predictor is the shared model's, not this batcher's.
 */
final class VersionedBatcher implements RecordBatcher {
  private final ServingBatchingPredictor batcher;
  private final List<RowLayout> inputs;
  private final List<RowLayout> outputs;

  VersionedBatcher(ServingBatchingPredictor batcher, List<RowLayout> inputs,
      List<RowLayout> outputs) {
    this.batcher = batcher;
    this.inputs = inputs;
    this.outputs = outputs;
  }

  @Override
  public CompletableFuture<Prediction> submit(Object[] rows) {
    Tensor[] tensors = new Tensor[rows.length];
    CompletableFuture<BatchedResult> pending;
    try {
      for (int i = 0; i < rows.length; i++) {
        tensors[i] = tensorOf(rows[i], inputs.get(i));
      }
      pending = batcher.submit(tensors);  // copies the tensors
    } catch (RuntimeException e) {  // closed, no version serving, or a row that does not fit
      return CompletableFuture.failedFuture(e);
    } finally {
      for (Tensor tensor : tensors) {
        if (tensor != null) {
          tensor.close();
        }
      }
    }
    CompletableFuture<Prediction> answer = new CompletableFuture<>();
    Completions.relay(pending,
        result -> answer.complete(OperatorBatcher.prediction(result, outputs)),
        answer::completeExceptionally);
    return answer;
  }

  /** One record's row as a tensor of one row. */
  private static Tensor tensorOf(Object row, RowLayout input) {
    long[] shape = new long[input.rowShape().length + 1];
    shape[0] = 1;
    System.arraycopy(input.rowShape(), 0, shape, 1, input.rowShape().length);
    if (input.dataType() != DataType.STRING) {
      return Tensor.of(input.dataType(), row, shape);
    }
    return row instanceof String[] strings ? Tensor.ofStrings(strings, shape)
        : Tensor.ofBytes((byte[][]) row, shape);
  }

  /** Nothing of its own: the shared model closes its batching predictor. */
  @Override
  public void close() {}
}
