package io.tfjni.spark;

import io.tfjni.DataType;
import io.tfjni.InvalidRowException;
import io.tfjni.RowSpec;
import io.tfjni.Tensor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.UserDefinedType;
import org.apache.spark.unsafe.Platform;

/**
 * One input's values for a batch of rows, read from Spark's internal rows (no boxed values)
 * straight into the memory of a tensor of {@code capacity} rows; an array column whose elements
 * already have the tensor's type is copied in bulk from Spark's own memory. String inputs are
 * gathered as byte arrays. A row that cannot feed the input throws {@link InvalidRowException}
 * before any of it counts; numbers are converted by the core's row rule ({@link RowSpec}). Close it
 * to free a tensor still being filled.
 */
final class InputBatch implements AutoCloseable {
  /** The Spark type of the column's scalars. */
  private enum Leaf { BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL, BOOLEAN, STRING, BINARY }

  private final ColumnSpec spec;
  private final int capacity;
  /** Array levels in the column's type; an ML vector counts as one. */
  private final int depth;
  private final UserDefinedType<Vector> vectorType;
  private final Leaf leaf;
  private final DecimalType decimal;
  /** Whether some array level of the column's type may hold nulls (worth looking for). */
  private final boolean elementsMayBeNull;
  /** Bytes per element when the column's scalars are the tensor's element type, else 0. */
  private final int bulkElementBytes;
  /** The per-row shape: the signature's, with unknown sizes taken from the batch's first row. */
  private long[] rowShape;
  private int rowElements = -1;
  /** The batch being filled, [capacity, rowShape...]; null until a row starts it. */
  private Tensor tensor;
  private ByteBuffer memory;
  private byte[][] strings;
  private final int elementBytes;
  private int rows;

  @SuppressWarnings("unchecked")
  InputBatch(ColumnSpec spec, org.apache.spark.sql.types.DataType columnType, int capacity) {
    this.spec = spec;
    this.capacity = capacity;
    int levels = 0;
    boolean nulls = false;
    org.apache.spark.sql.types.DataType scalar = columnType;
    while (scalar instanceof ArrayType array) {
      levels++;
      nulls |= array.containsNull();
      scalar = array.elementType();
    }
    if (scalar instanceof UserDefinedType<?> udt && levels == 0) {
      vectorType = (UserDefinedType<Vector>) udt;  // SparkTypes lets only ML vectors through
      levels = 1;
      scalar = org.apache.spark.sql.types.DataTypes.DoubleType;
    } else {
      vectorType = null;
    }
    depth = levels;
    elementsMayBeNull = nulls;
    leaf = leafOf(scalar);
    decimal = scalar instanceof DecimalType d ? d : null;
    bulkElementBytes = vectorType == null ? bulkBytes(leaf, spec.dataType()) : 0;
    elementBytes = spec.dataType() == DataType.STRING ? 0 : spec.dataType().byteSize();
  }

  private static Leaf leafOf(org.apache.spark.sql.types.DataType type) {
    if (type instanceof ByteType) {
      return Leaf.BYTE;
    } else if (type instanceof ShortType) {
      return Leaf.SHORT;
    } else if (type instanceof IntegerType) {
      return Leaf.INT;
    } else if (type instanceof LongType) {
      return Leaf.LONG;
    } else if (type instanceof FloatType) {
      return Leaf.FLOAT;
    } else if (type instanceof DoubleType) {
      return Leaf.DOUBLE;
    } else if (type instanceof DecimalType) {
      return Leaf.DECIMAL;
    } else if (type instanceof BooleanType) {
      return Leaf.BOOLEAN;
    } else if (type instanceof StringType) {
      return Leaf.STRING;
    } else if (type instanceof BinaryType) {
      return Leaf.BINARY;
    }
    throw new IllegalArgumentException(type.simpleString() + " columns are refused when the plan"
        + " is built");
  }

  /** Scalars that are already the tensor's element type are copied as raw memory. */
  private static int bulkBytes(Leaf leaf, DataType tensor) {
    return switch (tensor) {
      case FLOAT -> leaf == Leaf.FLOAT ? 4 : 0;
      case DOUBLE -> leaf == Leaf.DOUBLE ? 8 : 0;
      case INT32 -> leaf == Leaf.INT ? 4 : 0;
      case INT64 -> leaf == Leaf.LONG ? 8 : 0;
      case INT16 -> leaf == Leaf.SHORT ? 2 : 0;
      case INT8 -> leaf == Leaf.BYTE ? 1 : 0;
      default -> 0;
    };
  }

  int rows() {
    return rows;
  }

  void clear() {
    rows = 0;
  }

  /** Takes back the last row added (another input of the same row was bad). */
  void dropLast() {
    rows--;
  }

