package io.tfjni.flink;

import io.tfjni.DataType;
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

  /** A value that cannot be a row of its input; the message says why. */
  static final class InvalidValue extends Exception {
    private static final long serialVersionUID = 1;

    InvalidValue(String problem) {
      super(problem, null, false, false);
    }
  }

  /**
   * The row an SQL argument feeds to {@code input}: a number or string for an input of one
   * value per row, else an ARRAY of them, flattened.
   *
   * @throws InvalidValue for a null, a null element, another length, a fraction for an integer
   *     input or a value out of its range
   */
  static Object toRow(Object value, RowLayout input) throws InvalidValue {
    if (value == null) {
      throw new InvalidValue("is null");
    }
    Object[] values = input.rowShape().length == 0 ? new Object[] {value} : elements(value);
    if (values.length != input.elements()) {
      throw new InvalidValue("has " + values.length + " elements");
    }
    if (input.dataType() == DataType.STRING) {
      return strings(values);
    }
    Object row = Array.newInstance(input.dataType().javaComponent(), values.length);
    for (int i = 0; i < values.length; i++) {
      if (!(values[i] instanceof Number number)) {
        throw new InvalidValue("has a null at element " + i);
      }
      switch (input.dataType()) {
        case FLOAT -> Array.setFloat(row, i, number.floatValue());
        case DOUBLE -> Array.setDouble(row, i, number.doubleValue());
        case INT32 -> Array.setInt(row, i, (int) integral(number, i, Integer.MIN_VALUE,
            Integer.MAX_VALUE, input));
        default -> Array.setLong(row, i, integral(number, i, Long.MIN_VALUE, Long.MAX_VALUE,
            input));
      }
    }
    return row;
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

  private static String[] strings(Object[] values) throws InvalidValue {
    String[] row = new String[values.length];
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        throw new InvalidValue("has a null at element " + i);
      }
      row[i] = values[i].toString();
    }
    return row;
  }

  private static long integral(Number number, int element, long min, long max, RowLayout input)
      throws InvalidValue {
    if (number instanceof Float || number instanceof Double) {
      double d = number.doubleValue();
      // Doubles at and above 2^63 round to Long.MAX_VALUE, so the upper bound is exclusive.
      if (d != Math.rint(d) || d < min || d >= (double) max + 1) {
        throw new InvalidValue("has " + number + " at element " + element + ", not an "
            + input.dataType());
      }
      return (long) d;
    }
    long n = number.longValue();
    if (n < min || n > max) {
      throw new InvalidValue("has " + number + " at element " + element + ", out of "
          + input.dataType() + "'s range");
    }
    return n;
  }

  /** An output's row as its SQL value ({@link SqlTypes#of}): the one value, or an ARRAY. */
  static Object toSql(Object row, RowLayout output) {
    if (output.dataType() == DataType.STRING) {
      byte[][] strings = (byte[][]) row;
      StringData[] values = new StringData[strings.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = StringData.fromBytes(strings[i]);  // UTF-8, as a SQL string's bytes are
      }
      return output.rowShape().length == 0 ? values[0] : new GenericArrayData(values);
    }
    if (output.rowShape().length == 0) {
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
