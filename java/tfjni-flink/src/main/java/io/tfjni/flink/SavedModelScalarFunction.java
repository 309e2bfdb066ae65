package io.tfjni.flink;

import io.tfjni.RowSpec;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.functions.AsyncScalarFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.TypeInference;

/**
 * {@code SELECT predict(pixels) FROM events}: an asynchronous scalar function over a SavedModel
 * signature, built by {@link SqlFunctionBuilder}. Its result is the prediction of the one output
 * (a number, or an ARRAY of an output's row, flattened), or a ROW of several outputs. The calls
 * Flink's async operator holds in flight are batched into shared model runs, and every subtask of
 * a TaskManager JVM shares one loaded model.
 */
public final class SavedModelScalarFunction extends AsyncScalarFunction {
  private static final long serialVersionUID = 1;

  /** The model, the signature and how calls become rows and outputs become SQL values. */
  private final SqlPredictions predictions;

  SavedModelScalarFunction(SqlPredictions predictions) {
    this.predictions = predictions;
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return predictions.typeInference(SavedModelScalarFunction::resultType);
  }

  /** The result's SQL type: the one output's, or a ROW of several. */
  static DataType resultType(List<RowSpec> outputs) {
    return outputs.size() == 1 ? SqlTypes.of(outputs.get(0)) : SqlTypes.row(outputs);
  }

  /** The result of a call whose outputs have {@code values}, as {@link #resultType} types it. */
  static Object result(Object[] values) {
    return values.length == 1 ? values[0] : GenericRowData.of(values);
  }

  @Override
  public void open(FunctionContext context) {
    predictions.open(context);
  }

  /**
   * Queues one call's arguments; {@code result} completes with its prediction.
   *
   * @param result completed by the batch that runs the call
   * @param arguments one per signature input, in the builder's order
   */
  public void eval(CompletableFuture<Object> result, Object... arguments) {
    predictions.predict(arguments, result, null, SavedModelScalarFunction::result);
  }

  @Override
  public void close() {
    predictions.close();
  }
}