  /** Adds the value at {@code ordinal} of {@code row} as the next row of the batch. */
  void add(InternalRow row, int ordinal) {
    if (row.isNullAt(ordinal)) {
      throw bad("null");
    }
    if (vectorType != null) {
      double[] vector = vectorType.deserialize(row.get(ordinal, vectorType.sqlType())).toArray();
      int start = begin(new long[] {vector.length});
      for (int i = 0; i < vector.length; i++) {
        putReal(start + i, vector[i]);
      }
    } else if (depth == 0) {
      put(begin(SCALAR), row, ordinal);
    } else {
      ArrayData array = row.getArray(ordinal);
      write(array, depth, begin(shapeOf(array, depth)));
    }
    rows++;
  }

  /** Checks a row of {@code shape} against the batch; returns where its elements go. */
  private int begin(long[] shape) {
    if (rows == 0) {
      startBatch(shape);
    } else if (!Arrays.equals(shape, rowShape) && !isFlat(shape, rowShape.length, rowElements)) {
      // The batch's row shape is worth naming only where the input's leaves dimensions open.
      throw bad("shape " + Arrays.toString(shape)
          + (Arrays.equals(rowShape, spec.rowShape()) ? ""
              : ", where this batch's rows are " + Arrays.toString(rowShape)));
    }
    return rows * rowElements;
  }

  private void startBatch(long[] shape) {
    RowSpec row = spec.row();
    if (isFlat(shape, row.rank(), row.elements())) {
      shape = row.shape();
    } else if (!row.accepts(shape)) {
      throw bad("shape " + Arrays.toString(shape));
    }
    long elements = 1;
    for (long d : shape) {
      elements = Math.multiplyExact(elements, d);
    }
    if (elements * capacity > Integer.MAX_VALUE - 8) {
      throw bad("a batch of " + capacity + " rows of " + elements
          + " elements is too large: lower batchSize");
    }
    if (!Arrays.equals(shape, rowShape)) {
      rowShape = shape;
      rowElements = (int) elements;
      close();
      strings = null;
    }
    if (spec.dataType() == DataType.STRING) {
      if (strings == null) {
        strings = new byte[rowElements * capacity][];
      }
    } else if (tensor == null) {
      tensor = Tensor.allocate(spec.dataType(), batchShape(capacity));
      memory = tensor.buffer();
    }
  }

  private long[] batchShape(int batchRows) {
    long[] shape = new long[rowShape.length + 1];
    shape[0] = batchRows;
    System.arraycopy(rowShape, 0, shape, 1, rowShape.length);
    return shape;
  }

  /**
   * A flat array holding a whole row of a higher rank (e.g. 64 floats for [8, 8, 1]) of
   * {@code elements}, -1 if unknown.
   */
  private static boolean isFlat(long[] shape, int rank, long elements) {
    return shape.length == 1 && rank >= 2 && elements >= 0 && shape[0] == elements;
  }

  private InvalidRowException bad(String problem) {
    return new InvalidRowException(spec.key(), problem);
  }

  /**
   * The batch so far as a tensor of shape [batchRows, rowShape...], which the caller closes: its
   * rows, then rows of zeros (empty strings) up to {@code batchRows}. The tensor filled, if it has
   * that many rows, else a copy.
   */
  Tensor toTensor(int batchRows) {
    if (batchRows < rows || batchRows > capacity) {
      throw new IllegalArgumentException("a batch of " + rows + " rows cannot run as "
          + batchRows + " (at most " + capacity + ")");
    }
    long[] shape = batchShape(batchRows);
    int filledElements = rows * rowElements;
    if (spec.dataType() == DataType.STRING) {
      byte[][] values = Arrays.copyOf(strings, batchRows * rowElements);
      Arrays.fill(values, filledElements, values.length, new byte[0]);
      return Tensor.ofBytes(values, shape);
    }
    Tensor full = tensor;
    tensor = null;
    memory = null;
    if (batchRows == capacity) {
      // The rows past this batch's may hold an earlier batch's values.
      ByteBuffer bytes = full.buffer();
      int end = filledElements * elementBytes;
      bytes.put(end, new byte[bytes.capacity() - end]);
      return full;
    }
    try (full) {
      Tensor part = Tensor.allocate(spec.dataType(), shape);  // zero-filled
      ByteBuffer filled = full.buffer().limit(filledElements * elementBytes);
      part.buffer().put(filled);
      return part;
    }
  }

  @Override
  public void close() {
    if (tensor != null) {
      tensor.close();
      tensor = null;
      memory = null;
    }
  }

  private static final long[] SCALAR = new long[0];

