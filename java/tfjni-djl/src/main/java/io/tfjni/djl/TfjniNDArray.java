package io.tfjni.djl;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.internal.NDArrayEx;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import io.tfjni.Tensor;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/**
 * DJL's NDArray over tfjni: an adapter. Each operation converts DJL's arguments and calls tfjni's
 * core {@link io.tfjni.eager.NDArray}, where an operation's meaning is decided and tested; what stays
 * here is what DJL's contract adds (INT64 sums and indices, the types comparisons and logic
 * convert to, DJL's scalar and empty cases), each in one place. Temporaries are freed before the
 * method returns. In-place methods ({@code addi}, {@code set}, ...) replace the native value this
 * object holds.
 *
 * <p>The value is held as a plain {@link Tensor}, an eager array, or both sharing one buffer. An
 * array made from Java data, or output by a model, starts as a tensor only: reading it and feeding
 * it to a model need nothing else, and the eager array is made (once, without a copy) only when an
 * op needs it. An op's result starts as an eager array; its tensor is resolved (once) when it is
 * read or fed. Neither is ever written after it is made, so sharing the buffer is safe.
 */
public class TfjniNDArray implements NDArray {
  private static final String NO_GRADIENT =
      "tfjni's TensorFlow engine is for inference: no gradients";
  private static final AtomicLong UIDS = new AtomicLong();

  private TfjniNDManager manager;
  /** The eager array, or null until an op needs it. Set under this object's lock. */
  private volatile io.tfjni.eager.NDArray eager;
  /** The value as a tensor, or null until read or fed. Set under this object's lock. */
  private volatile Tensor tensor;
  private final String uid;
  private String name;
  private Shape shape;
  private DataType dataType;
  private volatile boolean closed;
  private TfjniNDArrayEx ex;

  TfjniNDArray(TfjniNDManager manager, io.tfjni.eager.NDArray value) {
    this(manager, value, null);
  }

  /** An array owning {@code value}, which nobody writes from now on. */
  TfjniNDArray(TfjniNDManager manager, Tensor value) {
    this(manager, null, value);
  }

  private TfjniNDArray(TfjniNDManager manager, io.tfjni.eager.NDArray eager, Tensor tensor) {
    this.eager = eager;
    this.tensor = tensor;
    this.manager = manager;
    this.uid = nextUid();
    manager.attachArray(uid, this);
    NDScope.register(this);
  }

  /**
   * A key unique in the process, cheaper than {@link NDManager#nextUid()} (a concatenation, some
   * 180 bytes of garbage): two of these per predict. Digits only, so never equal to DJL's "uid-...".
   */
  private static String nextUid() {
    return Long.toString(UIDS.incrementAndGet());
  }

  /**
   * The tfjni eager array this DJL array holds.
   *
   * @return the array, owned by this DJL array (closed with it; do not close it)
   */
  public io.tfjni.eager.NDArray tfArray() {
    io.tfjni.eager.NDArray value = eager;
    if (value == null || closed) {
      value = makeEager();
    }
    return value;
  }

  private synchronized io.tfjni.eager.NDArray makeEager() {
    checkOpen();
    if (eager == null) {
      tfType();  // refuses a type DJL has no counterpart for: no DJL operation takes one
      // Shared, not copied: the tensor is this array's own and never written.
      eager = manager.tf().share(tensor);
    }
    return eager;
  }

  /**
   * The value as a tensor, e.g. to feed a model or read it (it stays owned by this array: don't
   * close it; read-only).
   */
  Tensor tensor() {
    Tensor value = tensor;
    if (value == null || closed) {
      value = makeTensor();
    }
    return value;
  }

