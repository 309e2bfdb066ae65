package io.tfjni.flink;

import org.apache.flink.table.functions.AsyncPredictFunction;
import org.apache.flink.table.functions.PredictFunction;
import org.apache.flink.table.ml.AsyncPredictRuntimeProvider;
import org.apache.flink.table.ml.PredictRuntimeProvider;

/**
 * A checked model's two functions: the planner takes the asynchronous one unless the call asks
 * for {@code 'async' = 'false'}.
 */
final class TensorFlowModelProvider implements PredictRuntimeProvider,
    AsyncPredictRuntimeProvider {
  private final ModelCall sync;
  private final ModelCall async;

  TensorFlowModelProvider(ModelCall sync, ModelCall async) {
    this.sync = sync;
    this.async = async;
  }

  @Override
  public PredictFunction createPredictFunction(Context context) {
    return new SavedModelPredictFunction(sync);
  }

  @Override
  public AsyncPredictFunction createAsyncPredictFunction(Context context) {
    return new SavedModelAsyncPredictFunction(async);
  }

  @Override
  public TensorFlowModelProvider copy() {
    return new TensorFlowModelProvider(sync, async);
  }
}
