package io.tfjni;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * One row of a batch-major signature input or output: the tensor's dtype and its shape after the
 * batch dimension. This is the row rule that batching, the Spark transformer and the Flink
 * functions share: the first dimension is the batch and the only one allowed to be unknown for a
 * row given as a Java array; a row's element count; what a row given as an array must be; and
 * how a number becomes an element of an integer input (whole and in the dtype's range). A row that
 * breaks it throws {@link InvalidRowException}, naming the input and the problem.
 *
 * <p>Serializable, so a plan that holds one can travel to a cluster's workers.
 */
public final class RowSpec implements Serializable {
  private static final long serialVersionUID = 1;
  private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64)
      .subtract(BigInteger.ONE);

  /** {@code input} or {@code output}, for messages. */
  private final String role;
  /** The signature's spec, batch-major. */
  private final TensorSpec spec;
  /** The spec's key. */
  private final String key;
  /** The spec's dtype. */
  private final DataType dataType;
  /** The spec's dimensions after the batch. */
  private final long[] shape;
  /** Elements in one row, or -1 while a dimension after the batch is unknown. */
  private final long elements;

  private RowSpec(String role, TensorSpec spec, long[] shape) {
    this.role = role;
    this.spec = spec;
    this.key = spec.key();
    this.dataType = spec.dataType();
    this.shape = shape;
    long count = 1;
    for (long d : shape) {
      count = d < 0 || count < 0 ? -1 : Math.multiplyExact(count, d);
    }
    this.elements = count;
  }

  /**
   * The row of a batch-major tensor: one of known rank whose first dimension is unknown (-1),
   * the batch. Dimensions after it may be unknown; {@link #arrayLength()} refuses those.
   *
   * @param spec a signature input's or output's spec
   * @param role {@code input} or {@code output}, for messages
   * @return the spec's row
   * @throws IllegalArgumentException if the spec has an unknown rank or is not batch-major
   */
  public static RowSpec of(TensorSpec spec, String role) {
    long[] full = spec.shape();
    if (full == null) {
      throw new IllegalArgumentException(role + " '" + spec.key() + "' has an unknown rank: rows"
          + " need to know which dimension is the batch");
    }
    if (full.length == 0 || full[0] != -1) {
      throw new IllegalArgumentException(role + " '" + spec.key() + "' has shape "
          + Arrays.toString(full) + ", which is not batch-major: rows need a first dimension of"
          + " unknown size, the batch");
    }
    return new RowSpec(role, spec, Arrays.copyOfRange(full, 1, full.length));
  }

  /**
   * The key of the input or output.
   *
   * @return the signature key
   */
  public String key() {
    return key;
  }

  /**
   * The tensor's element type.
   *
   * @return the dtype
   */
  public DataType dataType() {
    return dataType;
  }

  /**
   * The shape of one row: the tensor's dimensions after the batch, -1 where unknown.
   *
   * @return a copy of the row's dimensions; empty for a row of one element
   */
  public long[] shape() {
    return shape.clone();
  }

  /**
   * The number of dimensions of one row.
   *
   * @return the tensor's rank minus one
   */
  public int rank() {
    return shape.length;
  }

  /**
   * The elements in one row.
   *
   * @return the product of the row's dimensions, or -1 if one of them is unknown
   */
  public long elements() {
    return elements;
  }

  /**
   * The length of a Java array that holds one row, flattened in row-major order: the row's
   * elements times the array values per element (2 for a complex dtype, 1 for a string).
   *
   * @return the array's length
   * @throws IllegalArgumentException if a dimension after the batch is unknown: only the batch
   *     dimension may be unknown for a row given as an array
   */
  public int arrayLength() {
    if (elements < 0) {
      throw new IllegalArgumentException(role + " '" + key + "' has shape "
          + batchShape() + ": only the batch dimension may be unknown in a row given as"
          + " an array");
    }
    int perElement = dataType == DataType.STRING ? 1 : dataType.componentsPerElement();
    return Math.toIntExact(Math.multiplyExact(elements, perElement));
  }

  /**
   * Whether a row of {@code rowShape} fits: the same rank, and each known dimension the same
   * ({@link TensorSpec#acceptsRow}).
   *
   * @param rowShape a row's dimensions
   * @return true if it fits
   */
  public boolean accepts(long[] rowShape) {
    return spec.acceptsRow(rowShape);
  }

  /**
   * What a row is, for messages: the dtype and the row's shape, e.g. {@code FLOAT [8, 8, 1] per
   * row}.
   *
   * @return the description
   */
  public String describe() {
    return dataType + " " + Arrays.toString(shape) + " per row";
  }

  /**
   * Checks a row given as a Java array: {@code array} must be the dtype's {@link
   * DataType#javaComponent()} array ({@code String[]} or {@code byte[][]} without nulls for
   * STRING) of {@link #arrayLength()} values.
   *
   * @param array the row, flattened in row-major order
   * @throws InvalidRowException if it is null, another array or of another length
   * @throws IllegalArgumentException if a dimension after the batch is unknown
   */
  public void checkArray(Object array) {
    int length = arrayLength();
    if (array == null) {
      throw new InvalidRowException(key, "is null");
    }
    boolean strings = dataType == DataType.STRING;
    if (strings ? !(array instanceof String[] || array instanceof byte[][])
        : array.getClass() != dataType.javaComponent().arrayType()) {
      throw new InvalidRowException(key, "is a " + array.getClass().getSimpleName()
          + ", the signature wants " + dataType + " (a " + (strings ? "String[] or byte[][]"
              : dataType.javaComponent().getName() + "[]") + ")");
    }
    int actual = java.lang.reflect.Array.getLength(array);
    if (actual != length) {
      throw new InvalidRowException(key, "has " + actual + " elements, a row of the signature's "
          + batchShape() + " has " + length);
    }
    if (strings) {
      Object[] values = (Object[]) array;
      for (int i = 0; i < values.length; i++) {
        if (values[i] == null) {
          throw new InvalidRowException(key, "has a null at element " + i);
        }
      }
    }
  }

  /**
   * A whole number as an element of this integer (or BOOL) input.
   *
   * @param value the number
   * @param element the element's index in the row, for the message
   * @return {@code value}, which is in the dtype's range
   * @throws InvalidRowException if it is out of the dtype's range (negative for UINT64)
   * @throws IllegalStateException if the dtype is not an integer type or BOOL
   */
  public long toInteger(long value, int element) {
    long min = min();
    boolean fits = dataType == DataType.UINT64 ? value >= 0 : value >= min && value <= max();
    if (!fits) {
      throw outOfRange(Long.toString(value), element);
    }
    return value;
  }

  /**
   * A floating-point number as an element of this integer (or BOOL) input: it must be whole
   * (not NaN, not infinite) and in the dtype's range.
   *
   * @param value the number
   * @param element the element's index in the row, for the message
   * @return the number as a long; for UINT64, its 64 bits (values from 2<sup>63</sup> on are
   *     negative longs)
   * @throws InvalidRowException if it is not whole or out of the dtype's range
   * @throws IllegalStateException if the dtype is not an integer type or BOOL
   */
  public long toInteger(double value, int element) {
    long min = min();
    if (value != Math.rint(value) || Double.isInfinite(value)) {
      throw notWhole(Double.toString(value), element, Double.isNaN(value) ? "not a number"
          : Double.isInfinite(value) ? "infinite" : "not a whole number");
    }
    // Every range's lower end is exact as a double, and so is the end after its upper one.
    double end = switch (dataType) {
      case INT64 -> 0x1p63;
      case UINT64 -> 0x1p64;
      default -> max() + 1.0;
    };
    if (value < min || value >= end) {
      throw outOfRange(Double.toString(value), element);
    }
    return value >= 0x1p63 ? (long) (value - 0x1p63) ^ Long.MIN_VALUE : (long) value;
  }

  /**
   * A decimal as an element of this integer (or BOOL) input: it must be whole and in the dtype's
   * range.
   *
   * @param value the number
   * @param element the element's index in the row, for the message
   * @return the number as a long; for UINT64, its 64 bits
   * @throws InvalidRowException if it is not whole or out of the dtype's range
   * @throws IllegalStateException if the dtype is not an integer type or BOOL
   */
  public long toInteger(BigDecimal value, int element) {
    long min = min();
    BigInteger whole;
    try {
      whole = value.toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw notWhole(value.toString(), element, "not a whole number");
    }
    BigInteger max = dataType == DataType.UINT64 ? UINT64_MAX : BigInteger.valueOf(max());
    if (whole.compareTo(BigInteger.valueOf(min)) < 0 || whole.compareTo(max) > 0) {
      throw outOfRange(value.toString(), element);
    }
    return whole.longValue();
  }

  /** The signature's shape, the batch first, for messages. */
  private String batchShape() {
    return Arrays.toString(spec.shape());
  }

  private long min() {
    return switch (dataType) {
      case INT8 -> Byte.MIN_VALUE;
      case INT16 -> Short.MIN_VALUE;
      case INT32 -> Integer.MIN_VALUE;
      case INT64 -> Long.MIN_VALUE;
      case BOOL, UINT8, UINT16, UINT32, UINT64 -> 0;
      default -> throw new IllegalStateException(role + " '" + key + "' is " + dataType
          + ", which takes no integers");
    };
  }

  /** The largest value; UINT64's does not fit a long and is handled where it matters. */
  private long max() {
    return switch (dataType) {
      case BOOL -> 1;
      case INT8 -> Byte.MAX_VALUE;
      case UINT8 -> 0xFF;
      case INT16 -> Short.MAX_VALUE;
      case UINT16 -> 0xFFFF;
      case INT32 -> Integer.MAX_VALUE;
      case UINT32 -> 0xFFFF_FFFFL;
      case INT64, UINT64 -> Long.MAX_VALUE;
      default -> min();  // throws
    };
  }

  private InvalidRowException notWhole(String value, int element, String why) {
    String name = dataType.name();
    return new InvalidRowException(key, "has " + value + " at element " + element + ", not "
        + (name.startsWith("I") ? "an " : "a ") + name + " (" + why + ")");
  }

  private InvalidRowException outOfRange(String value, int element) {
    String max = dataType == DataType.UINT64 ? UINT64_MAX.toString() : Long.toString(max());
    return new InvalidRowException(key, "has " + value + " at element " + element + ", out of "
        + dataType + "'s range [" + min() + ", " + max + "]");
  }
}