  private synchronized Tensor makeTensor() {
    checkOpen();
    if (tensor == null) {
      tensor = eager.toTensor();  // on the CPU, shares the eager array's buffer
    }
    return tensor;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("this NDArray is closed");
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  io.tfjni.eager.NDManager tf() {
    return manager.tf();
  }

  TfjniNDArray wrap(io.tfjni.eager.NDArray result) {
    return manager.wrap(result);
  }

  /** {@code results} wrapped, in order; if one cannot be, the others are closed. */
  NDList wrapAll(io.tfjni.eager.NDArray[] results) {
    NDList wrapped = new NDList(results.length);
    for (int i = 0; i < results.length; i++) {
      try {
        wrapped.add(wrap(results[i]));
      } catch (RuntimeException e) {
        for (int j = i + 1; j < results.length; j++) {
          results[j].close();
        }
        wrapped.close();
        throw e;
      }
    }
    return wrapped;
  }

  /** {@code result} wrapped, or a copy of this array if it is this array's own value. */
  private NDArray wrapOrCopy(io.tfjni.eager.NDArray result) {
    return result == tfArray() ? duplicate() : wrap(result);
  }

  /** A native result as an array of another manager (e.g. get(manager, index)). */
  static TfjniNDArray wrapIn(NDManager target, io.tfjni.eager.NDArray result) {
    return ((TfjniNDManager) target).wrap(result);
  }

  /** INT64 for sums and products of integers and booleans (as DJL's engines give). */
  private static boolean widensToInt64(io.tfjni.DataType t) {
    return t == io.tfjni.DataType.BOOL || t == io.tfjni.DataType.INT8
        || t == io.tfjni.DataType.UINT8 || t == io.tfjni.DataType.INT16
        || t == io.tfjni.DataType.UINT16 || t == io.tfjni.DataType.INT32;
  }

  io.tfjni.DataType tfType() {
    return DataTypes.toTf(getDataType());
  }

  /** The tfjni array of another DJL array (copied into this engine if it is another's). */
  io.tfjni.eager.NDArray tfOf(NDArray other) {
    return manager.from(other).tfArray();
  }

  /** A scalar of this array's type (the caller closes it). */
  io.tfjni.eager.NDArray scalar(Number n) {
    return tf().scalar(tfType(), n);
  }

  /** {@code op} of this array's value and {@code other}'s, as given. */
  private NDArray binary(NDArray other, BinaryOperator<io.tfjni.eager.NDArray> op) {
    return wrap(op.apply(tfArray(), tfOf(other)));
  }

  /**
   * DJL's comparisons and logic: {@code op} of this array's value and {@code other}'s, both
   * converted to {@code type} (this array's type for comparisons, BOOL for logic).
   */
  private NDArray converted(NDArray other, io.tfjni.DataType type,
      BinaryOperator<io.tfjni.eager.NDArray> op) {
    try (Temporaries t = new Temporaries()) {
      return wrap(op.apply(Indexing.castTo(t, tfArray(), type),
          Indexing.castTo(t, tfOf(other), type)));
    }
  }

  private NDArray compare(NDArray other, BinaryOperator<io.tfjni.eager.NDArray> op) {
    return converted(other, tfType(), op);
  }

  /** Replaces this array's value with {@code result}'s and returns this. */
  private NDArray inPlace(NDArray result) {
    intern(result);
    return this;
  }

  private int rank() {
    return getShape().dimension();
  }

  private int[] allAxes() {
    return IntStream.range(0, rank()).toArray();
  }

  private int normAxis(int axis) {
    return Axes.normalize(axis, rank());
  }

  /**
   * {@code op} of this array's value, integers and booleans first converted to INT64: DJL's
   * engines sum and multiply them so.
   */
  private NDArray widened(UnaryOperator<io.tfjni.eager.NDArray> op) {
    io.tfjni.eager.NDArray x = tfArray();
    if (!widensToInt64(x.dataType())) {
      return wrap(op.apply(x));
    }
    try (io.tfjni.eager.NDArray wide = x.cast(io.tfjni.DataType.INT64)) {
      return wrap(op.apply(wide));
    }
  }

  // ---- identity and memory -------------------------------------------------------------------

  @Override
  public NDManager getManager() {
    return manager;
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public void setName(String name) {
    this.name = name;
  }

  @Override
  public String getUid() {
    return uid;
  }

  @Override
  public DataType getDataType() {
    checkOpen();
    if (dataType == null) {
      Tensor value = tensor;
      dataType = DataTypes.fromTf(value != null ? value.dataType() : tfArray().dataType());
    }
    return dataType;
  }

  @Override
  public Device getDevice() {
    return Device.cpu();
  }

  @Override
  public Shape getShape() {
    checkOpen();
    if (shape == null) {
      Tensor value = tensor;
      shape = new Shape(value != null ? value.shape() : tfArray().shape());
    }
    return shape;
  }

  @Override
  public SparseFormat getSparseFormat() {
    return SparseFormat.DENSE;
  }

  @Override
  public void attach(NDManager newManager) {
    detach();
    this.manager = (TfjniNDManager) newManager;
    newManager.attachInternal(uid, this);
  }

  @Override
  public void tempAttach(NDManager newManager) {
    NDManager original = manager;
    detach();
    this.manager = (TfjniNDManager) newManager;
    newManager.tempAttachInternal(original, uid, this);
  }

  /**
   * Back from {@link #tempAttach}: to its manager even if that manager was capped meanwhile, as
   * in DJL's engines (a cap stops new arrays joining a manager, not its own coming back).
   */
  @Override
  public void returnResource(NDManager original) {
    detach();
    this.manager = (TfjniNDManager) original;
    original.attachUncappedInternal(uid, this);
  }

  @Override
  public void detach() {
    manager.detachInternal(uid);
    manager = manager.getEngine().systemManager();
  }

  @Override
  public NDArray toDevice(Device device, boolean copy) {
    if (!device.isGpu()) {
      return copy ? duplicate() : this;
    }
    throw new UnsupportedOperationException("tfjni's DJL engine runs on the CPU");
  }

  @Override
  public NDArray toType(DataType type, boolean copy) {
    if (type == getDataType()) {
      return copy ? duplicate() : this;
    }
    checkCastable(type);
    TfjniNDArray result = wrap(tfArray().cast(DataTypes.toTf(type)));
    result.setName(name);
    return result;
  }

  /**
   * This array's value in {@code type} by {@link #toType}'s rules, for a composite operation:
   * the value itself, or a cast registered with {@code t}.
   */
  io.tfjni.eager.NDArray tfArray(Temporaries t, DataType type) {
    if (type == getDataType()) {
      return tfArray();
    }
    checkCastable(type);
    return t.add(tfArray().cast(DataTypes.toTf(type)));
  }

  private void checkCastable(DataType type) {
    if (type == DataType.STRING || getDataType() == DataType.STRING) {
      throw new UnsupportedOperationException("no cast between STRING and numbers");
    }
  }

  @Override
  public NDArray duplicate() {
    // Arrays are never written in place (set() replaces the value), so sharing is a copy.
    TfjniNDArray copy = wrap(tfArray().copy());
    copy.setName(name);
    return copy;
  }

  @Override
  public void setRequiresGradient(boolean requiresGrad) {
    if (requiresGrad) {
      throw new UnsupportedOperationException(NO_GRADIENT);
    }
  }

  @Override
  public NDArray getGradient() {
    throw new UnsupportedOperationException(NO_GRADIENT);
  }

  @Override
  public boolean hasGradient() {
    return false;
  }

  @Override
  public NDArray stopGradient() {
    return duplicate();
  }

  @Override
  public ByteBuffer toByteBuffer(boolean tryDirect) {
    checkOpen();
    if (getDataType() == DataType.STRING) {
      throw new IllegalStateException("a STRING array has no byte buffer; use toStringArray()");
    }
    ByteBuffer src = tensor().buffer();
    ByteBuffer out = ByteBuffer.allocateDirect(src.remaining()).order(ByteOrder.nativeOrder());
    out.put(src);
    out.rewind();
    return out;
  }

  // DJL's default toFloatArray() etc. go through toByteBuffer(): a new direct buffer per call
  // (slow to allocate, freed only by the garbage collector). These copy the tensor straight into
  // the Java array instead, one crossing, and keep DJL's check of the data type.

  @Override
  public float[] toFloatArray() {
    if (getDataType() == DataType.FLOAT16) {
      return NDArray.super.toFloatArray();  // DJL widens half floats itself
    }
    requireType(DataType.FLOAT32);
    Tensor t = tensor();
    float[] out = new float[elements(t, Float.BYTES)];
    t.copyTo(out);
    return out;
  }

  @Override
  public double[] toDoubleArray() {
    requireType(DataType.FLOAT64);
    Tensor t = tensor();
    double[] out = new double[elements(t, Double.BYTES)];
    t.copyTo(out);
    return out;
  }

  @Override
  public int[] toIntArray() {
    requireType(DataType.INT32);
    Tensor t = tensor();
    int[] out = new int[elements(t, Integer.BYTES)];
    t.copyTo(out);
    return out;
  }

  @Override
  public long[] toLongArray() {
    requireType(DataType.INT64);
    Tensor t = tensor();
    long[] out = new long[elements(t, Long.BYTES)];
    t.copyTo(out);
    return out;
  }

  /**
   * The element count of a fixed-size tensor, from its byte size: one crossing that allocates
   * nothing (its shape would be a new Java array, and sizing by reflection a slow call).
   */
  private static int elements(Tensor t, int width) {
    return Math.toIntExact(t.byteSize() / width);
  }

  private void requireType(DataType expected) {
    DataType actual = getDataType();
    if (actual != expected) {
      throw new IllegalStateException(
          "DataType mismatch, required " + expected + ", actual " + actual);
    }
  }

  @Override
  public String[] toStringArray(Charset charset) {
    checkOpen();
    byte[][] bytes = tensor().toBytesArray();
    String[] out = new String[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = new String(bytes[i], charset);
    }
    return out;
  }

  @Override
  public void set(Buffer buffer) {
    NDArray replacement = manager.create(buffer, getShape(), getDataType());
    intern(replacement);
  }

  @Override
  public void intern(NDArray replaced) {
    checkOpen();
    TfjniNDArray other = manager.from(replaced);
    if (other == this) {
      return;
    }
    // The other object gives up its value without freeing it.
    io.tfjni.eager.NDArray newEager;
    Tensor newTensor;
    synchronized (other) {
      other.checkOpen();
      newEager = other.eager;
      newTensor = other.tensor;
      other.eager = null;
      other.tensor = null;
      other.closed = true;
    }
    other.manager.detachInternal(other.uid);
    io.tfjni.eager.NDArray oldEager;
    Tensor oldTensor;
    synchronized (this) {
      if (closed) {
        closeValue(newEager, newTensor);
        checkOpen();
      }
      oldEager = eager;
      oldTensor = tensor;
      eager = newEager;
      tensor = newTensor;
      shape = null;
      dataType = null;
    }
    closeValue(oldEager, oldTensor);
  }

  @Override
  public boolean isReleased() {
    return closed;
  }

  @Override
  public void close() {
    io.tfjni.eager.NDArray oldEager;
    Tensor oldTensor;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      oldEager = eager;
      oldTensor = tensor;
      eager = null;
      tensor = null;
    }
    manager.detachInternal(uid);
    closeValue(oldEager, oldTensor);
  }

  private static void closeValue(io.tfjni.eager.NDArray eagerValue, Tensor tensorValue) {
    try {
      if (eagerValue != null) {
        eagerValue.close();
      }
    } finally {
      if (tensorValue != null) {
        tensorValue.close();
      }
    }
  }

  @Override
  public NDArrayEx getNDArrayInternal() {
    if (ex == null) {
      ex = new TfjniNDArrayEx(this);
    }
    return ex;
  }

  @Override
  public boolean contentEquals(Number number) {
    if (number == null || getDataType() == DataType.BOOLEAN
        || getDataType() == DataType.STRING) {
      return false;
    }
    try (NDArray eq = eq(number); NDArray all = eq.all()) {
      return all.getBoolean();
    }
  }

  @Override
  public boolean contentEquals(NDArray other) {
    if (other == null || !getShape().equals(other.getShape())
        || getDataType() != other.getDataType()) {
      return false;
    }
    if (getDataType() == DataType.STRING) {
      return Arrays.equals(toStringArray(), other.toStringArray());
    }
    return Arrays.equals(toByteArray(), other.toByteArray());
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof NDArray && contentEquals((NDArray) obj);
  }

  @Override
  public int hashCode() {
    return 0;
  }

  @Override
  public String toString() {
    if (closed) {
      return "This array is already closed";
    }
    return toDebugString();
  }

  // ---- arithmetic ----------------------------------------------------------------------------

  @Override
  public NDArray add(Number n) {
    return wrap(tfArray().add(n));
  }

  @Override
  public NDArray add(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::add);
  }

