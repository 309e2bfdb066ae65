package io.tfjni.eager;

import io.tfjni.DataType;
import io.tfjni.Predictor;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.internal.CoreAccess;
import io.tfjni.internal.NativeResource;
import io.tfjni.internal.TensorFlowVersions;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * An eager array: one native TensorFlow tensor handle, owned by an {@link NDManager}. Ops on it
 * run at once on the manager's {@link EagerContext} and return new arrays in the same manager.
 * Close it on its own, or let its manager close it.
 *
 * <p>Thread safety: an array may be read, and used as an input, from several threads; closing it
 * waits for the ops that use it.
 *
 * <p>Errors: an op on a closed array, with a closed input or in a closed manager throws
 * {@link IllegalStateException}; an op TensorFlow refuses (mismatched dtypes or shapes, an axis
 * out of range) throws {@link TensorFlowException} with TensorFlow's message and code.
 */
// Its base lives in io.tfjni.internal, which is not exported: users see its public methods only.
@SuppressWarnings("exports")
public final class NDArray extends NativeResource {
  private final NDManager manager;
  /** Neighbours in the manager's list of open arrays; guarded by the manager's lock. */
  NDArray previousInManager;
  NDArray nextInManager;

  NDArray(NDManager manager, long handle) {
    super(handle);
    this.manager = manager;
    manager.attach(this);
  }

  /**
   * The manager this array belongs to.
   *
   * @return the manager, which closes this array when it closes
   */
  public NDManager getManager() {
    return manager;
  }

  /**
   * The array's data type.
   *
   * @return the type
   * @throws IllegalStateException if the array is closed
   */
  public DataType dataType() {
    long h = acquire();
    try {
      return DataType.fromCode(nativeDtype(h));
    } finally {
      release();
    }
  }

  /**
   * The array's dimensions.
   *
   * @return a new array; empty for a scalar
   * @throws IllegalStateException if the array is closed
   */
  public long[] shape() {
    long h = acquire();
    try {
      return nativeShape(h);
    } finally {
      release();
    }
  }

  /**
   * The number of elements.
   *
   * @return the product of the dimensions (1 for a scalar)
   * @throws IllegalStateException if the array is closed
   */
  public long size() {
    long n = 1;
    for (long d : shape()) {
      n *= d;
    }
    return n;
  }

  /**
   * The device holding the value.
   *
   * @return its full name, e.g. {@code "/job:localhost/replica:0/task:0/device:CPU:0"}
   * @throws IllegalStateException if the array is closed
   */
  public String device() {
    long h = acquire();
    try {
      return nativeDevice(h);
    } finally {
      release();
    }
  }

  /**
   * The value as a tensor the caller owns (close it), e.g. to feed a {@link Predictor}. In host
   * memory no copy is made.
   *
   * @return a new read-only tensor, owned by the caller: close it
   * @throws IllegalStateException if the array is closed
   */
  public Tensor toTensor() {
    long h = acquire();
    try {
      return CoreAccess.get().adopt(nativeToTensor(h));
    } finally {
      release();
    }
  }

  /**
   * A copy on another device, in the same manager.
   *
   * @param deviceName a device of the context, e.g. {@code "/device:GPU:0"}
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray toDevice(String deviceName) {
    Objects.requireNonNull(deviceName, "deviceName");
    EagerContext context = manager.context();
    long ctx = NativeResource.acquire(context);
    try {
      long h = acquire();
      try {
        return new NDArray(manager, nativeCopyToDevice(ctx, h, deviceName));
      } finally {
        release();
      }
    } finally {
      NativeResource.release(context);
    }
  }

  /**
   * A copy of the elements, in row-major order, as {@link Tensor#toFloatArray()} reads them.
   *
   * @return a new array
   * @throws IllegalStateException if the elements are not {@code float}s, or the array is closed
   */
  public float[] toFloatArray() {
    try (Tensor t = toTensor()) {
      return t.toFloatArray();
    }
  }

  /**
   * A copy of the elements, in row-major order, as {@link Tensor#toDoubleArray()} reads them.
   *
   * @return a new array
   * @throws IllegalStateException if the elements are not {@code double}s, or the array is closed
   */
  public double[] toDoubleArray() {
    try (Tensor t = toTensor()) {
      return t.toDoubleArray();
    }
  }

  /**
   * A copy of the elements, in row-major order, as {@link Tensor#toIntArray()} reads them.
   *
   * @return a new array
   * @throws IllegalStateException if the elements are not {@code int}s, or the array is closed
   */
  public int[] toIntArray() {
    try (Tensor t = toTensor()) {
      return t.toIntArray();
    }
  }

  /**
   * A copy of the elements, in row-major order, as {@link Tensor#toLongArray()} reads them.
   *
   * @return a new array
   * @throws IllegalStateException if the elements are not {@code long}s, or the array is closed
   */
  public long[] toLongArray() {
    try (Tensor t = toTensor()) {
      return t.toLongArray();
    }
  }

  /**
   * A copy of the elements, in row-major order, as {@link Tensor#toBooleanArray()} reads them.
   *
   * @return a new array
   * @throws IllegalStateException if the elements are not {@code boolean}s, or the array is closed
   */
  public boolean[] toBooleanArray() {
    try (Tensor t = toTensor()) {
      return t.toBooleanArray();
    }
  }

  /**
   * A copy of the elements, in row-major order, as {@link Tensor#toByteArray()} reads them.
   *
   * @return a new array
   * @throws IllegalStateException if the elements are not {@code byte}s, or the array is closed
   */
  public byte[] toByteArray() {
    try (Tensor t = toTensor()) {
      return t.toByteArray();
    }
  }

  /**
   * A copy of the elements, in row-major order, as {@link Tensor#toShortArray()} reads them.
   *
   * @return a new array
   * @throws IllegalStateException if the elements are not {@code short}s, or the array is closed
   */
  public short[] toShortArray() {
    try (Tensor t = toTensor()) {
      return t.toShortArray();
    }
  }

  /**
   * The elements of a STRING array decoded as UTF-8, as {@link Tensor#toStringArray()} reads them.
   *
   * @return the strings, in row-major order
   * @throws IllegalStateException if the array is not a STRING array, or is closed
   */
  public String[] toStringArray() {
    try (Tensor t = toTensor()) {
      return t.toStringArray();
    }
  }

