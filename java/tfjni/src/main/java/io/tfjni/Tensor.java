package io.tfjni;

import io.tfjni.internal.CoreAccess;
import io.tfjni.internal.NativeLibrary;
import io.tfjni.internal.NativeResource;
import io.tfjni.internal.PackedStrings;
import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A TensorFlow tensor in native memory, freed by {@link #close()} (never by the garbage
 * collector).
 *
 * <p>Create one from a Java array ({@link #of(float[], long...)}, copied once), over a direct
 * buffer ({@link #of(DataType, ByteBuffer, long...)}, zero-copy when 64-byte aligned), or as
 * TensorFlow-allocated memory to fill in place ({@link #allocate(DataType, long...)} then {@link
 * #buffer()}). Strings are {@link #ofStrings(String[], long...)} (UTF-8) or {@link
 * #ofBytes(byte[][], long...)} (arbitrary bytes).
 *
 * <p>Thread safety: reading from several threads is safe; closing while another thread uses the
 * tensor waits for that use to end. A {@link #buffer()} view must not be used after close.
 * Tensors returned by a run are read-only: they may share memory with the model.
 */
// Its base lives in io.tfjni.internal, which is not exported: users see its public methods only.
@SuppressWarnings("exports")
public final class Tensor extends NativeResource {
  static {
    CoreAccess.install(new CoreBridge());  // for tfjni's packages outside io.tfjni
  }

  /** TensorFlow's alignment for tensor memory; wrapped buffers must meet it to avoid a copy. */
  public static final int ALIGNMENT = 64;

  private final boolean writable;
  private DataType dataType;
  private long[] shape;

  private Tensor(long handle, boolean writable) {
    super(handle);
    this.writable = writable;
  }

  /** Whether the caller may write this tensor's memory (it made it; not a run's output). */
  boolean isWritable() {
    return writable;
  }

  /** Closes this holder and hands its native tensor to the caller (a result reusing it). */
  long takeHandle() {
    return closeAndTake();
  }

  /** Takes ownership of a native tensor made elsewhere in tfjni (e.g. an eager result). */
  static Tensor adopt(long handle) {
    return new Tensor(handle, false);
  }

  /**
   * An empty holder that a {@link RunResult} fills with outputs of {@code dataType}: the graph
   * output's type, which no run can change, so reading it costs no native call.
   */
  static Tensor outputHolder(DataType dataType) {
    Tensor holder = new Tensor(0, false);
    holder.dataType = dataType;
    return holder;
  }

  /**
   * A zero-filled tensor in TensorFlow's memory; fill it in place through {@link #buffer()}.
   *
   * @param dataType a fixed-size type
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException for a type of variable size (STRING) or a negative dimension
   */
  public static Tensor allocate(DataType dataType, long... shape) {
    checkFixedSize(dataType);
    elementCount(shape);
    NativeLibrary.ensureLoaded();
    return new Tensor(nativeAllocate(dataType.code(), shape.clone()), true);
  }

  /**
   * A FLOAT tensor holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the data's length is not the shape's element count, or a
   *     dimension is negative
   */
  public static Tensor of(float[] data, long... shape) {
    return of(DataType.FLOAT, data, shape);
  }

  /**
   * A DOUBLE tensor holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the data's length is not the shape's element count, or a
   *     dimension is negative
   */
  public static Tensor of(double[] data, long... shape) {
    return of(DataType.DOUBLE, data, shape);
  }

  /**
   * A INT32 tensor holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the data's length is not the shape's element count, or a
   *     dimension is negative
   */
  public static Tensor of(int[] data, long... shape) {
    return of(DataType.INT32, data, shape);
  }

  /**
   * A INT64 tensor holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the data's length is not the shape's element count, or a
   *     dimension is negative
   */
  public static Tensor of(long[] data, long... shape) {
    return of(DataType.INT64, data, shape);
  }

  /**
   * A BOOL tensor holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the data's length is not the shape's element count, or a
   *     dimension is negative
   */
  public static Tensor of(boolean[] data, long... shape) {
    return of(DataType.BOOL, data, shape);
  }

  /**
   * A FLOAT scalar.
   *
   * @param value the value
   * @return a new tensor, owned by the caller: close it
   */
  public static Tensor scalar(float value) {
    return of(new float[] {value});
  }

  /**
   * A DOUBLE scalar.
   *
   * @param value the value
   * @return a new tensor, owned by the caller: close it
   */
  public static Tensor scalar(double value) {
    return of(new double[] {value});
  }

  /**
   * A INT32 scalar.
   *
   * @param value the value
   * @return a new tensor, owned by the caller: close it
   */
  public static Tensor scalar(int value) {
    return of(new int[] {value});
  }

  /**
   * A INT64 scalar.
   *
   * @param value the value
   * @return a new tensor, owned by the caller: close it
   */
  public static Tensor scalar(long value) {
    return of(new long[] {value});
  }

  /**
   * A BOOL scalar.
   *
   * @param value the value
   * @return a new tensor, owned by the caller: close it
   */
  public static Tensor scalar(boolean value) {
    return of(new boolean[] {value});
  }

  /**
   * A tensor of any fixed-size type from a primitive array of matching width (see {@link
   * DataType#javaComponent()}): e.g. {@code byte[]} for UINT8, {@code short[]} bits for HALF.
   *
   * @param dataType a fixed-size type
   * @param primitiveArray the elements, copied (complex types: (re, im) pairs)
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the array's type does not match {@code dataType}, its
   *     length is not the shape's, or a dimension is negative
   */
  public static Tensor of(DataType dataType, Object primitiveArray, long... shape) {
    Objects.requireNonNull(primitiveArray, "data");
    long elements = elementCount(shape);
    long bytes = checkArray(dataType, primitiveArray, elements);
    NativeLibrary.ensureLoaded();
    return new Tensor(
        nativeFromArray(dataType.code(), shape.clone(), primitiveArray, bytes), true);
  }

  /**
   * A tensor over the remaining bytes of {@code data}, in native byte order. A direct buffer in
   * native order whose position is 64-byte aligned is used in place (zero-copy: keep it unchanged
   * while the tensor is fed); any other buffer is copied. The buffer must hold exactly the shape's
   * bytes.
   *
   * @param dataType a fixed-size type
   * @param data the elements' bytes, from its position to its limit (its position is not moved)
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the remaining bytes are not the shape's, the type has no
   *     fixed size, or a dimension is negative
   */
  public static Tensor of(DataType dataType, ByteBuffer data, long... shape) {
    Objects.requireNonNull(data, "data");
    checkFixedSize(dataType);
    long elements = elementCount(shape);
    if (elements > Long.MAX_VALUE / dataType.byteSize()) {
      throw new IllegalArgumentException("a " + dataType + " tensor of shape "
          + Arrays.toString(shape) + " has more bytes than fit in a long");
    }
    long bytes = elements * dataType.byteSize();
    if (data.remaining() != bytes) {
      throw new IllegalArgumentException("a " + dataType + " tensor of shape "
          + Arrays.toString(shape) + " needs " + bytes + " bytes, the buffer has "
          + data.remaining());
    }
    NativeLibrary.ensureLoaded();
    if (isZeroCopyCandidate(data)) {
      return new Tensor(nativeWrap(dataType.code(), shape.clone(), data, data.position(), bytes),
          true);
    }
    Tensor tensor = allocate(dataType, shape);
    try {
      if (bytes > 0) {
        tensor.buffer().put(data.duplicate());
      }
      return tensor;
    } catch (RuntimeException e) {
      tensor.close();
      throw e;
    }
  }

  /**
   * Whether {@link #of(DataType, ByteBuffer, long...)} would use this buffer in place.
   *
   * @param data a buffer
   * @return true for a writable direct buffer in native order whose position is 64-byte aligned
   */
  public static boolean isZeroCopyCandidate(ByteBuffer data) {
    return data.isDirect() && !data.isReadOnly() && data.order() == ByteOrder.nativeOrder()
        && data.alignmentOffset(data.position(), ALIGNMENT) == 0;
  }

  /**
   * A direct buffer whose start is 64-byte aligned, for zero-copy tensors.
   *
   * @param capacity its size in bytes
   * @return a buffer in native byte order, freed by the garbage collector like any direct buffer
   */
  public static ByteBuffer allocateAlignedBuffer(int capacity) {
    ByteBuffer raw = ByteBuffer.allocateDirect(capacity + ALIGNMENT);
    int skip = (ALIGNMENT - raw.alignmentOffset(0, ALIGNMENT)) % ALIGNMENT;
    return raw.position(skip).limit(skip + capacity).slice().order(ByteOrder.nativeOrder());
  }

  /**
   * A STRING tensor holding each value's UTF-8 bytes.
   *
   * @param values the elements, in row-major order
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the data's length is not the shape's element count, or a
   *     dimension is negative
   */
  public static Tensor ofStrings(String[] values, long... shape) {
    Objects.requireNonNull(values, "values");
    checkStringCount(values.length, shape);
    return ofPackedStrings(PackedStrings.ofUtf8(values), shape);
  }

  /**
   * A STRING tensor holding arbitrary bytes per element.
   *
   * @param values the elements' bytes (copied), in row-major order
   * @param shape the dimensions; none for a scalar
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the data's length is not the shape's element count, or a
   *     dimension is negative
   */
  public static Tensor ofBytes(byte[][] values, long... shape) {
    Objects.requireNonNull(values, "values");
    checkStringCount(values.length, shape);
    return ofPackedStrings(PackedStrings.of(values), shape);
  }

  private static void checkStringCount(int values, long[] shape) {
    long elements = elementCount(shape);
    if (elements != values) {
      throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has " + elements
          + " elements, got " + values + " values");
    }
  }

  /** A STRING tensor of packed elements, made in one native call (which checks the count). */
  static Tensor ofPackedStrings(PackedStrings strings, long... shape) {
    NativeLibrary.ensureLoaded();
    return new Tensor(nativeFromStrings(shape.clone(), strings.bytes(), strings.ends()), true);
  }

  /**
   * The tensor's data type.
   *
   * @return the type
   * @throws IllegalStateException if the tensor is closed
   */
  public DataType dataType() {
    DataType cached = dataType;
    if (cached == null) {
      long h = acquire();
      try {
        cached = DataType.fromCode(nativeDtype(h));
      } finally {
        release();
      }
      dataType = cached;
    } else {
      checkOpen();
    }
    return cached;
  }

  /**
   * The tensor's dimensions.
   *
   * @return a copy; empty for a scalar
   * @throws IllegalStateException if the tensor is closed
   */
  public long[] shape() {
    return shapeRef().clone();
  }

  /**
   * One dimension, without copying the shape.
   *
   * @param index the dimension's index, 0 for the first
   * @return its size
   * @throws IndexOutOfBoundsException if the tensor has no such dimension
   * @throws IllegalStateException if the tensor is closed
   */
  public long dimension(int index) {
    return shapeRef()[index];
  }

  /**
   * The number of dimensions.
   *
   * @return 0 for a scalar
   * @throws IllegalStateException if the tensor is closed
   */
  public int rank() {
    return shapeRef().length;
  }

  /**
   * The number of elements.
   *
   * @return the product of the dimensions (1 for a scalar)
   * @throws IllegalStateException if the tensor is closed
   */
  public long numElements() {
    long n = 1;
    for (long d : shapeRef()) {
      n *= d;
    }
    return n;
  }

  /**
   * The size of the tensor's memory.
   *
   * @return bytes (for strings, of the fixed-size string headers)
   * @throws IllegalStateException if the tensor is closed
   */
  public long byteSize() {
    long h = acquire();
    try {
      return nativeByteSize(h);
    } finally {
      release();
    }
  }

  /**
   * A direct buffer over the tensor's own memory, in native byte order; read-only for tensors a
   * run returned. Valid until the tensor is closed. Not for string tensors.
   *
   * @return a view of the tensor's memory (not a copy)
   * @throws IllegalArgumentException for a type of variable size (STRING)
   * @throws IllegalStateException if the tensor is closed
   */
  public ByteBuffer buffer() {
    checkFixedSize(dataType());
    long h = acquire();
    try {
      ByteBuffer view = nativeBuffer(h);
      if (view == null) {
        view = ByteBuffer.allocateDirect(0);
      }
      view.order(ByteOrder.nativeOrder());
      return writable ? view : view.asReadOnlyBuffer().order(ByteOrder.nativeOrder());
    } finally {
      release();
    }
  }

  /**
   * Copies every element into {@code primitiveArray}, whose type must match the data type (see
   * {@link DataType#javaComponent()}) and whose length must be the element count. Allocates
   * nothing.
   *
   * @param primitiveArray the destination
   * @throws IllegalArgumentException if its type or length does not match, or the tensor has no
   *     fixed-size elements
   * @throws IllegalStateException if the tensor is closed
   */
  public void copyTo(Object primitiveArray) {
    Objects.requireNonNull(primitiveArray, "destination");
    DataType type = dataType();
    if (!type.isFixedSize()) {
      throw new IllegalArgumentException("a " + type + " tensor has no fixed-size elements"
          + (type == DataType.STRING ? "; read it with toStringArray or toBytesArray" : ""));
    }
    long arrayBytes = arrayBytes(type, primitiveArray);
    long h = acquire();
    try {
      // One crossing: native code copies only if the sizes match, and returns the tensor's size
      // (sized by bytes rather than by shape: reading the shape would allocate on every run).
      long tensorBytes = nativeCopyToArray(h, primitiveArray, arrayBytes);
      if (tensorBytes != arrayBytes) {
        checkArray(type, primitiveArray, tensorBytes / type.byteSize());  // throws, saying why
      }
    } finally {
      release();
    }
  }

  /**
   * A copy of the elements of FLOAT, in row-major order
   * (see {@link DataType#javaComponent()}).
   *
   * @return a new array
   * @throws IllegalStateException if the data type's elements are not {@code float}s
   * @throws IllegalStateException if the tensor is closed
   */
  public float[] toFloatArray() {
    return (float[]) toArray(float.class);
  }

  /**
   * A copy of the elements of DOUBLE, in row-major order
   * (see {@link DataType#javaComponent()}).
   *
   * @return a new array
   * @throws IllegalStateException if the data type's elements are not {@code double}s
   * @throws IllegalStateException if the tensor is closed
   */
  public double[] toDoubleArray() {
    return (double[]) toArray(double.class);
  }

  /**
   * A copy of the elements of a type held as {@code int}s (INT32, UINT32, QINT32), in row-major
   * order (see {@link DataType#javaComponent()}).
   *
   * @return a new array
   * @throws IllegalStateException if the data type's elements are not {@code int}s
   * @throws IllegalStateException if the tensor is closed
   */
  public int[] toIntArray() {
    return (int[]) toArray(int.class);
  }

  /**
   * A copy of the elements of a type held as {@code long}s (INT64, UINT64), in row-major order
   * (see {@link DataType#javaComponent()}).
   *
   * @return a new array
   * @throws IllegalStateException if the data type's elements are not {@code long}s
   * @throws IllegalStateException if the tensor is closed
   */
  public long[] toLongArray() {
    return (long[]) toArray(long.class);
  }

  /**
   * A copy of the elements of a type held as {@code short}s (e.g. INT16, HALF bits), in row-major
   * order (see {@link DataType#javaComponent()}).
   *
   * @return a new array
   * @throws IllegalStateException if the data type's elements are not {@code short}s
   * @throws IllegalStateException if the tensor is closed
   */
  public short[] toShortArray() {
    return (short[]) toArray(short.class);
  }

  /**
   * A copy of the elements of a type held as {@code byte}s (e.g. UINT8, INT8), in row-major order
   * (see {@link DataType#javaComponent()}).
   *
   * @return a new array
   * @throws IllegalStateException if the data type's elements are not {@code byte}s
   * @throws IllegalStateException if the tensor is closed
   */
  public byte[] toByteArray() {
    return (byte[]) toArray(byte.class);
  }

  /**
   * A copy of the elements of BOOL, in row-major order
   * (see {@link DataType#javaComponent()}).
   *
   * @return a new array
   * @throws IllegalStateException if the data type's elements are not {@code boolean}s
   * @throws IllegalStateException if the tensor is closed
   */
  public boolean[] toBooleanArray() {
    return (boolean[]) toArray(boolean.class);
  }

  /**
   * The elements of a STRING tensor as raw bytes.
   *
   * @return a copy of each element's bytes, in row-major order
   * @throws IllegalStateException if the tensor is not a STRING tensor, or is closed
   */
  public byte[][] toBytesArray() {
    return packedStrings().toArrays();
  }

  /** Every element of a STRING tensor, read in one native call. */
  PackedStrings packedStrings() {
    if (dataType() != DataType.STRING) {
      throw new IllegalStateException("a " + dataType() + " tensor holds no strings");
    }
    int[] ends = new int[Math.toIntExact(numElements())];
    long h = acquire();
    try {
      return new PackedStrings(nativeReadStrings(h, ends), ends);
    } finally {
      release();
    }
  }

  /**
   * The elements of a STRING tensor decoded as UTF-8 (malformed bytes become U+FFFD).
   *
   * @return the strings, in row-major order
   * @throws IllegalStateException if the tensor is not a STRING tensor, or is closed
   */
  public String[] toStringArray() {
    byte[][] bytes = toBytesArray();
    String[] values = new String[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      values[i] = new String(bytes[i], StandardCharsets.UTF_8);
    }
    return values;
  }

  @Override
  public String toString() {
    if (isClosed()) {
      return "Tensor(closed)";
    }
    return "Tensor(" + dataType() + ", " + Arrays.toString(shapeRef()) + ")";
  }

  /** Refills this output holder with a new native tensor. */
  void attach(long handle) {
    // Result holders are refilled from the same graph tensor, whose dtype never changes: the
    // cached dataType stays (reading it again would cost a native call per run).
    shape = null;
    reopen(handle);
  }

  @Override
  protected void free(long handle) {
    nativeDelete(handle);
  }

  /** The cached shape itself, not a copy: for the library's own reads, never handed out. */
  long[] shapeRef() {
    long[] cached = shape;
    if (cached == null) {
      long h = acquire();
      try {
        cached = nativeShape(h);
      } finally {
        release();
      }
      shape = cached;
    } else {
      checkOpen();
    }
    return cached;
  }

  /** The cached dtype and shape outlive the native tensor: use after close must still throw. */
  private void checkOpen() {
    if (isClosed()) {
      throw new IllegalStateException("Tensor is closed");
    }
  }

  private Object toArray(Class<?> component) {
    DataType type = dataType();
    if (type.javaComponent() != component) {
      throw new IllegalStateException("a " + type + " tensor does not read into a " + component
          + "[]" + (type.javaComponent() != null ? "; use " + type.javaComponent() + "[]" : ""));
    }
    Object array = Array.newInstance(component,
        Math.toIntExact(numElements() * type.componentsPerElement()));
    copyTo(array);
    return array;
  }

  /**
   * The number of elements of a shape ({@code 1} for a scalar); {@link IllegalArgumentException}
   * for a negative dimension or a count that overflows a {@code long}.
   *
   * @param shape the dimensions
   * @return the product of the dimensions
   */
  public static long elementCount(long... shape) {
    Objects.requireNonNull(shape, "shape");
    long count = 1;
    for (long d : shape) {
      if (d < 0) {
        throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(shape));
      }
    }
    try {
      for (long d : shape) {
        count = Math.multiplyExact(count, d);
      }
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has too many elements");
    }
    return count;
  }

  private static void checkFixedSize(DataType dataType) {
    Objects.requireNonNull(dataType, "dataType");
    if (!dataType.isFixedSize()) {
      throw new IllegalArgumentException(dataType + " has no fixed-size elements"
          + (dataType == DataType.STRING ? "; use ofStrings or ofBytes" : ""));
    }
  }

  /** Checks a primitive array against a dtype and element count; returns its size in bytes. */
  /** The bytes a primitive array of {@code dataType}'s component holds, or -1 for any other. */
  private static long arrayBytes(DataType dataType, Object array) {
    Class<?> component = array.getClass().getComponentType();
    if (component == null || component != dataType.javaComponent()) {
      return -1;
    }
    long length = Array.getLength(array);
    int perElement = dataType.componentsPerElement();
    return length % perElement != 0 ? -1 : length / perElement * dataType.byteSize();
  }

  private static long checkArray(DataType dataType, Object array, long elements) {
    checkFixedSize(dataType);
    Class<?> component = array.getClass().getComponentType();
    if (component == null || component != dataType.javaComponent()) {
      throw new IllegalArgumentException("a " + dataType + " tensor needs a "
          + dataType.javaComponent() + "[], got " + array.getClass().getSimpleName());
    }
    long length = Array.getLength(array);
    if (length != elements * dataType.componentsPerElement()) {
      throw new IllegalArgumentException("the array has " + length + " values but the shape needs "
          + elements * dataType.componentsPerElement());
    }
    return elements * dataType.byteSize();
  }

  private static native long nativeAllocate(int dtype, long[] shape);

  private static native long nativeFromArray(int dtype, long[] shape, Object array, long bytes);

  private static native long nativeWrap(int dtype, long[] shape, Buffer buffer, long offset,
      long bytes);

  private static native long nativeFromStrings(long[] shape, byte[] bytes, int[] ends);

  private static native int nativeDtype(long handle);

  private static native long[] nativeShape(long handle);

  private static native long nativeByteSize(long handle);

  private static native ByteBuffer nativeBuffer(long handle);

  /** Copies the tensor into the array if it holds {@code bytes}; returns the tensor's byte size. */
  private static native long nativeCopyToArray(long handle, Object array, long bytes);

  private static native byte[] nativeReadStrings(long handle, int[] ends);

  private static native void nativeDelete(long handle);
}
