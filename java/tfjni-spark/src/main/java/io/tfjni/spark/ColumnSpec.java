package io.tfjni.spark;

import io.tfjni.DataType;
import io.tfjni.TensorSpec;
import java.io.Serializable;
import java.util.Arrays;

/**
 * One signature tensor as one DataFrame column, resolved when the plan is built: the tensor's
 * dtype and its shape per row (the signature's shape without the batch dimension; -1 for a size
 * learnt from the data). Serializable: it travels to the executors in the task.
 */
record ColumnSpec(String column, String key, DataType dataType, long[] rowShape)
    implements Serializable {

  /** From a signature spec whose first dimension is the batch; throws if it has none. */
  static ColumnSpec of(String column, TensorSpec spec, String role) {
    long[] shape = spec.shape();
    if (shape == null) {
      throw new IllegalArgumentException(role + " '" + spec.key() + "' has an unknown rank: the"
          + " Spark transformer needs a shape whose first dimension is the batch");
    }
    if (shape.length == 0 || shape[0] != -1) {
      throw new IllegalArgumentException(role + " '" + spec.key() + "' has shape "
          + Arrays.toString(shape) + ": the Spark transformer needs a first dimension of -1"
          + " (the batch), so that rows can be batched");
    }
    return new ColumnSpec(column, spec.key(), spec.dataType(), Arrays.copyOfRange(shape, 1,
        shape.length));
  }

  /** Whether one row of this shape fits the tensor: TensorSpec's rule, on the signature's spec. */
  boolean acceptsRow(long[] shape) {
    long[] batchMajor = new long[rowShape.length + 1];
    batchMajor[0] = -1;
    System.arraycopy(rowShape, 0, batchMajor, 1, rowShape.length);
    return new TensorSpec(key, "", dataType, batchMajor).acceptsRow(shape);
  }

  /** Elements per row, or -1 while a dimension is unknown. */
  long rowElements() {
    long n = 1;
    for (long d : rowShape) {
      if (d < 0) {
        return -1;
      }
      n *= d;
    }
    return n;
  }

  String describe() {
    return dataType + " " + Arrays.toString(rowShape) + " per row";
  }
}
