package io.tfjni.flink;

import java.io.Serializable;

/**
 * Reads the value one signature input takes from a record: a primitive array of the input's
 * type ({@code float[]} for FLOAT, {@code long[]} for INT64, see {@code DataType.javaComponent()})
 * holding one row, flattened (64 floats for a {@code [-1, 8, 8, 1]} input, one for {@code [-1]}).
 * Serializable, as Flink ships it to the TaskManagers: a method reference such as {@code
 * Digit::pixels} is.
 *
 * @param <IN> the records' type
 */
@FunctionalInterface
public interface FieldReader<IN> extends Serializable {
  /**
   * The row this record feeds to the input.
   *
   * @param record the record
   * @return a primitive array of the input's type, or null (an invalid record)
   */
  Object read(IN record);
}
