package io.tfjni.flink;

import io.tfjni.DataType;
import io.tfjni.TensorSpec;
import java.util.Arrays;
import java.util.List;

/**
 * The shape of one record's row of a signature input or output (the core's batching predictor
 * has already refused what cannot be batched), and the checks a record's value must pass to be
 * that row: a primitive array of the input's type, or for STRING a {@code String[]} (UTF-8) or
 * {@code byte[][]} without nulls.
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
    // A string is one element (the core counts no fixed components for it).
    long elements = spec.dataType() == DataType.STRING ? 1
        : spec.dataType().componentsPerElement();
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

  /** Why {@code value} cannot be a row of this input, or null if it can. */
  String problemWith(Object value) {
    if (value == null) {
      return "is null";
    }
    boolean strings = value instanceof String[] || value instanceof byte[][];
    if (dataType == DataType.STRING ? !strings
        : value.getClass() != dataType.javaComponent().arrayType()) {
      return "is a " + value.getClass().getSimpleName();
    }
    int length = java.lang.reflect.Array.getLength(value);
    if (length != elements) {
      return "has " + length + " elements";
    }
    if (strings) {
      for (int i = 0; i < length; i++) {
        if (((Object[]) value)[i] == null) {
          return "has a null at element " + i;
        }
      }
    }
    return null;
  }

  /** What a row must be, for messages. */
  String describe() {
    String array = dataType == DataType.STRING ? "String[] or byte[][]"
        : dataType.javaComponent().arrayType().getSimpleName();
    return array + " of " + elements + " elements (" + dataType + " "
        + Arrays.toString(rowShape) + " per record)";
  }
}
