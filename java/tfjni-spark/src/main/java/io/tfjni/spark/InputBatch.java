package io.tfjni.spark;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;

/**
 * One input's values for a batch of rows, written row by row from Spark's values into an array
 * of the tensor's element type, then copied once into TensorFlow's memory. A row that cannot
 * feed the input throws {@link BadValue} before any of it counts.
 */
final class InputBatch {
  /** Why one row's value cannot feed the input. */
  static final class BadValue extends Exception {
    private static final long serialVersionUID = 1;

    BadValue(String message) {
      super(message, null, false, false);
    }
  }

  private final ColumnSpec spec;
  private final int capacity;
  /** The per-row shape: the signature's, with unknown sizes taken from the batch's first row. */
  private long[] rowShape;
  private int rowElements = -1;
  private Object values;  // float[], double[], byte[], short[], int[], long[] or byte[][]
  private int rows;

  InputBatch(ColumnSpec spec, int capacity) {
    this.spec = spec;
    this.capacity = capacity;
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

  /** Adds a row's value as the next row of the batch. */
  void add(Object value) throws BadValue {
    if (value == null) {
      throw new BadValue("null");
    }
    long[] shape = shapeOf(value);
    if (rows == 0) {
      startBatch(shape);
    } else if (!Arrays.equals(shape, rowShape) && !isFlat(shape)) {
      throw new BadValue("shape " + Arrays.toString(shape) + " differs from this batch's "
          + Arrays.toString(rowShape));
    }
    int start = rows * rowElements;
    int[] next = {start};
    write(value, next, start + rowElements);
    if (next[0] != start + rowElements) {
      throw new BadValue("ragged: fewer elements than the row's shape " + Arrays.toString(rowShape));
    }
    rows++;
  }

  private void startBatch(long[] shape) throws BadValue {
    long[] expected = spec.rowShape();
    if (isFlatFor(shape, expected)) {
      shape = expected;
    } else if (shape.length != expected.length) {
      throw new BadValue("rank " + shape.length + " where " + spec.describe() + " is expected");
    } else {
      for (int d = 0; d < shape.length; d++) {
        if (expected[d] >= 0 && expected[d] != shape[d]) {
          throw new BadValue("shape " + Arrays.toString(shape) + " where " + spec.describe()
              + " is expected");
        }
      }
    }
    long elements = 1;
    for (long d : shape) {
      elements = Math.multiplyExact(elements, d);
    }
    if (elements * capacity > Integer.MAX_VALUE - 8) {
      throw new BadValue("a batch of " + capacity + " rows of " + elements
          + " elements is too large: lower batchSize");
    }
    if (!Arrays.equals(shape, rowShape)) {
      rowShape = shape;
      rowElements = (int) elements;
      values = newArray(spec.dataType(), rowElements * capacity);
    }
  }

  private boolean isFlat(long[] shape) {
    return isFlatFor(shape, rowShape);
  }

  /** A flat array holding a whole row of a higher rank (e.g. 64 floats for [8, 8, 1]). */
  private static boolean isFlatFor(long[] shape, long[] expected) {
    if (shape.length != 1 || expected.length < 2) {
      return false;
    }
    long elements = 1;
    for (long d : expected) {
      if (d < 0) {
        return false;
      }
      elements *= d;
    }
    return shape[0] == elements;
  }

  /** The batch so far as a new tensor of shape [rows, rowShape...]. */
  Tensor toTensor() {
    long[] shape = new long[rowShape.length + 1];
    shape[0] = rows;
    System.arraycopy(rowShape, 0, shape, 1, rowShape.length);
    int n = rows * rowElements;
    if (spec.dataType() == DataType.STRING) {
      return Tensor.ofBytes(Arrays.copyOf((byte[][]) values, n), shape);
    }
    Tensor tensor = Tensor.allocate(spec.dataType(), shape);
    ByteBuffer buffer = tensor.buffer();
    if (values instanceof float[] a) {
      buffer.asFloatBuffer().put(a, 0, n);
    } else if (values instanceof double[] a) {
      buffer.asDoubleBuffer().put(a, 0, n);
    } else if (values instanceof byte[] a) {
      buffer.put(a, 0, n);
    } else if (values instanceof short[] a) {
      buffer.asShortBuffer().put(a, 0, n);
    } else if (values instanceof int[] a) {
      buffer.asIntBuffer().put(a, 0, n);
    } else {
      buffer.asLongBuffer().put((long[]) values, 0, n);
    }
    return tensor;
  }

  private static Object newArray(DataType type, int length) {
    return switch (type) {
      case FLOAT -> new float[length];
      case DOUBLE -> new double[length];
      case INT8, UINT8, BOOL -> new byte[length];
      case INT16, UINT16 -> new short[length];
      case INT32, UINT32 -> new int[length];
      case INT64 -> new long[length];
      case STRING -> new byte[length][];
      default -> throw new IllegalArgumentException(type + " inputs are not supported");
    };
  }

  private static final long[] SCALAR = new long[0];

  /**
   * The shape of a value: nested sequences (checked rectangular), a vector, or a scalar. A
   * sequence of scalars is measured by its length alone (its elements are checked as they are
   * written), so a row of many numbers costs no walk of its own.
   */
  private static long[] shapeOf(Object value) throws BadValue {
    int length = length(value);
    if (length < 0) {
      return SCALAR;
    }
    if (length == 0 || value instanceof Vector || length(element(value, 0)) < 0) {
      return new long[] {length};
    }
    long[] inner = shapeOf(element(value, 0));
    for (int i = 1; i < length; i++) {
      if (!Arrays.equals(inner, shapeOf(element(value, i)))) {
        throw new BadValue("ragged: nested arrays of different lengths");
      }
    }
    long[] shape = new long[inner.length + 1];
    shape[0] = length;
    System.arraycopy(inner, 0, shape, 1, inner.length);
    return shape;
  }

  /** The length of a sequence value, or -1 for a scalar. */
  private static int length(Object value) throws BadValue {
    if (value instanceof scala.collection.Seq<?> seq) {
      return seq.length();
    }
    if (value instanceof List<?> list) {
      return list.size();
    }
    if (value instanceof Vector vector) {
      return vector.size();
    }
    if (value == null) {
      throw new BadValue("a null element");
    }
    return -1;
  }

  private static Object element(Object value, int i) {
    if (value instanceof scala.collection.Seq<?> seq) {
      return seq.apply(i);
    }
    return ((List<?>) value).get(i);
  }

  /** Writes the scalars of {@code value} in C order from {@code next[0]} up to {@code end}. */
  private void write(Object value, int[] next, int end) throws BadValue {
    if (value instanceof Vector vector) {
      if (next[0] + vector.size() > end) {
        throw new BadValue("a vector of " + vector.size() + " where " + spec.describe()
            + " is expected");
      }
      for (double d : vector.toArray()) {
        put(next[0]++, d);
      }
      return;
    }
    int length = length(value);
    if (length < 0) {
      if (next[0] >= end) {
        throw new BadValue("ragged: more elements than the row's shape "
            + Arrays.toString(rowShape));
      }
      put(next[0]++, value);
      return;
    }
    for (int i = 0; i < length; i++) {
      write(element(value, i), next, end);
    }
  }

  private void put(int index, Object scalar) throws BadValue {
    DataType type = spec.dataType();
    if (values instanceof byte[][] a) {
      a[index] = bytes(scalar);
    } else if (values instanceof float[] a) {
      a[index] = (float) real(scalar);
    } else if (values instanceof double[] a) {
      a[index] = real(scalar);
    } else if (values instanceof byte[] a) {
      a[index] = (byte) (type == DataType.BOOL ? integer(scalar, 0, 1)
          : type == DataType.UINT8 ? integer(scalar, 0, 255) : integer(scalar, -128, 127));
    } else if (values instanceof short[] a) {
      a[index] = (short) (type == DataType.UINT16 ? integer(scalar, 0, 65535)
          : integer(scalar, Short.MIN_VALUE, Short.MAX_VALUE));
    } else if (values instanceof int[] a) {
      a[index] = (int) (type == DataType.UINT32 ? integer(scalar, 0, 0xFFFF_FFFFL)
          : integer(scalar, Integer.MIN_VALUE, Integer.MAX_VALUE));
    } else {
      ((long[]) values)[index] = integer(scalar, Long.MIN_VALUE, Long.MAX_VALUE);
    }
  }

  private static double real(Object scalar) throws BadValue {
    if (scalar instanceof Number number) {
      return number.doubleValue();
    }
    if (scalar instanceof Boolean b) {
      return b ? 1 : 0;
    }
    throw new BadValue("'" + scalar + "' is not a number");
  }

  /** A whole number in [min, max]; a fraction or an out-of-range value is a bad value. */
  private static long integer(Object scalar, long min, long max) throws BadValue {
    long value;
    if (scalar instanceof Boolean b) {
      value = b ? 1 : 0;
    } else if (scalar instanceof Double || scalar instanceof Float) {
      double d = ((Number) scalar).doubleValue();
      if (d != Math.rint(d) || Double.isInfinite(d)) {
        throw new BadValue(d + " is not a whole number");
      }
      value = (long) d;
    } else if (scalar instanceof Number number) {
      value = number.longValue();
    } else {
      throw new BadValue("'" + scalar + "' is not a number");
    }
    if (value < min || value > max) {
      throw new BadValue(value + " is out of range [" + min + ", " + max + "]");
    }
    return value;
  }

  private static byte[] bytes(Object scalar) throws BadValue {
    if (scalar instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    if (scalar instanceof byte[] b) {
      return b;
    }
    throw new BadValue("'" + scalar + "' is not a string");
  }
}
