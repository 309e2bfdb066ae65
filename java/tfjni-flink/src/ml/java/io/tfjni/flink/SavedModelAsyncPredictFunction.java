package io.tfjni.flink;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.AsyncPredictFunction;
import org.apache.flink.table.functions.FunctionContext;

/**
 * {@code ML_PREDICT}'s asynchronous function over a model of provider {@code tensorflow} (the
 * planner's choice unless the call asks for {@code 'async' = 'false'}): the rows Flink's async
 * operator holds in flight are batched into shared model runs, and every subtask of a TaskManager
 * JVM shares one loaded model. Made by {@link TensorFlowModelProviderFactory}.
 */
public final class SavedModelAsyncPredictFunction extends AsyncPredictFunction {
  private static final long serialVersionUID = 1;

  /** The model, the signature, and how a row becomes inputs and outputs become a row. */
  private final ModelCall call;

  SavedModelAsyncPredictFunction(ModelCall call) {
    this.call = call;
  }

  @Override
  public void open(FunctionContext context) {
    call.open(context);
  }

  /**
   * Queues one row of the model's INPUT columns.
   *
   * @param inputs the row's INPUT columns, in order
   * @return the future of its row of OUTPUT columns (no row for an invalid row under {@code
   *     SKIP}, one of NULLs under {@code KEEP}), failing for an invalid row under {@code ERROR}
   *     or with its batch's exception
   */
  @Override
  public CompletableFuture<Collection<RowData>> asyncPredict(RowData inputs) {
    CompletableFuture<Collection<RowData>> result = new CompletableFuture<>();
    call.predict(inputs, result);
    return result;
  }

  @Override
  public void close() {
    call.close();
  }
}
