package io.tfjni.numpy;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;

/**
 * An array read from a NumPy .npy file (see {@link Npy}), held on the Java heap until it becomes
 * a {@link Tensor}: its dtype, its shape and its elements in C order, little-endian.
 *
 * <p>Numeric and bool arrays carry raw element bytes; NumPy byte-string ({@code S}) and unicode
 * ({@code U}) arrays become {@link DataType#STRING} elements (unicode encoded as UTF-8, trailing
 * NULs dropped as NumPy does). Raw {@code V} (void) arrays, which is how NumPy stores TensorFlow's
 * bfloat16, read as {@link DataType#BFLOAT16} when two bytes wide and may be reinterpreted as any
 * TensorFlow dtype of the same width with {@link #toTensor(DataType)}.
 */
public final class NpyArray {
  /** Dtypes that NumPy has no native type for and stores as raw bytes ({@code V}, or ml_dtypes). */
  private static final Set<DataType> RAW_TYPES = Set.of(DataType.BFLOAT16,
      DataType.FLOAT8_E5M2, DataType.FLOAT8_E4M3FN, DataType.FLOAT8_E4M3FNUZ,
      DataType.FLOAT8_E4M3B11FNUZ, DataType.FLOAT8_E5M2FNUZ, DataType.INT4, DataType.UINT4,
      DataType.INT2, DataType.UINT2, DataType.FLOAT4_E2M1FN,
      DataType.QINT8, DataType.QUINT8, DataType.QINT16, DataType.QUINT16, DataType.QINT32);

  private final String descr;
  private final DataType dataType;
  private final long[] shape;
  private final byte[] data;
  private final byte[][] strings;
  private final int rawWidth;

  private NpyArray(String descr, DataType dataType, long[] shape, byte[] data, byte[][] strings,
      int rawWidth) {
    this.descr = descr;
    this.dataType = dataType;
    this.shape = shape;
    this.data = data;
    this.strings = strings;
    this.rawWidth = rawWidth;
  }

  /**
   * A fixed-size array.
   *
   * @param descr the NumPy type string, e.g. {@code <f4}
   * @param dataType the TensorFlow dtype it becomes by default, of fixed size
   * @param shape the dimensions (copied)
   * @param data every element, little-endian, in C order (kept, not copied)
   * @return the array
   * @throws IllegalArgumentException if {@code data} does not hold the shape's elements of the
   *     dtype, or a dimension is negative
   */
  public static NpyArray ofData(String descr, DataType dataType, long[] shape, byte[] data) {
    Objects.requireNonNull(dataType, "dataType");
    long elements = Tensor.elementCount(shape);
    if (!dataType.isFixedSize() || data.length != elements * dataType.byteSize()) {
      throw new IllegalArgumentException(dataType + " " + Arrays.toString(shape) + " needs "
          + (dataType.isFixedSize() ? elements * dataType.byteSize() + " bytes" : "strings")
          + ", got " + data.length + " bytes");
    }
    return new NpyArray(descr, dataType, shape.clone(), data, null, 0);
  }

  /** Raw elements of {@code width} bytes (a NumPy void dtype). */
  static NpyArray ofRaw(String descr, int width, long[] shape, byte[] data) {
    DataType guess = width == 2 ? DataType.BFLOAT16 : null;
    return new NpyArray(descr, guess, shape.clone(), data, null, width);
  }

