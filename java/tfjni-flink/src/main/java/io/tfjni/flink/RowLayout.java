package io.tfjni.flink;

import io.tfjni.DataType;
import io.tfjni.TensorSpec;
import java.util.Arrays;

/**
 * One batch-major input or output of the signature: its type and the shape of one row, and the
 * checks a record's value must pass to be that row.
 */
record RowLayout(String key, DataType dataType, long[] rowShape, int elements) {
  /** The layout of a signature input or output; refuses one that cannot be batched by rows. */
  static RowLayout of(TensorSpec spec, String what) {
    long[] shape = spec.shape();
    if (spec.hasUnknownRank() || shape.length == 0 || shape[0] != -1) {
      throw new IllegalArgumentException(what + " '" + spec.key() + "' has shape "
          + (spec.hasUnknownRank() ? "of unknown rank" : Arrays.toString(shape))
          + ": tfjni-flink needs the batch (-1) as the first dimension");
    }
    if (!spec.dataType().isFixedSize()) {
      throw new IllegalArgumentException(what + " '" + spec.key() + "' is " + spec.dataType()
          + ": tfjni-flink takes fixed-size types only");
    }
    long[] row = Arrays.copyOfRange(shape, 1, shape.length);
    long elements = spec.dataType().componentsPerElement();
    for (long d : row) {
      if (d < 0) {
        throw new IllegalArgumentException(what + " '" + spec.key() + "' has shape "
            + Arrays.toString(shape) + ": only the batch dimension may be unknown");
      }
      elements *= d;
    }
    return new RowLayout(spec.key(), spec.dataType(), row, Math.toIntExact(elements));
  }

  /** The Java array type a row of this layout is. */
  Class<?> arrayType() {
    return dataType.javaComponent().arrayType();
  }

  /** Why {@code value} cannot be a row of this input, or null if it can. */
  String problemWith(Object value) {
    if (value == null) {
      return "is null";
    }
    if (value.getClass() != arrayType()) {
      return "is a " + value.getClass().getSimpleName();
    }
    int length = java.lang.reflect.Array.getLength(value);
    return length == elements ? null : "has " + length + " elements";
  }

  /** What a row must be, for messages. */
  String describe() {
    return arrayType().getSimpleName() + " of " + elements + " elements (" + dataType + " "
        + Arrays.toString(rowShape) + " per record)";
  }
}
