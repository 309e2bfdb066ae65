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
  INVALID(0, 0, null, 0),
  FLOAT(1, 4, float.class, 1),
  DOUBLE(2, 8, double.class, 1),
  INT32(3, 4, int.class, 1),
  UINT8(4, 1, byte.class, 1),
  INT16(5, 2, short.class, 1),
  INT8(6, 1, byte.class, 1),
  STRING(7, 0, null, 0),
  COMPLEX64(8, 8, float.class, 2),
  INT64(9, 8, long.class, 1),
  BOOL(10, 1, boolean.class, 1),
  QINT8(11, 1, byte.class, 1),
  QUINT8(12, 1, byte.class, 1),
  QINT32(13, 4, int.class, 1),
  BFLOAT16(14, 2, short.class, 1),
  QINT16(15, 2, short.class, 1),
  QUINT16(16, 2, short.class, 1),
  UINT16(17, 2, short.class, 1),
  COMPLEX128(18, 16, double.class, 2),
  HALF(19, 2, short.class, 1),
  RESOURCE(20, 0, null, 0),
  VARIANT(21, 0, null, 0),
  UINT32(22, 4, int.class, 1),
  UINT64(23, 8, long.class, 1),
  FLOAT8_E5M2(24, 1, byte.class, 1),
  FLOAT8_E4M3FN(25, 1, byte.class, 1),
  FLOAT8_E4M3FNUZ(26, 1, byte.class, 1),
  FLOAT8_E4M3B11FNUZ(27, 1, byte.class, 1),
  FLOAT8_E5M2FNUZ(28, 1, byte.class, 1),
  INT4(29, 1, byte.class, 1),
  UINT4(30, 1, byte.class, 1),
  INT2(31, 1, byte.class, 1),
  UINT2(32, 1, byte.class, 1),
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

  /** TensorFlow's enum value ({@code TF_DataType}). */
  public int code() {
    return code;
  }

  /** Bytes per element; 0 for strings and other variable-size types. */
  public int byteSize() {
    return byteSize;
  }

  public boolean isFixedSize() {
    return byteSize > 0;
  }

  /** The primitive type of a Java array holding this type's elements, or null. */
  public Class<?> javaComponent() {
    return javaComponent;
  }

  /** How many array components make one element (2 for complex types, else 1). */
  public int componentsPerElement() {
    return componentsPerElement;
  }

  /** True for HALF, BFLOAT16, FLOAT and DOUBLE. */
  public boolean isFloatingPoint() {
    return this == HALF || this == BFLOAT16 || this == FLOAT || this == DOUBLE;
  }

  /** True for the signed and unsigned integer types (not the quantized ones). */
  public boolean isInteger() {
    return isSigned() || isUnsigned();
  }

  /** True for UINT8, UINT16, UINT32 and UINT64. */
  public boolean isUnsigned() {
    return this == UINT8 || this == UINT16 || this == UINT32 || this == UINT64;
  }

  private boolean isSigned() {
    return this == INT8 || this == INT16 || this == INT32 || this == INT64;
  }

  public static DataType fromCode(int code) {
    DataType t = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    if (t == null) {
      throw new IllegalArgumentException("unknown TensorFlow dtype code " + code);
    }
    return t;
  }
}
