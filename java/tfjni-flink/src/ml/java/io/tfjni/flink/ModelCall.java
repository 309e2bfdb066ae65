package io.tfjni.flink;

import java.io.Serializable;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * What both {@code ML_PREDICT} functions do with a row: read its INPUT columns from Flink's
 * internal data and hand them to the SQL functions' predictions, which check them, queue them on
 * the subtask's model and make the row of outputs.
 */
final class ModelCall implements Serializable {
  private static final long serialVersionUID = 1;

  private final SqlPredictions predictions;
  /** The INPUT columns' types, in order: they say how to read each field of a row. */
  private final List<LogicalType> columnTypes;

  ModelCall(SqlPredictions predictions, List<LogicalType> columnTypes) {
    this.predictions = predictions;
    this.columnTypes = List.copyOf(columnTypes);
  }

  /** Leases the model on the TaskManager, shared with the JVM's other subtasks. */
  void open(FunctionContext context) {
    predictions.open(context);
  }

  /**
   * Queues one row of the INPUT columns; {@code result} completes with its row of outputs (none
   * or NULLs for an invalid row under SKIP or KEEP), or fails.
   */
  void predict(RowData row, CompletableFuture<Collection<RowData>> result) {
    Object[] arguments = new Object[columnTypes.size()];
    for (int c = 0; c < arguments.length; c++) {
      LogicalType type = columnTypes.get(c);
      // Flink hands the descriptor's columns over as they are, not cast to the INPUT columns'
      // types (an INT column for a FLOAT one), in a GenericRowData: read as they are, the
      // values are converted to the input's dtype as any SQL value is.
      Object value = row instanceof GenericRowData generic ? generic.getField(c)
          : RowData.createFieldGetter(type, c).getFieldOrNull(row);
      arguments[c] = SqlValues.fromInternal(value, type);
    }
    predictions.predictRow(arguments, result);
  }

  void close() {
    predictions.close();
  }
}
