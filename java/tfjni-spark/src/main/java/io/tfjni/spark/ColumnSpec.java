package io.tfjni.spark;

import io.tfjni.DataType;
import io.tfjni.RowSpec;
import io.tfjni.TensorSpec;
import java.io.Serializable;

/**
 * One signature tensor as one DataFrame column, resolved when the plan is built: the column's
 * name and the tensor's row (the core's row rule: its dtype and its shape after the batch, -1 for
 * a size learnt from the data). Serializable: it travels to the executors in the task.
 */
record ColumnSpec(String column, RowSpec row) implements Serializable {

  /** From a signature spec whose first dimension is the batch; throws if it has none. */
  static ColumnSpec of(String column, TensorSpec spec, String role) {
    return new ColumnSpec(column, RowSpec.of(spec, role));
  }

  String key() {
    return row.key();
  }

  DataType dataType() {
    return row.dataType();
  }

  long[] rowShape() {
    return row.shape();
  }

  String describe() {
    return row.describe();
  }
}
