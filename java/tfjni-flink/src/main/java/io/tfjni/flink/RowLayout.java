package io.tfjni.flink;

import io.tfjni.DataType;
import io.tfjni.TensorSpec;
import java.util.Arrays;
import java.util.List;

/**
 * The shape of one record's row of a signature input or output (the core's batching predictor
 * has already refused what cannot be batched), and the checks a record's value must pass to be
 * that row.
 */
record RowLayout(String key, DataType dataType, long[] rowShape, int elements) {
  /**
   * The layout of a batch-major input or output; refuses one whose row is not of a known shape,
   * as a record's row is a flattened array of a fixed length.
   */
  static RowLayout of(TensorSpec spec, String what) {
    long[] shape = spec.shape();
    if (spec.hasUnknownRank()) {
      throw new IllegalArgumentException(what + " '" + spec.key() + "' has a shape of unknown"
          + " rank: tfjni-flink needs to know the shape of a record's row");
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

  /** The layouts of a signature's inputs or outputs, in their order. */
  static List<RowLayout> of(List<TensorSpec> specs, String what) {
    return specs.stream().map(spec -> of(spec, what)).toList();
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