  @Override
  public NDArray sub(Number n) {
    return wrap(tfArray().sub(n));
  }

  @Override
  public NDArray sub(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::sub);
  }

  @Override
  public NDArray mul(Number n) {
    return wrap(tfArray().mul(n));
  }

  @Override
  public NDArray mul(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::mul);
  }

  @Override
  public NDArray div(Number n) {
    return wrap(tfArray().div(n));
  }

  @Override
  public NDArray div(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::div);
  }

  @Override
  public NDArray mod(Number n) {
    return wrap(tfArray().mod(n));
  }

  @Override
  public NDArray mod(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::mod);
  }

  @Override
  public NDArray pow(Number n) {
    return wrap(tfArray().pow(n));
  }

  @Override
  public NDArray pow(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::pow);
  }

  @Override
  public NDArray xlogy(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::xlogy);
  }

  @Override
  public NDArray maximum(Number n) {
    return wrap(tfArray().maximum(n));
  }

  @Override
  public NDArray maximum(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::maximum);
  }

  @Override
  public NDArray minimum(Number n) {
    return wrap(tfArray().minimum(n));
  }

  @Override
  public NDArray minimum(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::minimum);
  }

  @Override
  public NDArray addi(Number n) {
    return inPlace(add(n));
  }

  @Override
  public NDArray addi(NDArray other) {
    return inPlace(add(other));
  }

  @Override
  public NDArray subi(Number n) {
    return inPlace(sub(n));
  }

  @Override
  public NDArray subi(NDArray other) {
    return inPlace(sub(other));
  }

  @Override
  public NDArray muli(Number n) {
    return inPlace(mul(n));
  }

  @Override
  public NDArray muli(NDArray other) {
    return inPlace(mul(other));
  }

  @Override
  public NDArray divi(Number n) {
    return inPlace(div(n));
  }

  @Override
  public NDArray divi(NDArray other) {
    return inPlace(div(other));
  }

  @Override
  public NDArray modi(Number n) {
    return inPlace(mod(n));
  }

  @Override
  public NDArray modi(NDArray other) {
    return inPlace(mod(other));
  }

  @Override
  public NDArray powi(Number n) {
    return inPlace(pow(n));
  }

  @Override
  public NDArray powi(NDArray other) {
    return inPlace(pow(other));
  }

  @Override
  public NDArray neg() {
    return wrap(tfArray().neg());
  }

  @Override
  public NDArray negi() {
    return inPlace(neg());
  }

  @Override
  public NDArray sign() {
    return wrap(tfArray().sign());
  }

  @Override
  public NDArray signi() {
    return inPlace(sign());
  }

  // ---- comparison and logic ------------------------------------------------------------------

  @Override
  public NDArray eq(Number n) {
    return wrap(tfArray().eq(n));
  }

  @Override
  public NDArray eq(NDArray other) {
    return compare(other, io.tfjni.eager.NDArray::eq);
  }

  @Override
  public NDArray neq(Number n) {
    return wrap(tfArray().neq(n));
  }

  @Override
  public NDArray neq(NDArray other) {
    return compare(other, io.tfjni.eager.NDArray::neq);
  }

  @Override
  public NDArray gt(Number n) {
    return wrap(tfArray().gt(n));
  }

  @Override
  public NDArray gt(NDArray other) {
    return compare(other, io.tfjni.eager.NDArray::gt);
  }

  @Override
  public NDArray gte(Number n) {
    return wrap(tfArray().gte(n));
  }

  @Override
  public NDArray gte(NDArray other) {
    return compare(other, io.tfjni.eager.NDArray::gte);
  }

  @Override
  public NDArray lt(Number n) {
    return wrap(tfArray().lt(n));
  }

  @Override
  public NDArray lt(NDArray other) {
    return compare(other, io.tfjni.eager.NDArray::lt);
  }

  @Override
  public NDArray lte(Number n) {
    return wrap(tfArray().lte(n));
  }

  @Override
  public NDArray lte(NDArray other) {
    return compare(other, io.tfjni.eager.NDArray::lte);
  }

  @Override
  public NDArray logicalAnd(NDArray other) {
    return converted(other, io.tfjni.DataType.BOOL, io.tfjni.eager.NDArray::logicalAnd);
  }

  @Override
  public NDArray logicalOr(NDArray other) {
    return converted(other, io.tfjni.DataType.BOOL, io.tfjni.eager.NDArray::logicalOr);
  }

  @Override
  public NDArray logicalXor(NDArray other) {
    return converted(other, io.tfjni.DataType.BOOL, io.tfjni.eager.NDArray::logicalXor);
  }

  @Override
  public NDArray logicalNot() {
    try (Temporaries t = new Temporaries()) {
      return wrap(Indexing.castTo(t, tfArray(), io.tfjni.DataType.BOOL).logicalNot());
    }
  }

  @Override
  public NDArray isInfinite() {
    return wrap(tfArray().isInf());
  }

  @Override
  public NDArray isNaN() {
    return wrap(tfArray().isNaN());
  }

  // ---- element-wise math ---------------------------------------------------------------------

  @Override
  public NDArray abs() {
    return wrap(tfArray().abs());
  }

  @Override
  public NDArray square() {
    return wrap(tfArray().square());
  }

  @Override
  public NDArray sqrt() {
    return wrap(tfArray().sqrt());
  }

  @Override
  public NDArray cbrt() {
    return wrap(tfArray().cbrt());
  }

  @Override
  public NDArray floor() {
    return wrap(tfArray().floor());
  }

  @Override
  public NDArray ceil() {
    return wrap(tfArray().ceil());
  }

  @Override
  public NDArray round() {
    return wrap(tfArray().round());
  }

  @Override
  public NDArray trunc() {
    return wrap(tfArray().trunc());
  }

  @Override
  public NDArray exp() {
    return wrap(tfArray().exp());
  }

  @Override
  public NDArray gammaln() {
    return wrap(tfArray().lgamma());
  }

  @Override
  public NDArray log() {
    return wrap(tfArray().log());
  }

  @Override
  public NDArray log10() {
    return wrap(tfArray().log10());
  }

  @Override
  public NDArray log2() {
    return wrap(tfArray().log2());
  }

  @Override
  public NDArray sin() {
    return wrap(tfArray().sin());
  }

  @Override
  public NDArray cos() {
    return wrap(tfArray().cos());
  }

  @Override
  public NDArray tan() {
    return wrap(tfArray().tan());
  }

  @Override
  public NDArray asin() {
    return wrap(tfArray().asin());
  }

  @Override
  public NDArray acos() {
    return wrap(tfArray().acos());
  }

  @Override
  public NDArray atan() {
    return wrap(tfArray().atan());
  }

  @Override
  public NDArray atan2(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::atan2);
  }

  @Override
  public NDArray sinh() {
    return wrap(tfArray().sinh());
  }

  @Override
  public NDArray cosh() {
    return wrap(tfArray().cosh());
  }

  @Override
  public NDArray tanh() {
    return wrap(tfArray().tanh());
  }

  @Override
  public NDArray asinh() {
    return wrap(tfArray().asinh());
  }

  @Override
  public NDArray acosh() {
    return wrap(tfArray().acosh());
  }

  @Override
  public NDArray atanh() {
    return wrap(tfArray().atanh());
  }

  @Override
  public NDArray toDegrees() {
    return mul(180.0 / Math.PI);
  }

  @Override
  public NDArray toRadians() {
    return mul(Math.PI / 180.0);
  }

  @Override
  public NDArray erf() {
    return wrap(tfArray().erf());
  }

  @Override
  public NDArray erfinv() {
    return wrap(tfArray().erfinv());
  }

  @Override
  public NDArray clip(Number min, Number max) {
    return wrap(tfArray().clip(min, max));
  }

  // ---- reductions ----------------------------------------------------------------------------

  @Override
  public NDArray max() {
    return wrap(tfArray().max(allAxes(), false));
  }

  @Override
  public NDArray max(int[] axes, boolean keepDims) {
    return wrap(tfArray().max(axes, keepDims));
  }

  @Override
  public NDArray min() {
    return wrap(tfArray().min(allAxes(), false));
  }

  @Override
  public NDArray min(int[] axes, boolean keepDims) {
    return wrap(tfArray().min(axes, keepDims));
  }

  @Override
  public NDArray sum() {
    return sum(allAxes(), false);
  }

  @Override
  public NDArray sum(int[] axes, boolean keepDims) {
    return widened(x -> x.sum(axes, keepDims));
  }

  @Override
  public NDArray prod() {
    return prod(allAxes(), false);
  }

  @Override
  public NDArray prod(int[] axes, boolean keepDims) {
    return widened(x -> x.prod(axes, keepDims));
  }

  @Override
  public NDArray mean() {
    return wrap(tfArray().mean(allAxes(), false));
  }

  @Override
  public NDArray mean(int[] axes, boolean keepDims) {
    return wrap(tfArray().mean(axes, keepDims));
  }

  @Override
  public NDArray cumSum() {
    try (NDArray flat = flatten()) {
      return flat.cumSum(0);
    }
  }

  @Override
  public NDArray cumSum(int axis) {
    return widened(x -> x.cumSum(axis));
  }

  @Override
  public NDArray cumProd(int axis) {
    return widened(x -> x.cumProd(axis));
  }

  @Override
  public NDArray cumProd(int axis, DataType type) {
    try (Temporaries t = new Temporaries()) {
      return wrap(tfArray(t, type).cumProd(axis));
    }
  }

  @Override
  public NDArray argMax() {
    return argIndex("argMax", () -> tfArray().argMax());
  }

  @Override
  public NDArray argMax(int axis) {
    return argIndex("argMax", () -> isScalar() ? tf().scalar(0L) : tfArray().argMax(axis));
  }

  @Override
  public NDArray argMin() {
    return argIndex("argMin", () -> tfArray().argMin());
  }

  @Override
  public NDArray argMin(int axis) {
    return argIndex("argMin", () -> isScalar() ? tf().scalar(0L) : tfArray().argMin(axis));
  }

  /** DJL's rules for argMax and argMin: none of an empty array, 0 along a scalar's axis. */
  private NDArray argIndex(String name, Supplier<io.tfjni.eager.NDArray> index) {
    if (isEmpty()) {
      throw new IllegalArgumentException("attempt to get " + name + " of an empty NDArray");
    }
    return wrap(index.get());
  }

  /** The core's topK, its INT32 indices as DJL's INT64. */
  @Override
  public NDList topK(int k, int axis, boolean largest, boolean sorted) {
    io.tfjni.eager.NDArray[] found = tfArray().topK(k, axis, largest, sorted);
    try (io.tfjni.eager.NDArray indices = found[1]) {
      return new NDList(wrap(found[0]), wrap(indices.cast(io.tfjni.DataType.INT64)));
    }
  }

  @Override
  public NDArray sort() {
    return sort(-1);
  }

  @Override
  public NDArray sort(int axis) {
    if (isScalar() || isEmpty()) {
      return duplicate();
    }
    return wrap(tfArray().sort(normAxis(axis), false));
  }

  @Override
  public NDArray argSort(int axis, boolean ascending) {
    if (isScalar() || isEmpty()) {
      return manager.zeros(getShape(), DataType.INT64);
    }
    try (io.tfjni.eager.NDArray idx = tfArray().argSort(normAxis(axis), !ascending)) {
      return wrap(idx.cast(io.tfjni.DataType.INT64));
    }
  }

  @Override
  public NDArray softmax(int axis) {
    if (isScalar()) {
      return manager.ones(getShape(), getDataType());
    }
    return wrap(tfArray().softmax(axis));
  }

  @Override
  public NDArray logSoftmax(int axis) {
    if (isScalar()) {
      return manager.zeros(getShape(), getDataType());
    }
    return wrap(tfArray().logSoftmax(axis));
  }

  @Override
  public NDArray median() {
    return percentile(50);
  }

  @Override
  public NDArray median(int[] axes) {
    return percentile(50, axes);
  }

  /** numpy.percentile's default (linear interpolation between the two nearest ranks). */
  @Override
  public NDArray percentile(Number percentile) {
    return wrap(tfArray().percentile(percentile.doubleValue()));
  }

  @Override
  public NDArray percentile(Number percentile, int[] axes) {
    return wrap(tfArray().percentile(percentile.doubleValue(), axes));
  }

  @Override
  public NDArray norm(boolean keepDims) {
    return norm(2, allAxes(), keepDims);
  }

  /** PyTorch's entrywise p-norm over {@code axes} (as DJL's PyTorch engine; any order). */
  @Override
  public NDArray norm(int ord, int[] axes, boolean keepDims) {
    return widened(x -> x.norm(ord, axes, keepDims));
  }

  /** x / max(||x||_p along dim, eps), as torch's normalize; any p, infinities included. */
  @Override
  public NDArray normalize(double exponent, long dim, double eps) {
    try (NDArray n = widened(x -> x.norm(exponent, new int[] {Math.toIntExact(dim)}, true));
        NDArray m = n.maximum(eps)) {
      return div(m);
    }
  }

  // ---- shapes --------------------------------------------------------------------------------

  @Override
  public NDArray reshape(Shape newShape) {
    return wrap(tfArray().reshape(newShape.getShape()));
  }

  @Override
  public NDArray flatten() {
    return reshape(new Shape(-1));
  }

  @Override
  public NDArray flatten(int startDim, int endDim) {
    return wrap(tfArray().flatten(startDim, endDim));
  }

  @Override
  public NDArray expandDims(int axis) {
    return wrap(tfArray().expandDims(axis));
  }

  @Override
  public NDArray squeeze(int[] axes) {
    if (axes.length == 0 || isScalar()) {
      return duplicate();
    }
    long[] dims = getShape().getShape();
    for (int axis : axes) {
      int a = normAxis(axis);
      if (dims[a] != 1) {
        throw new IllegalArgumentException("cannot squeeze axis " + axis + " of size "
            + dims[a]);
      }
    }
    return wrap(tfArray().squeeze(axes));
  }

  @Override
  public NDArray transpose() {
    return wrap(tfArray().transpose());
  }

  @Override
  public NDArray transpose(int... axes) {
    if (axes.length != rank()) {
      throw new IllegalArgumentException("transpose needs " + rank() + " axes, got "
          + axes.length);
    }
    return wrap(tfArray().transpose(axes));
  }

  @Override
  public NDArray broadcast(Shape target) {
    return wrap(tfArray().broadcastTo(target.getShape()));
  }

  @Override
  public NDArray flip(int... axes) {
    return wrap(tfArray().flip(axes));
  }

  @Override
  public NDList split(long[] indices, int axis) {
    int a = normAxis(axis);
    long total = getShape().get(a);
    if (indices.length == 0) {
      return new NDList(duplicate());
    }
    long[] sizes = new long[indices.length];
    for (int i = 0; i < indices.length; i++) {
      long start = Math.min(indices[i], total);
      long end = i + 1 < indices.length ? Math.min(indices[i + 1], total) : total;
      sizes[i] = Math.max(0, end - start);
    }
    if (indices[0] != 0) {
      // DJL's indices are split points; a first piece before the first point.
      long[] withFirst = new long[sizes.length + 1];
      withFirst[0] = Math.min(indices[0], total);
      System.arraycopy(sizes, 0, withFirst, 1, sizes.length);
      sizes = withFirst;
    }
    return wrapAll(tfArray().split(sizes, a));
  }

  @Override
  public NDArray tile(long repeats) {
    long[] multiples = new long[Math.max(rank(), 1)];
    Arrays.fill(multiples, repeats);
    return tile(multiples);
  }

  @Override
  public NDArray tile(int axis, long repeats) {
    long[] multiples = new long[rank()];
    Arrays.fill(multiples, 1);
    multiples[normAxis(axis)] = repeats;
    return tile(multiples);
  }

  @Override
  public NDArray tile(long[] repeats) {
    return wrap(tfArray().tile(repeats));
  }

  @Override
  public NDArray tile(Shape desiredShape) {
    long[] target = desiredShape.getShape();
    long[] dims = getShape().getShape();
    if (target.length != dims.length) {
      throw new IllegalArgumentException("tile: the shape must have rank " + dims.length);
    }
    long[] multiples = new long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] == 0 || target[i] % dims[i] != 0) {
        throw new IllegalArgumentException("tile: " + desiredShape + " is no multiple of "
            + getShape());
      }
      multiples[i] = target[i] / dims[i];
    }
    return tile(multiples);
  }

  @Override
  public NDArray repeat(long repeats) {
    long[] each = new long[rank()];
    Arrays.fill(each, repeats);
    return repeat(each);
  }

  @Override
  public NDArray repeat(int axis, long repeats) {
    return wrap(tfArray().repeat(repeats, axis));
  }

  /** {@code repeats[i]} along each axis i, axis 0 first. */
  @Override
  public NDArray repeat(long[] repeats) {
    return wrapOrCopy(Temporaries.chain(tfArray(), repeats.length,
        (previous, axis) -> previous.repeat(repeats[axis], axis)));
  }

  @Override
  public NDArray repeat(Shape desiredShape) {
    // Aligned to the last axes, as broadcasting.
    long[] target = desiredShape.getShape();
    long[] dims = getShape().getShape();
    long[] repeats = new long[dims.length];
    int offset = dims.length - target.length;
    for (int i = 0; i < dims.length; i++) {
      repeats[i] = i < offset ? 1 : target[i - offset] / dims[i];
    }
    return repeat(repeats);
  }

  @Override
  public NDArray pad(Shape padding, double padValue) {
    long[] p = padding.getShape();
    int r = rank();
    long[][] pairs = new long[r][2];
    // DJL (PyTorch style): pairs from the last axis backwards.
    for (int i = 0; i < p.length / 2; i++) {
      pairs[r - 1 - i] = new long[] {p[2 * i], p[2 * i + 1]};
    }
    return wrap(tfArray().pad(pairs, padValue));
  }

  // ---- linear algebra ------------------------------------------------------------------------

  @Override
  public NDArray dot(NDArray other) {
    int r1 = rank();
    int r2 = other.getShape().dimension();
    if (r1 == 0 || r2 == 0) {
      return mul(other);
    }
    if (r1 == 1 && r2 == 1) {
      try (NDArray products = mul(other)) {
        return products.sum();
      }
    }
    // A matrix (or a stack of them) times a vector is matMul's case too.
    if (r2 == 1 || r1 <= 2 && r2 == 2) {
      return matMul(other);
    }
    throw new UnsupportedOperationException("dot: rank " + r1 + " x rank " + r2);
  }

  @Override
  public NDArray matMul(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::matMul);
  }

  @Override
  public NDArray batchMatMul(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::batchMatMul);
  }

  @Override
  public NDArray batchDot(NDArray other) {
    return binary(other, io.tfjni.eager.NDArray::batchMatMul);
  }

  @Override
  public NDArray inverse() {
    return wrap(tfArray().inverse());
  }

  @Override
  public NDArray diagonal() {
    return diagonal(0, 0, 1);
  }

  @Override
  public NDArray diagonal(int offset) {
    return diagonal(offset, 0, 1);
  }

  @Override
  public NDArray diagonal(int offset, int axis1, int axis2) {
    return wrap(tfArray().diagonal(offset, axis1, axis2));
  }

  @Override
  public NDArray trace(int offset, int axis1, int axis2) {
    try (NDArray d = diagonal(offset, axis1, axis2)) {
      return d.sum(new int[] {-1}, false);
    }
  }

  // ---- indexing (see Indexing) ----------------------------------------------------------------

  /** torch.gather: {@code out[i][j][k] = this[i][index[i][j][k]][k]} for axis 1. */
  @Override
  public NDArray gather(NDArray index, int axis) {
    return wrap(Indexing.takeAlongAxis(tfArray(), tfOf(index), normAxis(axis)));
  }

  /** MXNet's gather_nd: the index's first axis holds the coordinates. */
  @Override
  public NDArray gatherNd(NDArray index) {
    return wrap(Indexing.gatherNd(tfArray(), tfOf(index)));
  }

  /** numpy.take: indices into the flattened array; the result has the index's shape. */
  @Override
  public NDArray take(NDManager target, NDArray index) {
    return wrapIn(target, Indexing.takeFlat(tfArray(), tfOf(index)));
  }

  /** torch.put: flat indices. */
  @Override
  public NDArray put(NDArray index, NDArray data) {
    return wrap(Indexing.put(tfArray(), tfOf(index), tfOf(data)));
  }

  /** torch.scatter: {@code this[p with p[axis] = index[p]] = data[p]} for each p of index. */
  @Override
  public NDArray scatter(NDArray index, NDArray data, int axis) {
    return wrap(Indexing.scatter(tfArray(), tfOf(index), tfOf(data), normAxis(axis)));
  }

  @Override
  public NDArray booleanMask(NDArray index, int axis) {
    return wrap(Indexing.booleanMask(tfArray(), tfOf(index), axis));
  }

  @Override
  public NDArray sequenceMask(NDArray sequenceLength, float v) {
    return wrap(tfArray().sequenceMask(tfOf(sequenceLength), v));
  }

  @Override
  public NDArray sequenceMask(NDArray sequenceLength) {
    return sequenceMask(sequenceLength, 0);
  }

  @Override
  public NDArray nonzero() {
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray x = isScalar() ? t.add(tfArray().reshape(1)) : tfArray();
      return wrap(Indexing.castTo(t, x, io.tfjni.DataType.BOOL).where());
    }
  }

  @Override
  public NDList unique(Integer dim, boolean sorted, boolean returnInverse, boolean returnCounts) {
    io.tfjni.eager.NDArray[] found = Unique.unique(tfArray(), dim == null ? null : normAxis(dim),
        sorted);
    NDList result = new NDList(wrap(found[0]));
    for (int i = 1; i < 3; i++) {
      boolean wanted = i == 1 ? returnInverse : returnCounts;
      if (wanted) {
        result.add(wrap(found[i]));
      } else {
        // DJL's engines return empty INT64 arrays for the parts not asked for.
        found[i].close();
        result.add(manager.create(new long[0], new Shape(0)));
      }
    }
    return result;
  }

  @Override
  public NDArray oneHot(int depth, float onValue, float offValue, DataType type) {
    return wrap(tfArray().oneHot(depth, onValue, offValue, DataTypes.toTf(type)));
  }

  // ---- dense form, rotation, Fourier transforms, differences ----------------------------------

  @Override
  public NDArray toDense() {
    return duplicate();
  }

  @Override
  public NDArray toSparse(SparseFormat fmt) {
    throw new UnsupportedOperationException("sparse arrays: not implemented");
  }

  /** numpy.rot90: k quarter turns from the first axis towards the second. */
  @Override
  public NDArray rotate90(int times, int[] axes) {
    if (axes.length != 2) {
      throw new IllegalArgumentException("rotate90 needs two axes");
    }
    return wrap(tfArray().rot90(times, axes[0], axes[1]));
  }

  @Override
  public NDArray fft(long length, long axis) {
    return wrap(Spectral.transform(tfArray(), length, normAxis(Math.toIntExact(axis)), false));
  }

  @Override
  public NDArray rfft(long length, long axis) {
    return wrap(Spectral.rfft(tfArray(), length, normAxis(Math.toIntExact(axis))));
  }

  @Override
  public NDArray ifft(long length, long axis) {
    return wrap(Spectral.transform(tfArray(), length, normAxis(Math.toIntExact(axis)), true));
  }

  @Override
  public NDArray irfft(long length, long axis) {
    return wrap(Spectral.irfft(tfArray(), length, normAxis(Math.toIntExact(axis))));
  }

  @Override
  public NDArray fft2(long[] sizes, long[] axes) {
    return wrap(Spectral.transform2(tfArray(), sizes, normAxes(axes), false));
  }

  @Override
  public NDArray ifft2(long[] sizes, long[] axes) {
    return wrap(Spectral.transform2(tfArray(), sizes, normAxes(axes), true));
  }

  private int[] normAxes(long[] axes) {
    int[] result = new int[axes.length];
    for (int i = 0; i < axes.length; i++) {
      result[i] = normAxis(Math.toIntExact(axes[i]));
    }
    return result;
  }

  @Override
  public NDArray stft(long nFft, long hopLength, boolean center, NDArray window,
      boolean normalize, boolean returnComplex) {
    io.tfjni.eager.NDArray spectrum = Spectral.stft(tfArray(), nFft, hopLength, center,
        window == null ? null : tfOf(window), normalize);
    if (returnComplex) {
      return wrap(spectrum);
    }
    try (io.tfjni.eager.NDArray complex = spectrum) {
      return wrap(Spectral.real(complex));
    }
  }

  @Override
  public NDArray complex() {
    return wrap(Spectral.complex(tfArray()));
  }

  @Override
  public NDArray real() {
    return wrap(Spectral.real(tfArray()));
  }

  @Override
  public NDArray conj() {
    return wrap(tfArray().conj());
  }

  /** numpy.diff: n times {@code a[1:] - a[:-1]} along the axis. */
  @Override
  public NDArray diff(int n, int dim) {
    return wrap(tfArray().diff(n, dim));
  }
}