  /**
   * A string array.
   *
   * @param descr the NumPy type string, e.g. {@code |S5}
   * @param shape the dimensions (copied)
   * @param strings each element's bytes, in C order (kept, not copied)
   * @return the array
   * @throws IllegalArgumentException if the strings' count is not the shape's element count
   */
  public static NpyArray ofStrings(String descr, long[] shape, byte[][] strings) {
    long elements = Tensor.elementCount(shape);
    if (strings.length != elements) {
      throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has " + elements
          + " elements, got " + strings.length + " strings");
    }
    return new NpyArray(descr, DataType.STRING, shape.clone(), null, strings, 0);
  }

  /**
   * The NumPy type string of the file's header.
   *
   * @return e.g. {@code <f4} or {@code |S5}
   */
  public String descr() {
    return descr;
  }

  /**
   * The TensorFlow dtype it becomes by default; null for a raw (void) dtype that has no default
   * TensorFlow type.
   *
   * @return the dtype, or null
   */
  public DataType dataType() {
    return dataType;
  }

  /**
   * Whether it is a NumPy void dtype ({@code V}): raw bytes that may be any dtype of that width.
   *
   * @return true for raw bytes
   */
  public boolean isRaw() {
    return rawWidth > 0;
  }

  /**
   * The array's dimensions.
   *
   * @return a copy; empty for a scalar
   */
  public long[] shape() {
    return shape.clone();
  }

  /**
   * The number of elements.
   *
   * @return the product of the dimensions (1 for a scalar)
   */
  public long elementCount() {
    return Tensor.elementCount(shape);
  }

  /**
   * The elements' bytes.
   *
   * @return little-endian element bytes in C order (a copy)
   * @throws IllegalStateException for a string array
   */
  public byte[] data() {
    if (data == null) {
      throw new IllegalStateException("a string array has no fixed-size data");
    }
    return data.clone();
  }

  /**
   * The elements of a string array.
   *
   * @return copies of each element's bytes, in C order
   * @throws IllegalStateException if the array holds no strings
   */
  public byte[][] strings() {
    if (strings == null) {
      throw new IllegalStateException("a " + descr + " array holds no strings");
    }
    byte[][] copy = new byte[strings.length][];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = strings[i].clone();
    }
    return copy;
  }

  /**
   * Whether {@link #toTensor(DataType)} accepts {@code wanted}.
   *
   * @param wanted a dtype
   * @return true if the array can become a tensor of it
   */
  public boolean convertsTo(DataType wanted) {
    if (wanted == dataType) {
      return true;
    }
    return isRaw() && RAW_TYPES.contains(wanted) && wanted.byteSize() == rawWidth;
  }

  /**
   * A new tensor of the default dtype.
   *
   * @return the tensor, owned by the caller: close it
   * @throws IllegalArgumentException for a raw (void) array, which has no default dtype
   */
  public Tensor toTensor() {
    if (dataType == null) {
      throw new IllegalArgumentException("a " + descr + " array has no default TensorFlow dtype");
    }
    return toTensor(dataType);
  }

  /**
   * A new tensor (close it) of dtype {@code wanted}, which must be this array's dtype, or, for raw
   * (void) data, a TensorFlow dtype of the same width that NumPy stores as raw bytes (bfloat16,
   * float8, int4, quantized types).
   *
   * @param wanted the tensor's dtype
   * @return the tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the array cannot become a tensor of {@code wanted}
   */
  public Tensor toTensor(DataType wanted) {
    Objects.requireNonNull(wanted, "wanted");
    if (!convertsTo(wanted)) {
      throw new IllegalArgumentException("a " + describe() + " array cannot be a " + wanted
          + " tensor");
    }
    if (wanted == DataType.STRING) {
      return Tensor.ofBytes(strings, shape);
    }
    ByteBuffer buffer = Tensor.allocateAlignedBuffer(data.length);
    buffer.put(littleEndianToNative(data, componentWidth(wanted))).flip();
    return Tensor.of(wanted, buffer, shape);
  }

  /**
   * A short description for messages.
   *
   * @return e.g. {@code "float32 [2, 3]"} or {@code "raw 2-byte (<V2) [4]"}
   */
  public String describe() {
    String type = isRaw() ? "raw " + rawWidth + "-byte (" + descr + ")"
        : dataType == DataType.STRING ? "string (" + descr + ")" : Dtypes.pythonName(dataType);
    return type + " " + Arrays.toString(shape);
  }

  @Override
  public String toString() {
    return "NpyArray(" + describe() + ")";
  }

  static int componentWidth(DataType type) {
    return type.componentsPerElement() == 0 ? 1 : type.byteSize() / type.componentsPerElement();
  }

  static byte[] littleEndianToNative(byte[] bytes, int width) {
    if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN || width <= 1) {
      return bytes;
    }
    return Npy.swapBytes(bytes, width);
  }
}