  /** The shape of {@code depth} nested array levels, checked rectangular (leaves by length). */
  private long[] shapeOf(ArrayData array, int depth) {
    int length = array.numElements();
    if (depth == 1 || length == 0) {
      return new long[] {length};
    }
    long[] inner = null;
    for (int i = 0; i < length; i++) {
      if (array.isNullAt(i)) {
        throw bad("a null element");
      }
      long[] shape = shapeOf(array.getArray(i), depth - 1);
      if (inner == null) {
        inner = shape;
      } else if (!Arrays.equals(inner, shape)) {
        throw bad("ragged: nested arrays of different lengths");
      }
    }
    long[] shape = new long[inner.length + 1];
    shape[0] = length;
    System.arraycopy(inner, 0, shape, 1, inner.length);
    return shape;
  }

  /** Writes the scalars of a checked array in C order from {@code start}; returns the end. */
  private int write(ArrayData array, int levels, int start) {
    int length = array.numElements();
    if (levels > 1) {
      int next = start;
      for (int i = 0; i < length; i++) {
        next = write(array.getArray(i), levels - 1, next);
      }
      return next;
    }
    if (elementsMayBeNull) {
      for (int i = 0; i < length; i++) {
        if (array.isNullAt(i)) {
          throw bad("a null element");
        }
      }
    }
    if (bulkElementBytes > 0 && array instanceof UnsafeArrayData unsafe
        && unsafe.getBaseObject() instanceof byte[] bytes) {
      // Spark keeps a primitive array's elements contiguous after a header, in native order.
      long from = unsafe.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET
          + UnsafeArrayData.calculateHeaderPortionInBytes(length);
      memory.put(start * bulkElementBytes, bytes, (int) from, length * bulkElementBytes);
    } else {
      for (int i = 0; i < length; i++) {
        put(start + i, array, i);
      }
    }
    return start + length;
  }

  /** Converts the scalar at {@code i} of {@code source} into element {@code index}. */
  private void put(int index, SpecializedGetters source, int i) {
    switch (spec.dataType()) {
      case STRING -> strings[index] = leaf == Leaf.STRING
          ? source.getUTF8String(i).getBytes() : source.getBinary(i);
      case FLOAT, DOUBLE -> putReal(index, real(source, i));
      default -> putInteger(index, integer(source, i, index));
    }
  }

  private double real(SpecializedGetters source, int i) {
    return switch (leaf) {
      case BYTE -> source.getByte(i);
      case SHORT -> source.getShort(i);
      case INT -> source.getInt(i);
      case LONG -> source.getLong(i);
      case FLOAT -> source.getFloat(i);
      case DOUBLE -> source.getDouble(i);
      case DECIMAL -> source.getDecimal(i, decimal.precision(), decimal.scale()).toDouble();
      case BOOLEAN -> source.getBoolean(i) ? 1 : 0;
      default -> throw new IllegalStateException(leaf + " cannot feed a number");
    };
  }

  /** The integer at {@code i} of {@code source}, checked for the input by the row rule. */
  private long integer(SpecializedGetters source, int i, int index) {
    RowSpec row = spec.row();
    int element = index - rows * rowElements;
    return switch (leaf) {
      case BYTE -> row.toInteger(source.getByte(i), element);
      case SHORT -> row.toInteger(source.getShort(i), element);
      case INT -> row.toInteger(source.getInt(i), element);
      case LONG -> row.toInteger(source.getLong(i), element);
      case FLOAT -> row.toInteger(source.getFloat(i), element);
      case DOUBLE -> row.toInteger(source.getDouble(i), element);
      case DECIMAL -> row.toInteger(source.getDecimal(i, decimal.precision(), decimal.scale())
          .toJavaBigDecimal(), element);
      case BOOLEAN -> source.getBoolean(i) ? 1 : 0;
      default -> throw new IllegalStateException(leaf + " cannot feed a number");
    };
  }

  private void putReal(int index, double value) {
    switch (spec.dataType()) {
      case FLOAT -> memory.putFloat(index * 4, (float) value);
      case DOUBLE -> memory.putDouble(index * 8, value);
      default -> putInteger(index, spec.row().toInteger(value, index - rows * rowElements));
    }
  }

  /** A number already in the input's range, as the input's element. */
  private void putInteger(int index, long value) {
    switch (spec.dataType()) {
      case BOOL, UINT8, INT8 -> memory.put(index, (byte) value);
      case UINT16, INT16 -> memory.putShort(index * 2, (short) value);
      case UINT32, INT32 -> memory.putInt(index * 4, (int) value);
      case INT64, UINT64 -> memory.putLong(index * 8, value);
      default -> throw new IllegalStateException(spec.dataType() + " inputs are refused");
    }
  }
}
