package io.tfjni.flink;

import io.tfjni.DataType;
import io.tfjni.InvalidRowException;
import io.tfjni.RowSpec;
import java.lang.reflect.Array;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * SQL values to a record's rows and back: numbers converted to the input's dtype, as Spark's;
 * strings as they are.
 */
final class SqlValues {
  private SqlValues() {}

  /**
   * The row an SQL argument feeds to {@code input}: a number or string for an input of one
   * value per row, else an ARRAY of them, flattened; numbers converted to the input's dtype by
   * the core's row rule. The row's length and its strings are left for the core to check when
   * it is queued ({@link RowSpec#checkArray}), so a null argument is a null row.
   *
   * @throws InvalidRowException for a null number, or a number that is not whole for an
   *     integer input or is out of its range
   */
  static Object toRow(Object value, RowSpec input) {
    if (value == null) {
      return null;
    }
    Object[] values = input.rank() == 0 ? new Object[] {value} : elements(value);
    if (input.dataType() == DataType.STRING) {
      String[] row = new String[values.length];
      for (int i = 0; i < values.length; i++) {
        row[i] = values[i] == null ? null : values[i].toString();
      }
      return row;
    }
    Object row = Array.newInstance(input.dataType().javaComponent(), values.length);
    for (int i = 0; i < values.length; i++) {
      if (!(values[i] instanceof Number number)) {
        throw new InvalidRowException(input.key(), "has a null at element " + i);
      }
      switch (input.dataType()) {
        case FLOAT -> Array.setFloat(row, i, number.floatValue());
        case DOUBLE -> Array.setDouble(row, i, number.doubleValue());
        case INT32 -> Array.setInt(row, i, (int) integer(number, i, input));
        default -> Array.setLong(row, i, integer(number, i, input));
      }
    }
    return row;
  }

  private static long integer(Number number, int element, RowSpec input) {
    return number instanceof Float || number instanceof Double
        ? input.toInteger(number.doubleValue(), element)
        : input.toInteger(number.longValue(), element);
  }

  /**
   * A column's value as Flink's internal data holds it (a {@code RowData}'s field: an ARRAY as
   * {@code ArrayData}, a string as {@code StringData}, a number boxed) in a form {@link #toRow}
   * takes: an ARRAY's elements as an {@code Object[]}, anything else as it is.
   *
   * @param type the column's SQL type, which says how to read the elements of an ARRAY in
   *     Flink's binary form
   */
  static Object fromInternal(Object value, LogicalType type) {
    if (value instanceof GenericArrayData generic) {
      return generic.toObjectArray();  // the elements as they are, boxed
    }
    if (!(value instanceof ArrayData array) || !(type instanceof ArrayType arrayType)) {
      return value;
    }
    ArrayData.ElementGetter element = ArrayData.createElementGetter(arrayType.getElementType());
    Object[] elements = new Object[array.size()];
    for (int i = 0; i < elements.length; i++) {
      elements[i] = element.getElementOrNull(array, i);
    }
    return elements;
  }

  /**
   * An ARRAY's elements: Flink hands one over as a boxed array ({@code Float[]}), or as a
   * primitive one ({@code float[]}) for a column of NOT NULL elements from a DataStream.
   */
  private static Object[] elements(Object array) {
    if (array instanceof Object[] objects) {
      return objects;
    }
    Object[] boxed = new Object[Array.getLength(array)];
    for (int i = 0; i < boxed.length; i++) {
      boxed[i] = Array.get(array, i);
    }
    return boxed;
  }

  /** An output's row as its SQL value ({@link SqlTypes#of}): the one value, or an ARRAY. */
  static Object toSql(Object row, RowSpec output) {
    if (output.dataType() == DataType.STRING) {
      byte[][] strings = (byte[][]) row;
      StringData[] values = new StringData[strings.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = StringData.fromBytes(strings[i]);  // UTF-8, as a SQL string's bytes are
      }
      return output.rank() == 0 ? values[0] : new GenericArrayData(values);
    }
    if (output.rank() == 0) {
      return Array.get(row, 0);
    }
    return switch (output.dataType()) {
      case FLOAT -> new GenericArrayData((float[]) row);
      case DOUBLE -> new GenericArrayData((double[]) row);
      case INT32 -> new GenericArrayData((int[]) row);
      default -> new GenericArrayData((long[]) row);
    };
  }
}
