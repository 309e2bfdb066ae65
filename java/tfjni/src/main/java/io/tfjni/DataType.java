package io.tfjni;

/**
 * TensorFlow's data types, with the Java array type that holds their elements. Fixed-size types
 * map to a primitive array of the same width: e.g. {@code UINT16} and {@code HALF} to raw
 * {@code short} bits, {@code UINT8} to {@code byte}, {@code COMPLEX64} to (re, im) float pairs.
 *
 * <p>Every type of TensorFlow 2.21 is here, by its {@code types.proto} name. The float8, float4,
 * 4-bit and 2-bit types are raw {@code byte}s, one element per byte as TensorFlow stores them;
 * a libtensorflow older than a type (2.18 lacks codes 26 to 28 and 31 to 33, 2.19 31 to 33,
 * 2.20 33) holds its tensors but runs no op on them.
 */
public enum DataType {
  /** Not a type: TensorFlow's DT_INVALID. */
  INVALID(0, 0, null, 0),
  /** 32-bit IEEE float ({@code tf.float32}). */
  FLOAT(1, 4, float.class, 1),
  /** 64-bit IEEE float ({@code tf.float64}). */
  DOUBLE(2, 8, double.class, 1),
  /** 32-bit signed integer. */
  INT32(3, 4, int.class, 1),
  /** 8-bit unsigned integer, held as raw {@code byte}s. */
  UINT8(4, 1, byte.class, 1),
  /** 16-bit signed integer. */
  INT16(5, 2, short.class, 1),
  /** 8-bit signed integer. */
  INT8(6, 1, byte.class, 1),
  /** Byte strings of any length ({@code tf.string}). */
  STRING(7, 0, null, 0),
  /** Complex number of two 32-bit floats, held as (re, im) float pairs. */
  COMPLEX64(8, 8, float.class, 2),
  /** 64-bit signed integer. */
  INT64(9, 8, long.class, 1),
  /** Boolean, one byte per element. */
  BOOL(10, 1, boolean.class, 1),
  /** Quantized 8-bit signed integer. */
  QINT8(11, 1, byte.class, 1),
  /** Quantized 8-bit unsigned integer. */
  QUINT8(12, 1, byte.class, 1),
  /** Quantized 32-bit signed integer. */
  QINT32(13, 4, int.class, 1),
  /** 16-bit brain float, held as raw {@code short} bits. */
  BFLOAT16(14, 2, short.class, 1),
  /** Quantized 16-bit signed integer. */
  QINT16(15, 2, short.class, 1),
  /** Quantized 16-bit unsigned integer. */
  QUINT16(16, 2, short.class, 1),
  /** 16-bit unsigned integer, held as raw {@code short} bits. */
  UINT16(17, 2, short.class, 1),
  /** Complex number of two 64-bit floats, held as (re, im) double pairs. */
  COMPLEX128(18, 16, double.class, 2),
  /** 16-bit IEEE float ({@code tf.float16}), held as raw {@code short} bits. */
  HALF(19, 2, short.class, 1),
  /** A handle to a resource (a variable, a table); no Java array holds it. */
  RESOURCE(20, 0, null, 0),
  /** An arbitrary C++ value (a list, a dataset); no Java array holds it. */
  VARIANT(21, 0, null, 0),
  /** 32-bit unsigned integer, held as raw {@code int} bits. */
  UINT32(22, 4, int.class, 1),
  /** 64-bit unsigned integer, held as raw {@code long} bits. */
  UINT64(23, 8, long.class, 1),
  /** 8-bit float, 5 exponent and 2 mantissa bits. */
  FLOAT8_E5M2(24, 1, byte.class, 1),
  /** 8-bit float, 4 exponent and 3 mantissa bits, no infinities. */
  FLOAT8_E4M3FN(25, 1, byte.class, 1),
  /** 8-bit float, 4 exponent and 3 mantissa bits, no infinities, NaN at negative zero's code. */
  FLOAT8_E4M3FNUZ(26, 1, byte.class, 1),
  /** 8-bit float, 4 exponent (bias 11), 3 mantissa bits, no infinities, NaN at -0's code. */
  FLOAT8_E4M3B11FNUZ(27, 1, byte.class, 1),
  /** 8-bit float, 5 exponent and 2 mantissa bits, no infinities, NaN at negative zero's code. */
  FLOAT8_E5M2FNUZ(28, 1, byte.class, 1),
  /** 4-bit signed integer, one per byte. */
  INT4(29, 1, byte.class, 1),
  /** 4-bit unsigned integer, one per byte. */
  UINT4(30, 1, byte.class, 1),
  /** 2-bit signed integer, one per byte. */
  INT2(31, 1, byte.class, 1),
  /** 2-bit unsigned integer, one per byte. */
  UINT2(32, 1, byte.class, 1),
  /** 4-bit float, 2 exponent and 1 mantissa bit, finite values only, one per byte. */
  FLOAT4_E2M1FN(33, 1, byte.class, 1);