  /**
   * The elements of a STRING array as raw bytes.
   *
   * @return a copy of each element's bytes, in row-major order
   * @throws IllegalStateException if the array is not a STRING array, or is closed
   */
  public byte[][] toBytesArray() {
    try (Tensor t = toTensor()) {
      return t.toBytesArray();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Element-wise arithmetic. Binary ops broadcast (numpy rules); both inputs must have the same
  // dtype. The Number overloads make a scalar of this array's dtype (see NDManager#scalar).

  /**
   * {@code this + other} (AddV2; for STRING arrays, concatenation).
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray add(NDArray other) {
    return binary(dataType() == DataType.STRING ? "Add" : "AddV2", other);
  }

  /**
   * {@code this + value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray add(Number value) {
    return binaryScalar("AddV2", value);
  }

  /**
   * {@code this - other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sub(NDArray other) {
    return binary("Sub", other);
  }

  /**
   * {@code this - value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sub(Number value) {
    return binaryScalar("Sub", value);
  }

  /**
   * {@code this * other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray mul(NDArray other) {
    return binary("Mul", other);
  }

  /**
   * {@code this * value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray mul(Number value) {
    return binaryScalar("Mul", value);
  }

  /**
   * {@code this / other}: true division for floating-point and complex types (RealDiv); for
   * integer types rounded toward zero like Java's {@code /} (Div; tf.math.truncatediv).
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray div(NDArray other) {
    return binary(divOp(), other);
  }

  /**
   * {@code this / value} (see {@link #div(NDArray)}).
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray div(Number value) {
    return binaryScalar(divOp(), value);
  }

  /**
   * Division rounded toward negative infinity (FloorDiv, Python's {@code //}).
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray floorDiv(NDArray other) {
    return binary("FloorDiv", other);
  }

  /**
   * Division by a scalar rounded toward negative infinity.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray floorDiv(Number value) {
    return binaryScalar("FloorDiv", value);
  }

  /**
   * The remainder of {@link #floorDiv}: has the sign of the divisor, like Python's {@code %}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray mod(NDArray other) {
    return binary("FloorMod", other);
  }

  /**
   * The remainder of a division by a scalar, with the sign of the divisor.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray mod(Number value) {
    return binaryScalar("FloorMod", value);
  }

  /**
   * {@code this} to the power {@code other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray pow(NDArray other) {
    return binary("Pow", other);
  }

  /**
   * {@code this} to the power {@code value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray pow(Number value) {
    return binaryScalar("Pow", value);
  }

  /**
   * The element-wise larger value.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray maximum(NDArray other) {
    return binary("Maximum", other);
  }

  /**
   * The element-wise larger of this and a scalar.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray maximum(Number value) {
    return binaryScalar("Maximum", value);
  }

  /**
   * The element-wise smaller value.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray minimum(NDArray other) {
    return binary("Minimum", other);
  }

  /**
   * The element-wise smaller of this and a scalar.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray minimum(Number value) {
    return binaryScalar("Minimum", value);
  }

  /**
   * {@code (this - other)^2}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray squaredDifference(NDArray other) {
    return binary("SquaredDifference", other);
  }

  // ---------------------------------------------------------------------------------------------
  // Comparisons (BOOL results, broadcasting) and logical ops on BOOL arrays.

  /**
   * {@code this == other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray eq(NDArray other) {
    return binary("Equal", other);
  }

  /**
   * {@code this == value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray eq(Number value) {
    return binaryScalar("Equal", value);
  }

  /**
   * {@code this != other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray neq(NDArray other) {
    return binary("NotEqual", other);
  }

  /**
   * {@code this != value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray neq(Number value) {
    return binaryScalar("NotEqual", value);
  }

  /**
   * {@code this > other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gt(NDArray other) {
    return binary("Greater", other);
  }

  /**
   * {@code this > value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gt(Number value) {
    return binaryScalar("Greater", value);
  }

  /**
   * {@code this >= other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gte(NDArray other) {
    return binary("GreaterEqual", other);
  }

  /**
   * {@code this >= value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gte(Number value) {
    return binaryScalar("GreaterEqual", value);
  }

  /**
   * {@code this < other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray lt(NDArray other) {
    return binary("Less", other);
  }

  /**
   * {@code this < value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray lt(Number value) {
    return binaryScalar("Less", value);
  }

  /**
   * {@code this <= other}.
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray lte(NDArray other) {
    return binary("LessEqual", other);
  }

  /**
   * {@code this <= value}.
   *
   * @param value a scalar operand, converted to this array's dtype (see
   *     {@link NDManager#scalar(DataType, Number)})
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray lte(Number value) {
    return binaryScalar("LessEqual", value);
  }

  /**
   * Logical AND of BOOL arrays.
   *
   * @param other a BOOL array, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray logicalAnd(NDArray other) {
    return binary("LogicalAnd", other);
  }

  /**
   * Logical OR of BOOL arrays.
   *
   * @param other a BOOL array, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray logicalOr(NDArray other) {
    return binary("LogicalOr", other);
  }

  /**
   * Logical exclusive OR of BOOL arrays (computed as NotEqual).
   *
   * @param other a BOOL array, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray logicalXor(NDArray other) {
    if (dataType() != DataType.BOOL) {
      throw new IllegalArgumentException("logicalXor needs BOOL arrays, not " + dataType());
    }
    return binary("NotEqual", other);
  }

  /**
   * Logical NOT of a BOOL array.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray logicalNot() {
    return unary("LogicalNot");
  }

  // ---------------------------------------------------------------------------------------------
  // Element-wise math.

  /**
   * e to the power of each element.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray exp() {
    return unary("Exp");
  }

  /**
   * The natural logarithm.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray log() {
    return unary("Log");
  }

  /**
   * {@code log(1 + x)}, accurate for small x.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray log1p() {
    return unary("Log1p");
  }

  /**
   * The base-10 logarithm, {@code log(x) / log(10)}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray log10() {
    return logBase(10);
  }

  /**
   * The base-2 logarithm, {@code log(x) / log(2)}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray log2() {
    return logBase(2);
  }

  private NDArray logBase(double base) {
    try (NDArray ln = log()) {
      return ln.div(Math.log(base));
    }
  }

  /**
   * The square root.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sqrt() {
    return unary("Sqrt");
  }

  /**
   * {@code 1 / sqrt(x)}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray rsqrt() {
    return unary("Rsqrt");
  }

  /**
   * {@code x * x}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray square() {
    return unary("Square");
  }

  /**
   * The real cube root, negative for negative elements (numpy.cbrt): {@code sign(x) * |x|^(1/3)}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray cbrt() {
    try (NDArray s = sign(); NDArray a = abs(); NDArray root = a.pow(1.0 / 3)) {
      return s.mul(root);
    }
  }

  /**
   * The absolute value.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray abs() {
    return unary("Abs");
  }

  /**
   * {@code -x}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray neg() {
    return unary("Neg");
  }

  /**
   * -1, 0 or 1 by the sign of each element (0 for zeros; NaN stays NaN).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sign() {
    return unary("Sign");
  }

  /**
   * The largest integer value not greater than each element; of integers and booleans, a copy
   * (TensorFlow's Floor takes floats only).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray floor() {
    return hasNoFraction() ? copy() : unary("Floor");
  }

  /**
   * The smallest integer value not less than each element; of integers and booleans, a copy.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray ceil() {
    return hasNoFraction() ? copy() : unary("Ceil");
  }

  /**
   * Each element rounded toward zero (numpy.trunc); of integers and booleans, a copy.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray trunc() {
    if (hasNoFraction()) {
      return copy();
    }
    try (NDArray s = sign(); NDArray a = abs(); NDArray f = a.floor()) {
      return s.mul(f);
    }
  }

  /** Whether the elements are whole by type: rounding them changes nothing. */
  private boolean hasNoFraction() {
    return dataType().isInteger() || dataType() == DataType.BOOL;
  }

  /**
   * Rounds to the nearest integer value, halves to even (banker's rounding, like tf.round).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray round() {
    return unary("Round");
  }

  /**
   * The sine.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sin() {
    return unary("Sin");
  }

  /**
   * The cosine.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray cos() {
    return unary("Cos");
  }

  /**
   * The tangent.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray tan() {
    return unary("Tan");
  }

  /**
   * The arc sine.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray asin() {
    return unary("Asin");
  }

  /**
   * The arc cosine.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray acos() {
    return unary("Acos");
  }

  /**
   * The arc tangent.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray atan() {
    return unary("Atan");
  }

  /**
   * The hyperbolic sine.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sinh() {
    return unary("Sinh");
  }

  /**
   * The hyperbolic cosine.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray cosh() {
    return unary("Cosh");
  }

  /**
   * The hyperbolic tangent (also an activation).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray tanh() {
    return unary("Tanh");
  }

  /**
   * The Gauss error function.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray erf() {
    return unary("Erf");
  }

  /**
   * {@code 1 / x}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray reciprocal() {
    return unary("Reciprocal");
  }

  /**
   * The inverse hyperbolic sine.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray asinh() {
    return unary("Asinh");
  }

  /**
   * The inverse hyperbolic cosine (NaN below 1).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray acosh() {
    return unary("Acosh");
  }

  /**
   * The inverse hyperbolic tangent (NaN outside [-1, 1], infinite at its ends).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray atanh() {
    return unary("Atanh");
  }

  /**
   * The natural logarithm of the absolute value of the gamma function (tf.math.lgamma).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray lgamma() {
    return unary("Lgamma");
  }

  /**
   * The inverse of {@link #erf} (NaN outside [-1, 1]).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray erfinv() {
    return unary("Erfinv");
  }

  /**
   * The angle of the point ({@code other}, {@code this}) in radians, in [-pi, pi] (tf.math.atan2:
   * this array is y).
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray atan2(NDArray other) {
    return binary("Atan2", other);
  }

  /**
   * {@code this * log(other)}, 0 where this array is 0 (tf.math.xlogy).
   *
   * @param other the other operand, of this array's dtype, broadcast against this one
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray xlogy(NDArray other) {
    return binary("Xlogy", other);
  }

  /**
   * A copy of the value (Identity): a new array that closes on its own.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray copy() {
    return unary("Identity");
  }

  /**
   * BOOL: which elements are NaN.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray isNaN() {
    return unary("IsNan");
  }

  /**
   * BOOL: which elements are positive or negative infinity.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray isInf() {
    return unary("IsInf");
  }

  /**
   * Limits every element to [min, max] (ClipByValue; NaN stays NaN).
   *
   * @param min the lowest value kept, converted to this array's dtype
   * @param max the highest value kept, converted to this array's dtype
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray clip(Number min, Number max) {
    try (NDArray lo = scalarLike(min); NDArray hi = scalarLike(max)) {
      return op("ClipByValue").addInput(this).addInput(lo).addInput(hi).build();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Activations.

  /**
   * {@code x / (1 + |x|)}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray softsign() {
    return unary("Softsign");
  }

  /**
   * {@code max(x, 0)}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray relu() {
    return unary("Relu");
  }

  /**
   * {@code min(max(x, 0), 6)}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray relu6() {
    return unary("Relu6");
  }

  /**
   * {@code 1 / (1 + exp(-x))}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sigmoid() {
    return unary("Sigmoid");
  }

  /**
   * Softmax over the last axis.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray softmax() {
    return unary("Softmax");
  }

  /**
   * Softmax over {@code axis} (negative counts from the end), like tf.nn.softmax.
   *
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray softmax(int axis) {
    return alongLastAxis(axis, x -> x.unary("Softmax"));
  }

  /**
   * Log-softmax over the last axis.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray logSoftmax() {
    return unary("LogSoftmax");
  }

  /**
   * Log-softmax over {@code axis}, like tf.nn.log_softmax.
   *
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray logSoftmax(int axis) {
    return alongLastAxis(axis, x -> x.unary("LogSoftmax"));
  }

  /**
   * GELU, exact form: tf.nn.gelu(approximate=False), as the loaded TensorFlow's Python computes it
   * (see {@link #gelu(boolean)}).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gelu() {
    return gelu(false);
  }

  /**
   * GELU as tf.nn.gelu of the loaded TensorFlow computes it: exact, up to TensorFlow 2.18 as
   * {@code 0.5 x (1 + erf(x / sqrt(2)))} and from 2.19 on as {@code 0.5 x erfc(-x / sqrt(2))}
   * (which keeps the small values of large negative x), or, if {@code approximate},
   * {@code 0.5 x (1 + tanh(0.7978845608028654 (x + 0.044715 x^3)))}. The same ops in the same
   * order as TensorFlow Python, so results match it bit for bit; like it, sqrt(2), 1 / sqrt(2)
   * and 0.044715 are float constants even for DOUBLE arrays (Python casts them from float32).
   *
   * @param approximate true for the tanh approximation, false for the exact form
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gelu(boolean approximate) {
    if (!approximate && GeluForm.ERFC) {
      try (NDArray half = mul(0.5); NDArray negated = neg();
          NDArray arg = negated.mul(0.7071067811865476f); NDArray tail = arg.unary("Erfc")) {
        return half.mul(tail);
      }
    }
    try (NDArray half = mul(0.5)) {
      NDArray inner;
      if (approximate) {
        try (NDArray cube = pow(3); NDArray scaled = cube.mul(0.044715f);
            NDArray sum = add(scaled); NDArray arg = sum.mul(0.7978845608028654)) {
          inner = arg.tanh();
        }
      } else {
        try (NDArray arg = div(1.4142135623730951f)) {
          inner = arg.erf();
        }
      }
      try (inner; NDArray onePlus = inner.add(1)) {
        return half.mul(onePlus);
      }
    }
  }

  /** Which exact GELU the loaded TensorFlow's tf.nn.gelu computes: with erfc from 2.19 on. */
  private static final class GeluForm {
    static final boolean ERFC = TensorFlowVersions.atLeast(TensorFlow.version(), 2, 19);
  }

  /**
   * {@code x} if positive, else {@code exp(x) - 1}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray elu() {
    return unary("Elu");
  }

  /**
   * {@code x} if positive, else {@code alpha * (exp(x) - 1)} (keras' elu).
   *
   * @param alpha the scale of the negative part
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray elu(float alpha) {
    try (NDArray e = elu(); NDArray scaled = e.mul(alpha); NDArray negative = lt(0)) {
      return negative.where(scaled, e);
    }
  }

  /**
   * Scaled ELU with TensorFlow's constants.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray selu() {
    return unary("Selu");
  }

  /**
   * {@code log(exp(x) + 1)}.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray softplus() {
    return unary("Softplus");
  }

  /**
   * {@code x} if positive, else {@code 0.2 x} (tf.nn.leaky_relu's default alpha).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray leakyRelu() {
    return leakyRelu(0.2f);
  }

  /**
   * {@code x} if positive, else {@code alpha x}.
   *
   * @param alpha the slope for negative values
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray leakyRelu(float alpha) {
    return op("LeakyRelu").addInput(this).setAttr("alpha", alpha).build();
  }

  // ---------------------------------------------------------------------------------------------
  // Reductions: over all elements, or over axes (negative counts from the end), optionally keeping
  // the reduced axes with size 1. Integer means truncate, as in TensorFlow.

  /**
   * The sum of all elements.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sum() {
    return reduceAll("Sum");
  }

  /**
   * The sum over {@code axes}.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sum(int... axes) {
    return reduce("Sum", axes, false);
  }

  /**
   * The sum over {@code axes}, keeping them as size-1 dimensions if {@code keepDims}.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @param keepDims true to keep each reduced axis, with size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sum(int[] axes, boolean keepDims) {
    return reduce("Sum", axes, keepDims);
  }

  /**
   * The mean of all elements.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray mean() {
    return reduceAll("Mean");
  }

  /**
   * The mean over {@code axes}.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray mean(int... axes) {
    return reduce("Mean", axes, false);
  }

  /**
   * The mean over {@code axes}, optionally keeping them.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @param keepDims true to keep each reduced axis, with size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray mean(int[] axes, boolean keepDims) {
    return reduce("Mean", axes, keepDims);
  }

  /**
   * The largest element.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray max() {
    return reduceAll("Max");
  }

  /**
   * The maximum over {@code axes}.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray max(int... axes) {
    return reduce("Max", axes, false);
  }

  /**
   * The maximum over {@code axes}, optionally keeping them.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @param keepDims true to keep each reduced axis, with size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray max(int[] axes, boolean keepDims) {
    return reduce("Max", axes, keepDims);
  }

  /**
   * The smallest element.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray min() {
    return reduceAll("Min");
  }

  /**
   * The minimum over {@code axes}.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray min(int... axes) {
    return reduce("Min", axes, false);
  }

  /**
   * The minimum over {@code axes}, optionally keeping them.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @param keepDims true to keep each reduced axis, with size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray min(int[] axes, boolean keepDims) {
    return reduce("Min", axes, keepDims);
  }

  /**
   * The entrywise p-norm over {@code axes}, {@code (sum |x|^p)^(1/p)} (torch.linalg.vector_norm):
   * p = 0 counts the non-zero elements, p = infinity is the largest |x| and -infinity the
   * smallest; orders 1 and 2 skip the powers. Sums are in this array's type.
   *
   * @param p the order: any real number or an infinity
   * @param axes the axes to reduce; a negative one counts from the last
   * @param keepDims true to keep each reduced axis, with size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray norm(double p, int[] axes, boolean keepDims) {
    if (p == 2) {
      try (NDArray squares = mul(this); NDArray sum = squares.sum(axes, keepDims)) {
        return sum.sqrt();
      }
    }
    try (NDArray a = abs()) {
      if (p == 1) {
        return a.sum(axes, keepDims);
      } else if (p == 0) {
        try (NDArray nonZero = a.gt(0); NDArray counted = nonZero.cast(dataType())) {
          return counted.sum(axes, keepDims);
        }
      } else if (p == Double.POSITIVE_INFINITY) {
        return a.max(axes, keepDims);
      } else if (p == Double.NEGATIVE_INFINITY) {
        return a.min(axes, keepDims);
      }
      try (NDArray powers = a.pow(p); NDArray sum = powers.sum(axes, keepDims)) {
        return sum.pow(1 / p);
      }
    }
  }

  /**
   * The product of all elements.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray prod() {
    return reduceAll("Prod");
  }

  /**
   * The product over {@code axes}.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray prod(int... axes) {
    return reduce("Prod", axes, false);
  }

  /**
   * The product over {@code axes}, optionally keeping them.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @param keepDims true to keep each reduced axis, with size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray prod(int[] axes, boolean keepDims) {
    return reduce("Prod", axes, keepDims);
  }

  /**
   * Whether every element of a BOOL array is true.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray all() {
    return reduceAll("All");
  }

  /**
   * Logical AND over {@code axes}.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray all(int... axes) {
    return reduce("All", axes, false);
  }

  /**
   * Logical AND over {@code axes}, optionally keeping them.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @param keepDims true to keep each reduced axis, with size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray all(int[] axes, boolean keepDims) {
    return reduce("All", axes, keepDims);
  }

  /**
   * Whether any element of a BOOL array is true.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray any() {
    return reduceAll("Any");
  }

  /**
   * Logical OR over {@code axes}.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray any(int... axes) {
    return reduce("Any", axes, false);
  }

  /**
   * Logical OR over {@code axes}, optionally keeping them.
   *
   * @param axes the axes to reduce (none reduces nothing); a negative one counts from the last
   * @param keepDims true to keep each reduced axis, with size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray any(int[] axes, boolean keepDims) {
    return reduce("Any", axes, keepDims);
  }

  /**
   * Running sums along {@code axis}, the first element first (tf.math.cumsum).
   *
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray cumSum(int axis) {
    return cumulative("Cumsum", axis);
  }

  /**
   * Running products along {@code axis}, the first element first (tf.math.cumprod).
   *
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray cumProd(int axis) {
    return cumulative("Cumprod", axis);
  }

  /**
   * The {@code q}-th percentile over {@code axes}, those axes dropped (over all elements if none
   * are given), as numpy.percentile computes it by default: linear interpolation between the two
   * nearest ranks of the sorted values. For floating-point arrays.
   *
   * @param q the percentile, in [0, 100]
   * @param axes the axes to reduce; negative ones count from the last; none for all
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray percentile(double q, int... axes) {
    if (!(q >= 0 && q <= 100)) {
      throw new IllegalArgumentException("a percentile is in [0, 100], got " + q);
    }
    try (NDArray grouped = withAxesMergedLast(axes)) {
      return grouped.percentileOfLastAxis(q);
    }
  }

  /**
   * The {@code n}-th difference along {@code axis}: {@code n} times {@code x[1:] - x[:-1]}, each
   * time one element shorter (numpy.diff).
   *
   * @param n how many times to take the difference; 0 for a copy
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray diff(int n, int axis) {
    if (n < 0) {
      throw new IllegalArgumentException("diff needs n >= 0, got " + n);
    }
    int a = normalizedAxis(axis, shape().length);
    NDArray current = copy();
    for (int i = 0; i < n; i++) {
      current = replaced(current, x -> x.differenceAlong(a));
    }
    return current;
  }

  // ---------------------------------------------------------------------------------------------
  // Indices, top-k and sorting.

  /**
   * The INT64 index of the largest element in the flattened array (the first if tied).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray argMax() {
    try (NDArray flat = flatten()) {
      return flat.argMax(0);
    }
  }

  /**
   * INT64 indices of the largest elements along {@code axis} (the first if tied).
   *
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray argMax(int axis) {
    return indexReduce("ArgMax", axis);
  }

  /**
   * The INT64 index of the smallest element in the flattened array (the first if tied).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray argMin() {
    try (NDArray flat = flatten()) {
      return flat.argMin(0);
    }
  }

  /**
   * INT64 indices of the smallest elements along {@code axis} (the first if tied).
   *
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray argMin(int axis) {
    return indexReduce("ArgMin", axis);
  }

  /**
   * The {@code k} largest values along the last axis, largest first, and their INT32 indices
   * (equal values: lower index first): {@code {values, indices}}, like tf.math.top_k.
   *
   * @param k how many values, at most the last axis's size
   * @return new arrays in this array's manager (closed with it; closing one earlier frees it)
   */
  public NDArray[] topK(int k) {
    return topKOfLastAxis(k, true);
  }

  /**
   * The {@code k} largest or smallest values along {@code axis}, and their INT32 indices:
   * {@code {values, indices}}. Equal values: lower index first. Smallest-first ranks a key that
   * reverses the order and cannot overflow (see {@link #sort(int, boolean)}), so it holds for the
   * smallest integer and for unsigned types.
   *
   * @param k how many values, at most the axis's size
   * @param axis the axis; a negative one counts from the last
   * @param largest true for the largest values, largest first; false for the smallest, smallest
   *     first
   * @param sorted false lets TensorFlow return the k values in any order
   * @return new arrays in this array's manager (closed with it; closing one earlier frees it)
   */
  public NDArray[] topK(int k, int axis, boolean largest, boolean sorted) {
    DataType type = dataType();
    int[] perm = swapWithLastAxis(axis);
    NDArray key = largest ? this : orderReversingKey(type);
    try (NDArray moved = perm == null ? null : key.transpose(perm)) {
      NDArray[] found = (moved == null ? key : moved).topKOfLastAxis(k, sorted);
      if (!largest) {
        found[0] = replaced(found[0], v -> v.orderReversingKey(type));
      }
      if (perm != null) {
        for (int i = 0; i < found.length; i++) {
          found[i] = replaced(found[i], v -> v.transpose(perm));
        }
      }
      return found;
    } finally {
      if (key != this) {
        key.close();
      }
    }
  }

  /**
   * Sorted ascending along the last axis.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sort() {
    return sort(-1, false);
  }

  /**
   * Sorted along {@code axis}, ascending or descending, with tf.sort's results.
   *
   * @param axis the axis; a negative one counts from the last
   * @param descending true for largest first
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sort(int axis, boolean descending) {
    return sortOrArgSort(axis, descending, false);
  }

  /**
   * INT32 indices that sort the last axis ascending.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray argSort() {
    return argSort(-1, false);
  }

  /**
   * INT32 indices that sort {@code axis}, ascending or descending, as tf.argsort computes them
   * (equal values keep their order).
   *
   * @param axis the axis; a negative one counts from the last
   * @param descending true for largest first
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray argSort(int axis, boolean descending) {
    return sortOrArgSort(axis, descending, true);
  }

  // ---------------------------------------------------------------------------------------------
  // Matrix products.

  /**
   * The matrix product {@code this · other} as numpy.matmul computes it: of matrices, of stacks
   * of them (broadcasting the batch axes), and of vectors, a vector on the left being a row and on
   * the right a column, whose axis the product drops.
   *
   * @param other the right-hand matrix or vector, of this array's dtype
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray matMul(NDArray other) {
    Objects.requireNonNull(other, "other");
    int leftRank = shape().length;
    int rightRank = other.shape().length;
    if (leftRank == 0 || rightRank == 0) {
      throw new IllegalArgumentException("matMul: scalars are not matrices");
    }
    if (leftRank > 1 && rightRank > 1) {
      return matMul(other, false, false);
    }
    int[] dropped = leftRank == 1 && rightRank == 1 ? new int[] {-2, -1}
        : leftRank == 1 ? new int[] {-2} : new int[] {-1};
    try (NDArray row = leftRank == 1 ? expandDims(0) : null;
        NDArray column = rightRank == 1 ? other.expandDims(1) : null;
        NDArray product = (row == null ? this : row).matMul(column == null ? other : column,
            false, false)) {
      return product.squeeze(dropped);
    }
  }

  /**
   * The matrix product with either operand transposed first. Rank-2 operands use MatMul; higher
   * ranks are batches (BatchMatMulV2, broadcasting the batch dimensions), where for complex types
   * "transposed" means the adjoint, as in TensorFlow's batch op.
   *
   * @param other the right-hand matrix, of this array's dtype
   * @param transposeA true to transpose this array first
   * @param transposeB true to transpose {@code other} first
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray matMul(NDArray other, boolean transposeA, boolean transposeB) {
    Objects.requireNonNull(other, "other");
    if (shape().length == 2 && other.shape().length == 2) {
      return op("MatMul").addInput(this).addInput(other).setAttr("transpose_a", transposeA)
          .setAttr("transpose_b", transposeB).build();
    }
    return batchMatMul(other, transposeA, transposeB);
  }

  /**
   * Batched matrix product over the last two axes, broadcasting the batch axes.
   *
   * @param other the right-hand matrices, of this array's dtype
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray batchMatMul(NDArray other) {
    return batchMatMul(other, false, false);
  }

  /**
   * Batched matrix product, with either operand's matrices adjointed (transposed) first.
   *
   * @param other the right-hand matrices, of this array's dtype
   * @param adjointA true to take the adjoint (conjugate transpose) of this array first
   * @param adjointB true to take the adjoint (conjugate transpose) of {@code other} first
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray batchMatMul(NDArray other, boolean adjointA, boolean adjointB) {
    Objects.requireNonNull(other, "other");
    return op("BatchMatMulV2").addInput(this).addInput(other).setAttr("adj_x", adjointA)
        .setAttr("adj_y", adjointB).build();
  }

  /**
   * The inverses of the square matrices on the last two axes (tf.linalg.inv).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray inverse() {
    return unary("MatrixInverse");
  }

  /**
   * Diagonal {@code offset} of the matrices on the last two axes, as a new last axis
   * (tf.linalg.diag_part with k; above the main diagonal for a positive offset).
   *
   * @param offset the diagonal: 0 the main one, positive above it, negative below
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray diagonal(int offset) {
    try (NDArray k = manager.scalar(offset); NDArray padding = scalarLike(0)) {
      return op("MatrixDiagPartV3").addInput(this).addInput(k).addInput(padding).build();
    }
  }

  /**
   * Diagonal {@code offset} of the matrices on axes {@code axis1} (rows) and {@code axis2}
   * (columns), as a new last axis after the others (numpy.diagonal).
   *
   * @param offset the diagonal: 0 the main one, positive above it, negative below
   * @param axis1 the rows' axis; a negative one counts from the last
   * @param axis2 the columns' axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray diagonal(int offset, int axis1, int axis2) {
    int rank = shape().length;
    int a1 = normalizedAxis(axis1, rank);
    int a2 = normalizedAxis(axis2, rank);
    if (a1 == a2) {
      throw new IllegalArgumentException("diagonal needs two different axes, got " + axis1
          + " and " + axis2);
    }
    int[] perm = new int[rank];
    for (int i = 0, j = 0; i < rank; i++) {
      if (i != a1 && i != a2) {
        perm[j++] = i;
      }
    }
    perm[rank - 2] = a1;
    perm[rank - 1] = a2;
    try (NDArray moved = transpose(perm)) {
      return moved.diagonal(offset);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Shapes, indexing and combining.

  /**
   * The same elements in a new shape; one dimension may be -1 (inferred).
   *
   * @param newShape the new dimensions, one of them -1 to infer it from the size
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray reshape(long... newShape) {
    try (NDArray dims = manager.vector(newShape)) {
      return op("Reshape").addInput(this).addInput(dims).build();
    }
  }

  /**
   * Axes {@code startAxis} to {@code endAxis}, both included, merged into one (torch.flatten).
   *
   * @param startAxis the first axis merged; a negative one counts from the last
   * @param endAxis the last axis merged, not before {@code startAxis}
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray flatten(int startAxis, int endAxis) {
    long[] dims = shape();
    int first = normalizedAxis(startAxis, dims.length);
    int last = normalizedAxis(endAxis, dims.length);
    if (last < first) {
      throw new IllegalArgumentException("flatten: axis " + endAxis + " is before axis "
          + startAxis);
    }
    long[] merged = new long[dims.length - (last - first)];
    System.arraycopy(dims, 0, merged, 0, first);
    merged[first] = 1;
    for (int i = first; i <= last; i++) {
      merged[first] *= dims[i];
    }
    System.arraycopy(dims, last + 1, merged, first + 1, dims.length - last - 1);
    return reshape(merged);
  }

  /**
   * The elements in reverse order along each of {@code axes} (tf.reverse).
   *
   * @param axes the axes to reverse; negative ones count from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray flip(int... axes) {
    try (NDArray a = manager.vector(axes)) {
      return op("ReverseV2").addInput(this).addInput(a).build();
    }
  }

  /**
   * Rotated by {@code k} quarter turns in the plane of two axes, from the first towards the
   * second (numpy.rot90).
   *
   * @param k the quarter turns; negative ones turn the other way
   * @param axis0 the axis turned away from
   * @param axis1 the axis turned towards
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray rot90(int k, int axis0, int axis1) {
    int rank = shape().length;
    int a0 = normalizedAxis(axis0, rank);
    int a1 = normalizedAxis(axis1, rank);
    if (a0 == a1) {
      throw new IllegalArgumentException("rot90 needs two different axes, got " + axis0 + " and "
          + axis1);
    }
    int turns = ((k % 4) + 4) % 4;
    if (turns == 0) {
      return copy();
    }
    if (turns == 2) {
      return flip(a0, a1);
    }
    int[] perm = new int[rank];
    for (int i = 0; i < rank; i++) {
      perm[i] = i;
    }
    perm[a0] = a1;
    perm[a1] = a0;
    if (turns == 1) {
      try (NDArray flipped = flip(a1)) {
        return flipped.transpose(perm);
      }
    }
    try (NDArray swapped = transpose(perm)) {
      return swapped.flip(a1);
    }
  }

  /**
   * Each element repeated {@code repeats} times along {@code axis}, next to itself (tf.repeat,
   * numpy.repeat).
   *
   * @param repeats how many times each element appears
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray repeat(long repeats, int axis) {
    long[] dims = shape();
    int a = normalizedAxis(axis, dims.length);
    long[] multiples = new long[dims.length + 1];
    Arrays.fill(multiples, 1);
    multiples[a + 1] = repeats;
    long[] merged = dims.clone();
    merged[a] = dims[a] * repeats;
    try (NDArray expanded = expandDims(a + 1); NDArray tiled = expanded.tile(multiples)) {
      return tiled.reshape(merged);
    }
  }

  /**
   * A rank-1 view of all elements in row-major order.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray flatten() {
    return reshape(-1);
  }

  /**
   * The axes in reverse order (the matrix transpose for rank 2).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray transpose() {
    int rank = shape().length;
    int[] perm = new int[rank];
    for (int i = 0; i < rank; i++) {
      perm[i] = rank - 1 - i;
    }
    return transpose(perm);
  }

  /**
   * The axes permuted: output axis i is input axis {@code axes[i]}.
   *
   * @param axes the permutation: axis i of the result is axis {@code axes[i]} of this array
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray transpose(int... axes) {
    try (NDArray perm = manager.vector(axes)) {
      return op("Transpose").addInput(this).addInput(perm).build();
    }
  }

  /**
   * Removes every size-1 axis.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray squeeze() {
    return op("Squeeze").addInput(this).build();
  }

  /**
   * Removes the given size-1 axes.
   *
   * @param axes the axes of size 1 to remove; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray squeeze(int... axes) {
    return op("Squeeze").addInput(this).setAttr("squeeze_dims", toLongs(axes)).build();
  }

  /**
   * Inserts a size-1 axis at {@code axis} (negative counts from the end).
   *
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray expandDims(int axis) {
    try (NDArray a = manager.scalar(axis)) {
      return op("ExpandDims").addInput(this).addInput(a).build();
    }
  }

  /**
   * This array followed by {@code others}, joined along an existing {@code axis}.
   *
   * @param axis the axis; a negative one counts from the last
   * @param others arrays appended after this one, of its dtype, and of its shape but along
   *     {@code axis}
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray concat(int axis, NDArray... others) {
    try (NDArray a = manager.scalar(axis)) {
      return op("ConcatV2").addInputList(withOthers(others)).addInput(a).build();
    }
  }

  /**
   * This array and {@code others} (all of one shape) stacked along a new {@code axis}.
   *
   * @param axis the axis; a negative one counts from the last
   * @param others arrays stacked after this one, of its dtype and shape
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray stack(int axis, NDArray... others) {
    return op("Pack").addInputList(withOthers(others)).setAttr("axis", (long) axis).build();
  }

  /**
   * Splits along {@code axis} into {@code parts} equal pieces.
   *
   * @param parts how many pieces of equal size; must divide the axis's size
   * @param axis the axis; a negative one counts from the last
   * @return new arrays in this array's manager (closed with it; closing one earlier frees it)
   */
  public NDArray[] split(int parts, int axis) {
    if (parts < 1) {
      throw new IllegalArgumentException("parts must be positive, got " + parts);
    }
    try (NDArray a = manager.scalar(axis)) {
      return op("Split").addInput(a).addInput(this).setAttr("num_split", (long) parts).buildAll();
    }
  }

  /**
   * Splits along {@code axis} into pieces of the given sizes (one may be -1: the rest).
   *
   * @param sizes the pieces' sizes along the axis, one of them -1 for the rest
   * @param axis the axis; a negative one counts from the last
   * @return new arrays in this array's manager (closed with it; closing one earlier frees it)
   */
  public NDArray[] split(long[] sizes, int axis) {
    if (sizes.length < 1) {
      throw new IllegalArgumentException("no sizes to split into");
    }
    try (NDArray s = manager.vector(sizes); NDArray a = manager.scalar(axis)) {
      return op("SplitV").addInput(this).addInput(s).addInput(a)
          .setAttr("num_split", (long) sizes.length).buildAll();
    }
  }

  /**
   * The block starting at {@code begin} of {@code size} (-1: to the end of that axis).
   *
   * @param begin the block's start along each axis
   * @param size the block's size along each axis, -1 for the rest of the axis
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray slice(long[] begin, long[] size) {
    try (NDArray b = manager.vector(begin); NDArray s = manager.vector(size)) {
      return op("Slice").addInput(this).addInput(b).addInput(s).build();
    }
  }

  /**
   * The slices at {@code indices} (INT32 or INT64) along axis 0.
   *
   * @param indices INT32 or INT64 indices into the axis
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gather(NDArray indices) {
    return gather(indices, 0);
  }

  /**
   * The slices at {@code indices} (INT32 or INT64) along {@code axis}.
   *
   * @param indices INT32 or INT64 indices into the axis
   * @param axis the axis; a negative one counts from the last
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gather(NDArray indices, int axis) {
    Objects.requireNonNull(indices, "indices");
    try (NDArray a = manager.scalar(axis)) {
      return op("GatherV2").addInput(this).addInput(indices).addInput(a).build();
    }
  }

  /**
   * This array repeated {@code repeats[i]} times along each axis i, as numpy.tile: fewer repeats
   * than axes apply to the last axes; more repeats than axes first give this array leading axes
   * of size 1.
   *
   * @param repeats how many times to repeat along each axis
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray tile(long... repeats) {
    long[] dims = shape();
    if (repeats.length > dims.length) {
      try (NDArray expanded = reshape(leadingOnes(dims, repeats.length))) {
        return expanded.tile(repeats);
      }
    }
    try (NDArray r = manager.vector(leadingOnes(repeats, dims.length))) {
      return op("Tile").addInput(this).addInput(r).build();
    }
  }

  /** {@code values} after enough 1s to make {@code length} of them. */
  private static long[] leadingOnes(long[] values, int length) {
    long[] result = new long[Math.max(length, values.length)];
    Arrays.fill(result, 1);
    System.arraycopy(values, 0, result, result.length - values.length, values.length);
    return result;
  }

  /**
   * Padded with zeros: {@code paddings[i] = {before, after}} for each axis i.
   *
   * @param paddings {@code {before, after}} for each axis
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray pad(long[][] paddings) {
    return pad(paddings, 0);
  }

  /**
   * Padded with {@code value}: {@code paddings[i] = {before, after}} for each axis i.
   *
   * @param paddings {@code {before, after}} for each axis
   * @param value the value of the added elements, converted to this array's dtype
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray pad(long[][] paddings, Number value) {
    try (NDArray p = manager.create(flatPaddings(paddings), paddings.length, 2);
        NDArray v = scalarLike(value)) {
      return op("PadV2").addInput(this).addInput(p).addInput(v).build();
    }
  }

  /**
   * FLOAT one-hot vectors of {@code depth} for these integer indices (out of range: all 0).
   *
   * @param depth the size of the new last axis (the number of classes)
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray oneHot(int depth) {
    return oneHot(depth, 1, 0, DataType.FLOAT);
  }

  /**
   * One-hot vectors of {@code depth} and {@code dataType}, {@code on} at each index. Indices of
   * a type TensorFlow's OneHot does not take (it takes INT32, INT64 and UINT8) are converted to
   * INT64 first, floats truncated toward zero.
   *
   * @param depth the size of the new last axis (the number of classes)
   * @param on the value at each index, converted to {@code dataType}
   * @param off the value elsewhere, converted to {@code dataType}
   * @param dataType the result's type
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray oneHot(int depth, Number on, Number off, DataType dataType) {
    DataType indexType = dataType();
    if (indexType != DataType.INT32 && indexType != DataType.INT64
        && indexType != DataType.UINT8) {
      try (NDArray indices = cast(DataType.INT64)) {
        return indices.oneHot(depth, on, off, dataType);
      }
    }
    try (NDArray d = manager.scalar(depth); NDArray onValue = manager.scalar(dataType, on);
        NDArray offValue = manager.scalar(dataType, off)) {
      return op("OneHot").addInput(this).addInput(d).addInput(onValue).addInput(offValue).build();
    }
  }

  /**
   * The values converted to {@code dataType} (floats to integers truncate toward zero).
   *
   * @param dataType the type to convert to
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray cast(DataType dataType) {
    return op("Cast").addInput(this).setAttr("DstT", Objects.requireNonNull(dataType, "dataType"))
        .build();
  }

  /**
   * For a BOOL condition (this array): {@code x} where true, {@code y} where false, broadcasting
   * all three (SelectV2, tf.where(cond, x, y)).
   *
   * @param x the values where this array is true
   * @param y the values where this array is false
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray where(NDArray x, NDArray y) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(y, "y");
    return op("SelectV2").addInput(this).addInput(x).addInput(y).build();
  }

  /**
   * INT64 coordinates {@code [n, rank]} of the true (or non-zero) elements in row-major order,
   * like tf.where(condition).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray where() {
    return unary("Where");
  }

  /**
   * This array with {@code value} at each step past its row's length (MXNet's SequenceMask):
   * {@code this[b][t]...} becomes {@code value} where {@code t >= lengths[b]}, axis 0 holding the
   * rows and axis 1 the steps.
   *
   * @param lengths one length per row, of any real type (compared in that type)
   * @param value the value of the masked steps, converted to this array's type
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray sequenceMask(NDArray lengths, Number value) {
    long[] dims = shape();
    long[] rows = lengths.shape();
    if (dims.length < 2 || rows.length != 1 || rows[0] != dims[0]) {
      throw new IllegalArgumentException("sequenceMask needs an array of rank >= 2 and one length"
          + " per row; got " + Arrays.toString(dims) + " and " + Arrays.toString(rows));
    }
    long[] maskDims = new long[dims.length];
    Arrays.fill(maskDims, 1);
    maskDims[0] = dims[0];
    maskDims[1] = dims[1];
    try (NDArray steps = manager.arange(lengths.dataType(), 0, dims[1], 1);
        NDArray column = lengths.reshape(-1, 1); NDArray kept = steps.lt(column);
        NDArray mask = kept.reshape(maskDims); NDArray masked = scalarLike(value)) {
      return mask.where(this, masked);
    }
  }

  /**
   * This array broadcast to {@code shape}.
   *
   * @param newShape the shape to broadcast to
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray broadcastTo(long... newShape) {
    try (NDArray dims = manager.vector(newShape)) {
      return op("BroadcastTo").addInput(this).addInput(dims).build();
    }
  }

  /**
   * The slices along {@code axis} as separate arrays, that axis removed (tf.unstack).
   *
   * @param axis the axis; a negative one counts from the last
   * @return one new array per index of the axis, in this array's manager
   */
  public NDArray[] unstack(int axis) {
    long[] dims = shape();
    long count = dims[normalizedAxis(axis, dims.length)];
    return op("Unpack").addInput(this).setAttr("num", count).setAttr("axis", (long) axis)
        .buildAll();
  }

  /**
   * tf.gather with {@code batch_dims}: the first {@code batchDims} axes of this array and of
   * {@code indices} are matched one to one, and each batch gathers along {@code axis} by its own
   * indices.
   *
   * @param indices INT32 or INT64 indices into the axis, led by the batch axes
   * @param axis the axis; a negative one counts from the last; not before the batch axes
   * @param batchDims how many leading axes are batch axes
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gather(NDArray indices, int axis, int batchDims) {
    Objects.requireNonNull(indices, "indices");
    try (NDArray a = manager.scalar(axis)) {
      return op("GatherV2").addInput(this).addInput(indices).addInput(a)
          .setAttr("batch_dims", (long) batchDims).build();
    }
  }

  /**
   * The elements or slices at coordinates (tf.gather_nd): the last axis of {@code indices} holds
   * a coordinate into this array's leading axes, the other axes of {@code indices} lead the
   * result.
   *
   * @param indices INT32 or INT64 coordinates in their last axis
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray gatherNd(NDArray indices) {
    return binary("GatherNd", indices);
  }

  /**
   * A copy of this array with {@code updates} written at the coordinates of {@code indices}
   * (tf.tensor_scatter_nd_update); where coordinates repeat, one of their updates is kept.
   *
   * @param indices INT32 or INT64 coordinates in their last axis, as {@link #gatherNd}'s
   * @param updates the values, of this array's type, shaped as {@code gatherNd(indices)} is
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray tensorScatterUpdate(NDArray indices, NDArray updates) {
    Objects.requireNonNull(indices, "indices");
    Objects.requireNonNull(updates, "updates");
    return op("TensorScatterUpdate").addInput(this).addInput(indices).addInput(updates).build();
  }

  /**
   * {@code x[begin:end:strides]} on each axis (tf.strided_slice without masks).
   *
   * @param begin the first index per axis (negative: from the end)
   * @param end the end per axis, excluded (negative: from the end)
   * @param strides the step per axis, not 0 (negative: backwards)
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray stridedSlice(long[] begin, long[] end, long[] strides) {
    return stridedSlice(begin, end, strides, 0, 0, 0, 0);
  }

  /**
   * tf.strided_slice with its masks, bit i for the i-th entry of begin, end and strides: a
   * {@code beginMask} or {@code endMask} bit ignores that bound (the axis's start or end), a
   * {@code shrinkAxisMask} bit takes the single index {@code begin[i]} and drops the axis, a
   * {@code newAxisMask} bit inserts an axis of size 1.
   *
   * @param begin the first index per entry
   * @param end the end per entry, excluded
   * @param strides the step per entry, not 0
   * @param beginMask entries whose begin is ignored
   * @param endMask entries whose end is ignored
   * @param shrinkAxisMask entries that take one index and drop their axis
   * @param newAxisMask entries that insert a new axis of size 1
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray stridedSlice(long[] begin, long[] end, long[] strides, long beginMask,
      long endMask, long shrinkAxisMask, long newAxisMask) {
    try (NDArray b = manager.vector(begin); NDArray e = manager.vector(end);
        NDArray s = manager.vector(strides)) {
      return op("StridedSlice").addInput(this).addInput(b).addInput(e).addInput(s)
          .setAttr("begin_mask", beginMask).setAttr("end_mask", endMask)
          .setAttr("shrink_axis_mask", shrinkAxisMask).setAttr("new_axis_mask", newAxisMask)
          .build();
    }
  }

  /**
   * A copy of this array with {@code x[begin:end:strides]} replaced by {@code value}
   * (TensorStridedSliceUpdate).
   *
   * @param begin the first index per axis
   * @param end the end per axis, excluded
   * @param strides the step per axis, not 0
   * @param value the new values, of this array's type, shaped as the slice
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray stridedSliceUpdate(long[] begin, long[] end, long[] strides, NDArray value) {
    Objects.requireNonNull(value, "value");
    try (NDArray b = manager.vector(begin); NDArray e = manager.vector(end);
        NDArray s = manager.vector(strides)) {
      return op("TensorStridedSliceUpdate").addInput(this).addInput(b).addInput(e).addInput(s)
          .addInput(value).build();
    }
  }

  /**
   * The distinct slices along {@code axis} in the order they first occur, with where each slice
   * went and how often it occurs (UniqueWithCountsV2): {@code {values, indices, counts}}, the
   * indices and counts INT64. Of a vector's elements with axis 0.
   *
   * @param axis the axis whose slices are compared; a negative one counts from the last
   * @return {@code {values, indices, counts}}: new arrays in this array's manager
   */
  public NDArray[] uniqueWithCounts(int axis) {
    try (NDArray a = manager.vector(new long[] {axis})) {
      return op("UniqueWithCountsV2").addInput(this).addInput(a)
          .setAttr("out_idx", DataType.INT64).buildAll();
    }
  }

  /**
   * Padded by reflection: the added elements mirror the array without repeating its edge
   * (tf.pad with mode "REFLECT"), {@code paddings[i] = {before, after}} each smaller than axis
   * i's size.
   *
   * @param paddings {@code {before, after}} for each axis
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray padReflect(long[][] paddings) {
    try (NDArray p = manager.create(flatPaddings(paddings), paddings.length, 2)) {
      return op("MirrorPad").addInput(this).addInput(p).setAttr("mode", "REFLECT").build();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Complex numbers.

  /**
   * The complex numbers {@code this + i * imaginary} (tf.complex): FLOAT parts give COMPLEX64,
   * DOUBLE parts COMPLEX128.
   *
   * @param imaginary the imaginary parts, of this array's type (broadcast against it)
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray complex(NDArray imaginary) {
    Objects.requireNonNull(imaginary, "imaginary");
    DataType type = dataType() == DataType.DOUBLE ? DataType.COMPLEX128 : DataType.COMPLEX64;
    return op("Complex").addInput(this).addInput(imaginary).setAttr("Tout", type).build();
  }

  /**
   * The real parts of complex numbers (tf.math.real): FLOAT of COMPLEX64, DOUBLE of COMPLEX128.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray real() {
    return complexPart("Real");
  }

  /**
   * The imaginary parts of complex numbers (tf.math.imag): FLOAT of COMPLEX64, DOUBLE of
   * COMPLEX128.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray imag() {
    return complexPart("Imag");
  }

  /**
   * The complex conjugates (tf.math.conj); a real array is copied as it is.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray conj() {
    return unary(isComplex(dataType()) ? "Conj" : "Identity");
  }

  // ---------------------------------------------------------------------------------------------
  // Images (see ImageOps).

  /**
   * Decodes this scalar STRING of JPEG bytes to UINT8 [height, width, channels] (0: as encoded).
   *
   * @param channels the channels wanted; 0 for the image's own
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray decodeJpeg(int channels) {
    return ImageOps.decode(this, "DecodeJpeg", channels);
  }

  /**
   * Decodes this scalar STRING of PNG bytes to UINT8 [height, width, channels] (0: as encoded).
   *
   * @param channels the channels wanted; 0 for the image's own
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray decodePng(int channels) {
    return ImageOps.decode(this, "DecodePng", channels);
  }

  /**
   * Decodes this scalar STRING of BMP, GIF, JPEG or PNG bytes to UINT8, like tf.io.decode_image.
   *
   * @param channels the channels wanted; 0 for the image's own
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray decodeImage(int channels) {
    return ImageOps.decode(this, "DecodeImage", channels);
  }

  /**
   * Resizes [height, width, channels] or [batch, height, width, channels] images as
   * tf.image.resize does (half-pixel centers, no antialiasing): NEAREST keeps the dtype, the other
   * methods give FLOAT.
   *
   * @param height the result's height
   * @param width the result's width
   * @param method how to interpolate
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray resize(int height, int width, ResizeMethod method) {
    return ImageOps.resize(this, height, width, method, true);
  }

  /**
   * As {@link #resize(int, int, ResizeMethod)}, or without half-pixel centers as
   * tf.compat.v1.image.resize (TensorFlow 1's sampling, pixel corners at 0; AREA is the same
   * either way).
   *
   * @param height the result's height
   * @param width the result's width
   * @param method how to interpolate
   * @param halfPixelCenters true for tf.image.resize, false for tf.compat.v1.image.resize
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray resize(int height, int width, ResizeMethod method, boolean halfPixelCenters) {
    return ImageOps.resize(this, height, width, method, halfPixelCenters);
  }

  /**
   * An image converted to {@code dataType} with tf.image.convert_image_dtype's scaling (no
   * saturation): integers map to [0, 1] floats by their type's maximum, floats in [0, 1] to the
   * integer range, integers to integers by shifting.
   *
   * @param dataType the type to convert to
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray convertImageDtype(DataType dataType) {
    return ImageOps.convertImageDtype(this, dataType);
  }

  /**
   * Resizes images as tf.image.resize with {@code antialias=True} does: BILINEAR and BICUBIC
   * through ScaleAndTranslate, whose kernel widens when shrinking so that every input pixel
   * counts (NEAREST and AREA as {@link #resize(int, int, ResizeMethod)}). FLOAT results.
   *
   * @param height the result's height
   * @param width the result's width
   * @param method how to interpolate
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray resizeAntialiased(int height, int width, ResizeMethod method) {
    return ImageOps.resizeAntialiased(this, height, width, method);
  }

  /**
   * Resizes images as tf.compat.v1.image.resize with {@code align_corners=True}: the corner
   * pixels of input and result are aligned and the samples spread evenly between them
   * (BILINEAR, BICUBIC and NEAREST; AREA has no corners to align).
   *
   * @param height the result's height
   * @param width the result's width
   * @param method BILINEAR, BICUBIC or NEAREST
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray resizeAlignCorners(int height, int width, ResizeMethod method) {
    return ImageOps.resizeAlignCorners(this, height, width, method);
  }

  /**
   * RGB images (last axis 3) with their hue turned by {@code delta} of a full turn
   * (tf.image.adjust_hue on floating-point images).
   *
   * @param delta the turn, in [-1, 1]
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray adjustHue(float delta) {
    return ImageOps.adjust(this, "AdjustHue", delta);
  }

  /**
   * RGB images (last axis 3) with their saturation multiplied by {@code factor}
   * (tf.image.adjust_saturation on floating-point images).
   *
   * @param factor the multiplier of the saturation
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray adjustSaturation(float factor) {
    return ImageOps.adjust(this, "AdjustSaturation", factor);
  }

  /**
   * Images with each channel's distance from its mean over the image multiplied by
   * {@code factor} (tf.image.adjust_contrast on floating-point images).
   *
   * @param factor the multiplier of the contrast
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray adjustContrast(float factor) {
    return ImageOps.adjust(this, "AdjustContrastv2", factor);
  }

  // ---------------------------------------------------------------------------------------------
  // Strings (see StringOps).

  /**
   * Splits each string of a rank-0 or rank-1 STRING array at {@code separator} (empty: at runs
   * of whitespace, dropping empty pieces), like tf.strings.split. The ragged result is returned as
   * {@code {values, rowSplits}}: all pieces in order (STRING, rank 1), and INT64 row splits
   * {@code [rows + 1]} such that row i is {@code values[rowSplits[i] .. rowSplits[i + 1])}; a
   * scalar input is one row.
   *
   * @param separator the delimiter; empty to split at runs of whitespace
   * @return new arrays in this array's manager (closed with it; closing one earlier frees it)
   */
  public NDArray[] split(String separator) {
    return StringOps.split(this, separator, -1);
  }

  /**
   * As {@link #split(String)}, splitting each string at most {@code maxSplit} times.
   *
   * @param separator the delimiter; empty to split at runs of whitespace
   * @param maxSplit the most splits per string; -1 for no limit
   * @return new arrays in this array's manager (closed with it; closing one earlier frees it)
   */
  public NDArray[] split(String separator, int maxSplit) {
    return StringOps.split(this, separator, maxSplit);
  }

  /**
   * ASCII letters to lower case (other bytes unchanged, like tf.strings.lower).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray lower() {
    return op("StringLower").addInput(this).build();
  }

  /**
   * ASCII letters to upper case (other bytes unchanged, like tf.strings.upper).
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray upper() {
    return op("StringUpper").addInput(this).build();
  }

  /**
   * Replaces every match of an RE2 {@code pattern} with {@code rewrite} ({@code \1}: groups).
   *
   * @param pattern a regular expression in RE2 syntax, as tf.strings.regex_replace takes
   * @param rewrite the replacement, where {@code \\1} is the first group, as
   *     tf.strings.regex_replace takes
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray regexReplace(String pattern, String rewrite) {
    return regexReplace(pattern, rewrite, true);
  }

  /**
   * Replaces every match of {@code pattern}, or only the first if not {@code global}.
   *
   * @param pattern a regular expression in RE2 syntax, as tf.strings.regex_replace takes
   * @param rewrite the replacement, where {@code \\1} is the first group, as
   *     tf.strings.regex_replace takes
   * @param global true to replace every match, false only the first
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray regexReplace(String pattern, String rewrite, boolean global) {
    return op("StaticRegexReplace").addInput(this)
        .setAttr("pattern", Objects.requireNonNull(pattern, "pattern"))
        .setAttr("rewrite", Objects.requireNonNull(rewrite, "rewrite"))
        .setAttr("replace_global", global).build();
  }

  /**
   * Parses each string as a number of {@code dataType}: FLOAT, DOUBLE, INT32 or INT64.
   *
   * @param dataType the numeric type to parse into
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray toNumber(DataType dataType) {
    return op("StringToNumber").addInput(this)
        .setAttr("out_type", Objects.requireNonNull(dataType, "dataType")).build();
  }

  /**
   * INT32 length of each string in bytes.
   *
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray stringLength() {
    return op("StringLength").addInput(this).build();
  }

  /**
   * Element-wise concatenation of this STRING array and {@code others} (broadcasting), with
   * {@code separator} between them (tf.strings.join).
   *
   * @param separator inserted between the joined strings
   * @param others STRING arrays joined element-wise after this one, each of its shape or a scalar
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray join(String separator, NDArray... others) {
    return op("StringJoin").addInputList(withOthers(others))
        .setAttr("separator", Objects.requireNonNull(separator, "separator")).build();
  }

  /**
   * All strings joined in row-major order into a scalar (tf.strings.reduce_join).
   *
   * @param separator inserted between the joined strings
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray reduceJoin(String separator) {
    return StringOps.reduceJoin(this, separator);
  }

  /**
   * The strings joined along {@code axis} (tf.strings.reduce_join with an axis).
   *
   * @param axis the axis; a negative one counts from the last
   * @param separator inserted between the joined strings
   * @return a new array in this array's manager (closed with it; closing it earlier frees it)
   */
  public NDArray reduceJoin(int axis, String separator) {
    return StringOps.reduceJoin(this, axis, separator);
  }

  @Override
  public String toString() {
    if (isClosed()) {
      return "NDArray(closed)";
    }
    return "NDArray(" + dataType() + ", " + Arrays.toString(shape()) + ")";
  }

  @Override
  protected void free(long handle) {
    nativeDelete(handle);
    manager.detach(this);  // after the delete: a closing manager waits for it
  }

  /** A builder for an op on this array's manager. */
  OpBuilder op(String opName) {
    return manager.opBuilder(opName);
  }

  /** An op of this array alone. */
  NDArray unary(String opName) {
    return op(opName).addInput(this).build();
  }

  private NDArray binary(String opName, NDArray other) {
    Objects.requireNonNull(other, "other");
    return op(opName).addInput(this).addInput(other).build();
  }

  private NDArray binaryScalar(String opName, Number value) {
    try (NDArray s = scalarLike(value)) {
      return binary(opName, s);
    }
  }

  /** A scalar of this array's dtype in this array's manager. */
  NDArray scalarLike(Number value) {
    return manager.scalar(dataType(), Objects.requireNonNull(value, "value"));
  }

  private String divOp() {
    return dataType().isInteger() ? "Div" : "RealDiv";
  }

  private NDArray reduceAll(String opName) {
    int rank = shape().length;
    int[] axes = new int[rank];
    for (int i = 0; i < rank; i++) {
      axes[i] = i;
    }
    return reduce(opName, axes, false);
  }

  private NDArray reduce(String opName, int[] axes, boolean keepDims) {
    try (NDArray a = manager.vector(axes)) {
      return op(opName).addInput(this).addInput(a).setAttr("keep_dims", keepDims).build();
    }
  }

  private NDArray indexReduce(String opName, int axis) {
    try (NDArray a = manager.scalar(axis)) {
      return op(opName).addInput(this).addInput(a).build();
    }
  }

  /**
   * {@code f} applied along {@code axis}, for ops that work on the last axis only: the axis is
   * swapped with the last one and back, as TensorFlow Python does.
   */
  NDArray alongLastAxis(int axis, UnaryOperator<NDArray> f) {
    int[] perm = swapWithLastAxis(axis);
    if (perm == null) {
      return f.apply(this);
    }
    try (NDArray swapped = transpose(perm); NDArray result = f.apply(swapped)) {
      return result.transpose(perm);
    }
  }

  /** {@code axis} in [0, rank), a negative one counted from the last. */
  private static int normalizedAxis(int axis, int rank) {
    int a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      throw new IllegalArgumentException("axis " + axis + " is out of range for rank " + rank);
    }
    return a;
  }

  /**
   * This array with {@code axes} moved after the others and merged into one last axis; with no
   * axes, flattened.
   */
  private NDArray withAxesMergedLast(int[] axes) {
    if (axes.length == 0) {
      return flatten();
    }
    long[] dims = shape();
    boolean[] merged = new boolean[dims.length];
    for (int axis : axes) {
      merged[normalizedAxis(axis, dims.length)] = true;
    }
    int[] perm = new int[dims.length];
    long[] grouped = new long[dims.length];
    int kept = 0;
    for (int i = 0; i < dims.length; i++) {
      if (!merged[i]) {
        grouped[kept] = dims[i];
        perm[kept++] = i;
      }
    }
    long groupSize = 1;
    for (int i = 0, j = kept; i < dims.length; i++) {
      if (merged[i]) {
        perm[j++] = i;
        groupSize *= dims[i];
      }
    }
    grouped[kept] = groupSize;
    try (NDArray moved = transpose(perm)) {
      return moved.reshape(Arrays.copyOf(grouped, kept + 1));
    }
  }

  /** numpy's linear percentile {@code q} of the last axis, that axis dropped. */
  private NDArray percentileOfLastAxis(double q) {
    long[] dims = shape();
    int last = dims.length - 1;
    if (dims[last] == 0) {
      throw new IllegalArgumentException("percentile of an empty axis");
    }
    double position = q / 100 * (dims[last] - 1);
    long lo = (long) Math.floor(position);
    try (NDArray sorted = sort(last, false); NDArray loIndex = manager.scalar(lo);
        NDArray hiIndex = manager.scalar((long) Math.ceil(position));
        NDArray low = sorted.gather(loIndex, last); NDArray high = sorted.gather(hiIndex, last);
        NDArray span = high.sub(low); NDArray part = span.mul(position - lo)) {
      return low.add(part);
    }
  }

  /** {@code x[1:] - x[:-1]} along axis {@code a} (empty if that axis is). */
  private NDArray differenceAlong(int a) {
    long[] dims = shape();
    long[] size = new long[dims.length];
    Arrays.fill(size, -1);
    size[a] = Math.max(0, dims[a] - 1);
    long[] from = new long[dims.length];
    from[a] = Math.min(1, dims[a]);
    try (NDArray tail = slice(from, size); NDArray head = slice(new long[dims.length], size)) {
      return tail.sub(head);
    }
  }

  /**
   * The permutation that swaps {@code axis} with the last axis (its own inverse), or null if it is
   * the last.
   */
  private int[] swapWithLastAxis(int axis) {
    int rank = shape().length;
    int a = normalizedAxis(axis, rank);
    if (a == rank - 1) {
      return null;
    }
    int[] perm = new int[rank];
    for (int i = 0; i < rank; i++) {
      perm[i] = i;
    }
    perm[a] = rank - 1;
    perm[rank - 1] = a;
    return perm;
  }

  /** {@code f} of {@code value}, which is closed (also if {@code f} throws). */
  private static NDArray replaced(NDArray value, UnaryOperator<NDArray> f) {
    try (value) {
      return f.apply(value);
    }
  }

  private NDArray[] topKOfLastAxis(int k, boolean sorted) {
    try (NDArray kArray = manager.scalar(k)) {
      return op("TopKV2").addInput(this).addInput(kArray).setAttr("sorted", sorted).buildAll();
    }
  }

  private NDArray cumulative(String opName, int axis) {
    try (NDArray a = manager.scalar(axis)) {
      return op(opName).addInput(this).addInput(a).build();
    }
  }

  /**
   * tf.sort / tf.argsort: TopKV2 over the whole axis sorts descending; ascending sorts a key that
   * reverses the order (-x for floats, -x - 1 for signed and max - x for unsigned integers, which
   * cannot overflow) and maps the values back.
   */
  private NDArray sortOrArgSort(int axis, boolean descending, boolean indices) {
    DataType type = dataType();
    NDArray key = descending ? this : orderReversingKey(type);
    try {
      NDArray sorted = key.alongLastAxis(axis, x -> x.topKOfWholeAxis(indices));
      if (descending || indices) {
        return sorted;
      }
      try (sorted) {
        return sorted.orderReversingKey(type);
      }
    } finally {
      if (key != this) {
        key.close();
      }
    }
  }

  /** Its own inverse: the key of the key is the original value. */
  private NDArray orderReversingKey(DataType type) {
    if (type.isUnsigned()) {
      try (NDArray max = scalarLike(ImageOps.maxValue(type))) {
        return max.sub(this);
      }
    }
    return unary(type.isInteger() ? "Invert" : "Neg");
  }

  private NDArray topKOfWholeAxis(boolean indices) {
    long[] dims = shape();
    if (dims.length == 0) {
      throw new IllegalArgumentException("cannot sort a scalar");
    }
    NDArray[] valuesAndIndices = topK(Math.toIntExact(dims[dims.length - 1]));
    valuesAndIndices[indices ? 0 : 1].close();
    return valuesAndIndices[indices ? 1 : 0];
  }

  /** {@code {before, after}} per axis, flattened row by row. */
  private static long[] flatPaddings(long[][] paddings) {
    long[] flat = new long[paddings.length * 2];
    for (int i = 0; i < paddings.length; i++) {
      if (paddings[i].length != 2) {
        throw new IllegalArgumentException("paddings[" + i + "] must be {before, after}");
      }
      flat[2 * i] = paddings[i][0];
      flat[2 * i + 1] = paddings[i][1];
    }
    return flat;
  }

  static boolean isComplex(DataType type) {
    return type == DataType.COMPLEX64 || type == DataType.COMPLEX128;
  }

  private NDArray complexPart(String opName) {
    DataType type = dataType();
    if (!isComplex(type)) {
      throw new IllegalArgumentException(opName.toLowerCase() + "() needs a complex array, got "
          + type);
    }
    DataType part = type == DataType.COMPLEX128 ? DataType.DOUBLE : DataType.FLOAT;
    return op(opName).addInput(this).setAttr("Tout", part).build();
  }

  private NDArray[] withOthers(NDArray[] others) {
    NDArray[] all = new NDArray[others.length + 1];
    all[0] = this;
    System.arraycopy(others, 0, all, 1, others.length);
    return all;
  }

  private static long[] toLongs(int[] values) {
    long[] longs = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      longs[i] = values[i];
    }
    return longs;
  }

  static native long nativeFromTensor(long tensor);

  private static native long nativeToTensor(long handle);

  private static native int nativeDtype(long handle);

  private static native long[] nativeShape(long handle);

  private static native String nativeDevice(long handle);

  private static native long nativeCopyToDevice(long context, long handle, String device);

  static native void nativeDelete(long handle);
}
