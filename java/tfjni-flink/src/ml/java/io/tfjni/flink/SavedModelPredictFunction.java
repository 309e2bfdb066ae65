package io.tfjni.flink;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.PredictFunction;

/**
 * {@code ML_PREDICT}'s synchronous function over a model of provider {@code tensorflow}, for a
 * call with {@code MAP['async', 'false']}: each row runs the model on its own, as the operator
 * waits for each row's outputs before it hands over the next (its batcher never waits for more).
 * Made by {@link TensorFlowModelProviderFactory}.
 */
public final class SavedModelPredictFunction extends PredictFunction {
  private static final long serialVersionUID = 1;

  /** The model, the signature, and how a row becomes inputs and outputs become a row. */
  private final ModelCall call;

  SavedModelPredictFunction(ModelCall call) {
    this.call = call;
  }

  @Override
  public void open(FunctionContext context) {
    call.open(context);
  }

  /**
   * Runs the model on one row of the model's INPUT columns.
   *
   * @param inputs the row's INPUT columns, in order
   * @return its row of OUTPUT columns; no row for an invalid row under {@code SKIP}, one of
   *     NULLs under {@code KEEP}
   * @throws IllegalArgumentException for an invalid row under {@code ERROR}, naming the column,
   *     the input and the row
   * @throws RuntimeException the model run's exception
   */
  @Override
  public Collection<RowData> predict(RowData inputs) {
    CompletableFuture<Collection<RowData>> result = new CompletableFuture<>();
    call.predict(inputs, result);
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the model ran", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public void close() {
    call.close();
  }
}