  private static final DataType[] BY_CODE = new DataType[34];

  static {
    for (DataType t : values()) {
      BY_CODE[t.code] = t;
    }
  }

  private final int code;
  private final int byteSize;
  private final Class<?> javaComponent;
  private final int componentsPerElement;

  DataType(int code, int byteSize, Class<?> javaComponent, int componentsPerElement) {
    this.code = code;
    this.byteSize = byteSize;
    this.javaComponent = javaComponent;
    this.componentsPerElement = componentsPerElement;
  }

  /**
   * TensorFlow's enum value ({@code TF_DataType}).
   *
   * @return the code, e.g. 1 for FLOAT
   */
  public int code() {
    return code;
  }

  /**
   * The size of one element.
   *
   * @return bytes per element; 0 for strings and other variable-size types
   */
  public int byteSize() {
    return byteSize;
  }

  /**
   * Whether every element has the same byte size.
   *
   * @return true unless the type is STRING, RESOURCE, VARIANT or INVALID
   */
  public boolean isFixedSize() {
    return byteSize > 0;
  }

  /**
   * The primitive type of a Java array holding this type's elements.
   *
   * @return e.g. {@code float.class} for FLOAT; null for types no primitive array holds
   */
  public Class<?> javaComponent() {
    return javaComponent;
  }

  /**
   * How many array components make one element.
   *
   * @return 2 for complex types, 0 for types no primitive array holds, else 1
   */
  public int componentsPerElement() {
    return componentsPerElement;
  }

  /**
   * Whether it is one of the floating-point types Java arithmetic covers.
   *
   * @return true for HALF, BFLOAT16, FLOAT and DOUBLE (not the float8 and float4 types)
   */
  public boolean isFloatingPoint() {
    return this == HALF || this == BFLOAT16 || this == FLOAT || this == DOUBLE;
  }

  /**
   * Whether it is an integer type.
   *
   * @return true for the signed and unsigned integer types of 8 to 64 bits (not the quantized or
   *     4- and 2-bit ones)
   */
  public boolean isInteger() {
    return isSigned() || isUnsigned();
  }

  /**
   * Whether it is an unsigned integer type.
   *
   * @return true for UINT8, UINT16, UINT32 and UINT64
   */
  public boolean isUnsigned() {
    return this == UINT8 || this == UINT16 || this == UINT32 || this == UINT64;
  }

  private boolean isSigned() {
    return this == INT8 || this == INT16 || this == INT32 || this == INT64;
  }

  /**
   * The type of a TensorFlow enum value.
   *
   * @param code a {@code TF_DataType} value
   * @return the type
   * @throws IllegalArgumentException if no type has this code
   */
  public static DataType fromCode(int code) {
    DataType t = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    if (t == null) {
      throw new IllegalArgumentException("unknown TensorFlow dtype code " + code);
    }
    return t;
  }
}
