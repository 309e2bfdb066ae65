package io.tfjni.flink;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.AsyncTableFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.types.inference.TypeInference;

/**
 * {@code SELECT id, p.* FROM events, LATERAL TABLE(predict_all(x)) AS p}: an asynchronous table
 * function over a SavedModel signature, built by {@link SqlFunctionBuilder}, giving one row per
 * call with a column per output, named by the output's key. Batched and sharing the model as
 * {@link SavedModelScalarFunction} does.
 */
public final class SavedModelTableFunction extends AsyncTableFunction<RowData> {
  private static final long serialVersionUID = 1;

  /** The model, the signature and how calls become rows and outputs become SQL values. */
  private final SqlPredictions predictions;

  SavedModelTableFunction(SqlPredictions predictions) {
    this.predictions = predictions;
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return predictions.typeInference(SqlTypes::row);
  }

  @Override
  public void open(FunctionContext context) {
    predictions.open(context);
  }

  /**
   * Queues one call's arguments; {@code result} completes with its row of outputs.
   *
   * @param result completed by the batch that runs the call
   * @param arguments one per signature input, in the builder's order
   */
  public void eval(CompletableFuture<Collection<RowData>> result, Object... arguments) {
    predictions.predictRow(arguments, result);
  }

  @Override
  public void close() {
    predictions.close();
  }
}
