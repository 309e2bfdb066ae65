package io.tfjni.eager;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.internal.CoreAccess;
import io.tfjni.internal.NativeResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * A scope for eager arrays. Every {@link NDArray} belongs to one manager; closing the manager
 * closes its sub-managers first, then its arrays, freeing their native memory at once. All
 * managers of a context share its thread pools.
 *
 * <p>Thread safety: arrays may be created in, and ops run on, one manager from several threads;
 * closing it while ops run waits for them.
 */
public final class NDManager implements AutoCloseable {
  /** TensorFlow's RNG algorithm "auto_select" (Philox on CPU), as tf.random.stateless_* use. */
  private static final int AUTO_SELECT_RNG = 3;

  private final EagerContext context;
  private final NDManager parent;
  private final Set<NDManager> children = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;
  /**
   * Guards closing and the list of open arrays; private, so a user's {@code synchronized
   * (manager)} cannot stall it.
   */
  private final Object lock = new Object();
  /**
   * The first of this manager's open arrays, which link to each other (see
   * {@link NDArray#nextInManager}): tracking an array allocates no node of its own.
   */
  private NDArray firstArray;

  private NDManager(EagerContext context, NDManager parent) {
    // Throws if the context is closed. The hold keeps its native context alive while this
    // manager's arrays may still need it (see EagerContext#hold).
    context.hold();
    this.context = context;
    this.parent = parent;
  }

  /**
   * A root manager on the process-wide {@link EagerContext#shared()} context.
   *
   * @return a new manager, owned by the caller: close it to free its arrays
   */
  public static NDManager newBaseManager() {
    return new NDManager(EagerContext.shared(), null);
  }

  /**
   * A root manager on a context of the caller's.
   *
   * @param context the context its ops run on (close it after the manager)
   * @return a new manager, owned by the caller: close it to free its arrays
   * @throws IllegalStateException if the context is closed
   */
  public static NDManager newBaseManager(EagerContext context) {
    return new NDManager(Objects.requireNonNull(context, "context"), null);
  }

  /**
   * A child scope: closed with this manager, or earlier on its own.
   *
   * @return a new manager, owned by this one
   * @throws IllegalStateException if this manager is closed
   */
  public NDManager newSubManager() {
    NDManager child = new NDManager(context, this);
    children.add(child);
    if (closed) {
      child.close();
      throw closedException();
    }
    return child;
  }

  /**
   * The context this manager's ops run on.
   *
   * @return the context (not owned by the manager)
   */
  public EagerContext context() {
    return context;
  }

  /**
   * The manager this one is a sub-manager of.
   *
   * @return the parent; null for a root manager
   */
  public NDManager parent() {
    return parent;
  }

  /**
   * Whether {@link #close()} was called.
   *
   * @return true once closed
   */
  public boolean isClosed() {
    return closed;
  }

  /**
   * A builder for any TensorFlow op by name, e.g. {@code opBuilder("MatMul")}.
   *
   * @param opName the op's name in TensorFlow's registry
   * @return a builder whose outputs belong to this manager; build it once
   * @throws IllegalStateException if this manager is closed
   */
  public OpBuilder opBuilder(String opName) {
    checkOpen();
    return new OpBuilder(this, opName);
  }

  /**
   * An array holding a tensor's value; the tensor stays the caller's to close. A tensor the caller
   * can still write (made with {@link Tensor#of} or {@link Tensor#allocate}, possibly over the
   * caller's buffer) is copied, so refilling it later never changes this array or results derived
   * from it; read-only tensors (a run's outputs, {@link NDArray#toTensor()}) are shared without a
   * copy.
   *
   * @param tensor the value (not closed: it stays the caller's)
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray from(Tensor tensor) {
    Objects.requireNonNull(tensor, "tensor");
    checkOpen();
    if (CoreAccess.get().isWritable(tensor) && tensor.dataType().isFixedSize()) {
      try (Tensor snapshot = Tensor.allocate(tensor.dataType(), tensor.shape())) {
        snapshot.buffer().put(tensor.buffer());
        return wrap(snapshot);
      }
    }
    return wrap(tensor);
  }

  /**
   * An array sharing the tensor's memory without a copy, whoever may write it; the tensor stays the
   * caller's to close (the array keeps the memory alive). For a caller that owns the tensor and
   * never writes it again: unlike {@link #from(Tensor)}, a later write would change this array.
   *
   * @param tensor the value (not closed: it stays the caller's)
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray share(Tensor tensor) {
    Objects.requireNonNull(tensor, "tensor");
    checkOpen();
    return wrap(tensor);
  }

  /** An array sharing the tensor's memory. */
  private NDArray wrap(Tensor tensor) {
    long t = NativeResource.acquire(tensor);
    try {
      return new NDArray(this, NDArray.nativeFromTensor(t));
    } finally {
      NativeResource.release(tensor);
    }
  }

  /**
   * A FLOAT array holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the data's length is not the shape's element count
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray create(float[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  /**
   * A DOUBLE array holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the data's length is not the shape's element count
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray create(double[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  /**
   * A INT32 array holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the data's length is not the shape's element count
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray create(int[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  /**
   * A INT64 array holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the data's length is not the shape's element count
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray create(long[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  /**
   * A BOOL array holding a copy of {@code data}, in row-major order.
   *
   * @param data the elements
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the data's length is not the shape's element count
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray create(boolean[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  /**
   * Any fixed-size type from a primitive array of matching width (see {@link Tensor#of}).
   *
   * @param dataType a fixed-size type
   * @param primitiveArray the elements, copied
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the array does not match the type or the shape
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray create(DataType dataType, Object primitiveArray, long... shape) {
    return fromNewTensor(Tensor.of(dataType, primitiveArray, shape));
  }

  /**
   * A STRING array of UTF-8 text.
   *
   * @param values the elements, in row-major order
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the values' count is not the shape's element count
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray create(String[] values, long... shape) {
    return fromNewTensor(Tensor.ofStrings(values, shape));
  }

  /**
   * A STRING array of arbitrary bytes.
   *
   * @param values the elements' bytes (copied), in row-major order
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the values' count is not the shape's element count
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray create(byte[][] values, long... shape) {
    return fromNewTensor(Tensor.ofBytes(values, shape));
  }

  /**
   * A FLOAT scalar.
   *
   * @param value the value
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray scalar(float value) {
    return create(new float[] {value});
  }

  /**
   * A DOUBLE scalar.
   *
   * @param value the value
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray scalar(double value) {
    return create(new double[] {value});
  }

  /**
   * A INT32 scalar.
   *
   * @param value the value
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray scalar(int value) {
    return create(new int[] {value});
  }

  /**
   * A INT64 scalar.
   *
   * @param value the value
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray scalar(long value) {
    return create(new long[] {value});
  }

  /**
   * A BOOL scalar.
   *
   * @param value the value
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray scalar(boolean value) {
    return create(new boolean[] {value});
  }

  /**
   * A STRING (UTF-8) scalar.
   *
   * @param value the value
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray scalar(String value) {
    return create(new String[] {value});
  }

  /**
   * A scalar of any numeric (or BOOL) type, converted from {@code value} the way a Java cast
   * would (integer types take {@code value.longValue()}'s low bits; BOOL is {@code value != 0}).
   *
   * @param dataType a numeric type or BOOL
   * @param value the value
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException for a type that is not numeric or BOOL
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray scalar(DataType dataType, Number value) {
    Objects.requireNonNull(dataType, "dataType");
    Objects.requireNonNull(value, "value");
    switch (dataType) {
      case FLOAT:
        return scalar(value.floatValue());
      case DOUBLE:
        return scalar(value.doubleValue());
      case INT32:
      case UINT32:
        return create(dataType, new int[] {(int) value.longValue()});
      case INT64:
      case UINT64:
        return create(dataType, new long[] {value.longValue()});
      case INT8:
      case UINT8:
        return create(dataType, new byte[] {(byte) value.longValue()});
      case INT16:
      case UINT16:
        return create(dataType, new short[] {(short) value.longValue()});
      case BOOL:
        return scalar(value.doubleValue() != 0);
      case HALF:
      case BFLOAT16:
      case COMPLEX64:
      case COMPLEX128:
        try (NDArray wide = value instanceof Float ? scalar(value.floatValue())
            : scalar(value.doubleValue())) {
          return wide.cast(dataType);
        }
      default:
        throw new IllegalArgumentException("no numeric scalar of type " + dataType);
    }
  }

  /**
   * An array of {@code shape} with every element {@code value} (see
   * {@link #scalar(DataType, Number)}).
   *
   * @param dataType a numeric type or BOOL
   * @param value the value of every element
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException for a negative dimension or a type that is not numeric or BOOL
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray full(DataType dataType, Number value, long... shape) {
    Tensor.elementCount(shape);
    try (NDArray dims = vector(shape); NDArray fill = scalar(dataType, value)) {
      return opBuilder("Fill").addInput(dims).addInput(fill).build();
    }
  }

  /**
   * An array of zeros.
   *
   * @param dataType a numeric type or BOOL
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException for a negative dimension or a type that is not numeric or BOOL
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray zeros(DataType dataType, long... shape) {
    return full(dataType, 0, shape);
  }

  /**
   * An array of ones.
   *
   * @param dataType a numeric type or BOOL
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException for a negative dimension or a type that is not numeric or BOOL
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray ones(DataType dataType, long... shape) {
    return full(dataType, 1, shape);
  }

  /**
   * INT32 {@code [0, 1, ..., stop - 1]}.
   *
   * @param stop the end, excluded
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray arange(int stop) {
    return arange(0, stop, 1);
  }

  /**
   * INT32 values from {@code start} up to (excluding) {@code stop} by {@code step} (tf.range).
   *
   * @param start the first value
   * @param stop the end, excluded
   * @param step the difference between neighbours, not 0
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray arange(int start, int stop, int step) {
    try (NDArray a = scalar(start); NDArray b = scalar(stop); NDArray d = scalar(step)) {
      return opBuilder("Range").addInput(a).addInput(b).addInput(d).build();
    }
  }

  /**
   * FLOAT values from {@code start} up to (excluding) {@code stop} by {@code step} (tf.range).
   *
   * @param start the first value
   * @param stop the end, excluded
   * @param step the difference between neighbours, not 0
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray arange(float start, float stop, float step) {
    try (NDArray a = scalar(start); NDArray b = scalar(stop); NDArray d = scalar(step)) {
      return opBuilder("Range").addInput(a).addInput(b).addInput(d).build();
    }
  }

  /**
   * Values of {@code dataType} from {@code start} up to (excluding) {@code stop} by {@code step}
   * (tf.range with a dtype): each bound converted as {@link #scalar(DataType, Number)} does.
   *
   * @param dataType INT32, INT64, HALF, BFLOAT16, FLOAT or DOUBLE
   * @param start the first value
   * @param stop the end, excluded
   * @param step the difference between neighbours, not 0
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray arange(DataType dataType, Number start, Number stop, Number step) {
    try (NDArray a = scalar(dataType, start); NDArray b = scalar(dataType, stop);
        NDArray d = scalar(dataType, step)) {
      return opBuilder("Range").addInput(a).addInput(b).addInput(d).build();
    }
  }

  /**
   * {@code num} evenly spaced FLOAT values from {@code start} to {@code stop}, both included
   * (TensorFlow's LinSpace kernel; tf.linspace computes the same values with other ops and may
   * differ from it in the last bit).
   *
   * @param start the first value
   * @param stop the last value
   * @param num how many values, at least 1
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray linspace(float start, float stop, int num) {
    try (NDArray a = scalar(start); NDArray b = scalar(stop); NDArray n = scalar(num)) {
      return opBuilder("LinSpace").addInput(a).addInput(b).addInput(n).build();
    }
  }

  /**
   * The FLOAT identity matrix of size n x n.
   *
   * @param n the number of rows and columns
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if {@code n} is negative
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray eye(int n) {
    return eye(n, n, DataType.FLOAT);
  }

  /**
   * A rows x cols matrix with ones on the main diagonal, zeros elsewhere (tf.eye).
   *
   * @param rows the number of rows
   * @param cols the number of columns
   * @param dataType a numeric type or BOOL
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException for a negative size or a type that is not numeric or BOOL
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray eye(int rows, int cols, DataType dataType) {
    return eye(rows, cols, 0, dataType);
  }

  /**
   * A rows x cols matrix with ones on diagonal {@code k} (0 the main one, above it positive,
   * below it negative), zeros elsewhere (numpy.eye's {@code k}; MatrixDiagV3).
   *
   * @param rows the number of rows
   * @param cols the number of columns
   * @param k the diagonal; one outside the matrix leaves it all zeros
   * @param dataType a numeric type or BOOL
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException for a negative size or a type that is not numeric or BOOL
   * @throws IllegalStateException if this manager is closed
   */
  public NDArray eye(int rows, int cols, int k, DataType dataType) {
    if (rows < 0 || cols < 0) {
      throw new IllegalArgumentException("negative size " + rows + " x " + cols);
    }
    int length = Math.max(0, Math.min(rows - Math.max(0, -k), cols - Math.max(0, k)));
    if (length == 0) {
      return zeros(dataType, rows, cols);
    }
    try (NDArray diagonal = ones(dataType, length); NDArray offset = scalar(k);
        NDArray r = scalar(rows); NDArray c = scalar(cols);
        NDArray padding = scalar(dataType, 0)) {
      return opBuilder("MatrixDiagV3").addInput(diagonal).addInput(offset).addInput(r).addInput(c)
          .addInput(padding).build();
    }
  }

  /**
   * Uniform random values in [low, high), deterministic for a given {@code seed} (two longs):
   * the same values as TensorFlow Python's {@code tf.random.stateless_uniform(shape, seed,
   * low, high, dtype)} with its default {@code alg="auto_select"} (StatelessRandomGetKeyCounter,
   * then StatelessRandomUniformV2 with algorithm 3, then {@code * (high - low) + low}).
   * {@code dataType} is HALF, BFLOAT16, FLOAT or DOUBLE.
   *
   * @param seed two longs
   * @param low the lowest value, included
   * @param high the end of the range, excluded
   * @param dataType HALF, BFLOAT16, FLOAT or DOUBLE
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws IllegalArgumentException if {@code seed} is not two longs
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray randomUniform(long[] seed, double low, double high, DataType dataType,
      long... shape) {
    try (NDArray unit = statelessRandom("StatelessRandomUniformV2", seed, dataType, shape);
        NDArray lo = scalar(dataType, low); NDArray hi = scalar(dataType, high);
        NDArray range = hi.sub(lo); NDArray scaled = unit.mul(range)) {
      return scaled.add(lo);
    }
  }

  /**
   * Normally distributed random values, deterministic for a given {@code seed} (two longs): the
   * same values as {@code tf.random.stateless_normal(shape, seed, mean, stddev, dtype)} with
   * {@code alg="auto_select"} (StatelessRandomNormalV2, then {@code * stddev + mean}).
   *
   * @param seed two longs
   * @param mean the distribution's mean
   * @param stddev the distribution's standard deviation
   * @param dataType HALF, BFLOAT16, FLOAT or DOUBLE
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws IllegalArgumentException if {@code seed} is not two longs
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray randomNormal(long[] seed, double mean, double stddev, DataType dataType,
      long... shape) {
    try (NDArray unit = statelessRandom("StatelessRandomNormalV2", seed, dataType, shape);
        NDArray m = scalar(dataType, mean); NDArray s = scalar(dataType, stddev);
        NDArray scaled = unit.mul(s)) {
      return scaled.add(m);
    }
  }

  /**
   * Uniform random integers in [low, high), deterministic for a given {@code seed}: the same
   * values as {@code tf.random.stateless_uniform(shape, seed, low, high, dtype)} for an integer
   * dtype (StatelessRandomUniformIntV2 with algorithm auto_select).
   *
   * @param seed two longs
   * @param low the lowest value, included
   * @param high the end of the range, excluded (above {@code low})
   * @param dataType INT32 or INT64
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws IllegalArgumentException if {@code seed} is not two longs
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray randomInteger(long[] seed, long low, long high, DataType dataType,
      long... shape) {
    try (NDArray lo = scalar(dataType, low); NDArray hi = scalar(dataType, high)) {
      return statelessRandom("StatelessRandomUniformIntV2", seed, shape,
          op -> op.addInput(lo).addInput(hi));
    }
  }

  /**
   * Normal random values redrawn until within two standard deviations of the mean,
   * deterministic for a given {@code seed}: the same values as
   * {@code tf.random.stateless_truncated_normal(shape, seed, mean, stddev, dtype)}
   * (StatelessTruncatedNormalV2, then {@code * stddev + mean}).
   *
   * @param seed two longs
   * @param mean the distribution's mean
   * @param stddev the standard deviation of the normal distribution before truncation
   * @param dataType HALF, BFLOAT16, FLOAT or DOUBLE
   * @param shape the dimensions; none for a scalar
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws IllegalArgumentException if {@code seed} is not two longs
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray truncatedNormal(long[] seed, double mean, double stddev, DataType dataType,
      long... shape) {
    try (NDArray unit = statelessRandom("StatelessTruncatedNormalV2", seed, dataType, shape);
        NDArray m = scalar(dataType, mean); NDArray s = scalar(dataType, stddev);
        NDArray scaled = unit.mul(s)) {
      return scaled.add(m);
    }
  }

  /**
   * Poisson counts, deterministic for a given {@code seed}: the same values as
   * {@code tf.random.stateless_poisson(shape, seed, rate, dtype)}. {@code shape} ends with the
   * rate's shape; each sample at {@code [..., i]} draws with {@code rate[i]}.
   *
   * @param seed two longs
   * @param rate the rates (HALF, FLOAT, DOUBLE, INT32 or INT64)
   * @param dataType the samples' type: HALF, FLOAT, DOUBLE, INT32 or INT64
   * @param shape the dimensions, ending with the rate's
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws IllegalArgumentException if {@code seed} is not two longs
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray randomPoisson(long[] seed, NDArray rate, DataType dataType, long... shape) {
    Objects.requireNonNull(rate, "rate");
    Objects.requireNonNull(dataType, "dataType");
    checkSeed(seed);
    try (NDArray dims = vector(shape); NDArray seedArray = vector(seed)) {
      return opBuilder("StatelessRandomPoisson").addInput(dims).addInput(seedArray)
          .addInput(rate).setAttr("dtype", dataType).build();
    }
  }

  /**
   * Gamma samples of scale 1, deterministic for a given {@code seed}: the same values as
   * {@code tf.random.stateless_gamma(shape, seed, alpha)} (StatelessRandomGammaV3, then at least
   * the type's smallest normal number). {@code shape} ends with alpha's shape; each sample at
   * {@code [..., i]} draws with concentration {@code alpha[i]}.
   *
   * @param seed two longs
   * @param alpha the concentrations (HALF, FLOAT or DOUBLE); the samples have its type
   * @param shape the dimensions, ending with alpha's
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws IllegalArgumentException if {@code seed} is not two longs
   * @throws TensorFlowException TensorFlow's error if its op refuses the arguments
   */
  public NDArray randomGamma(long[] seed, NDArray alpha, long... shape) {
    Objects.requireNonNull(alpha, "alpha");
    DataType type = alpha.dataType();
    double tiny = type == DataType.DOUBLE ? Double.MIN_NORMAL
        : type == DataType.HALF ? 0x1p-14 : Float.MIN_NORMAL;
    try (NDArray samples = statelessRandom("StatelessRandomGammaV3", seed, shape,
        op -> op.addInput(alpha))) {
      return samples.maximum(tiny);
    }
  }

  /**
   * Decodes a JPEG image into a UINT8 [height, width, channels] array.
   *
   * @param encoded the file's bytes
   * @param channels the channels wanted; 0 for the image's own
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws TensorFlowException TensorFlow's error if the bytes are no such image
   */
  public NDArray decodeJpeg(byte[] encoded, int channels) {
    try (NDArray bytes = encodedScalar(encoded)) {
      return bytes.decodeJpeg(channels);
    }
  }

  /**
   * Decodes a PNG image into a UINT8 [height, width, channels] array.
   *
   * @param encoded the file's bytes
   * @param channels the channels wanted; 0 for the image's own
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws TensorFlowException TensorFlow's error if the bytes are no such image
   */
  public NDArray decodePng(byte[] encoded, int channels) {
    try (NDArray bytes = encodedScalar(encoded)) {
      return bytes.decodePng(channels);
    }
  }

  /**
   * Decodes a BMP, GIF, JPEG or PNG image into UINT8 [height, width, channels] (animated GIFs:
   * [frames, height, width, channels]), like tf.io.decode_image.
   *
   * @param encoded the file's bytes
   * @param channels the channels wanted; 0 for the image's own
   * @return a new array, owned by this manager (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this manager is closed
   * @throws TensorFlowException TensorFlow's error if the bytes are no such image
   */
  public NDArray decodeImage(byte[] encoded, int channels) {
    try (NDArray bytes = encodedScalar(encoded)) {
      return bytes.decodeImage(channels);
    }
  }

  /** Closes sub-managers, then arrays; idempotent. */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;  // once: the context's hold is dropped exactly once
    }
    for (NDManager child : children) {
      child.close();
    }
    // No array joins once closed is set, so this is every array still open.
    List<NDArray> open = new ArrayList<>();
    synchronized (lock) {
      for (NDArray a = firstArray; a != null; a = a.nextInManager) {
        open.add(a);
      }
    }
    for (NDArray array : open) {
      array.close();
    }
    // An array another thread is closing right now is freed by that thread: wait for it, so that
    // the context is never released under a tensor handle still being deleted.
    boolean interrupted = false;
    synchronized (lock) {
      while (firstArray != null) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (parent != null) {
      parent.children.remove(this);
    }
    context.unhold();
  }

  void attach(NDArray array) {
    synchronized (lock) {
      if (!closed) {
        array.nextInManager = firstArray;
        if (firstArray != null) {
          firstArray.previousInManager = array;
        }
        firstArray = array;
        return;
      }
    }
    array.close();  // never listed: its detach finds nothing to unlink
    throw closedException();
  }

  /** An array of this manager was freed. */
  void detach(NDArray array) {
    synchronized (lock) {
      NDArray previous = array.previousInManager;
      NDArray next = array.nextInManager;
      if (previous != null) {
        previous.nextInManager = next;
      } else if (firstArray == array) {
        firstArray = next;
      }
      if (next != null) {
        next.previousInManager = previous;
      }
      array.previousInManager = null;
      array.nextInManager = null;
      if (closed) {
        lock.notifyAll();
      }
    }
  }

  void checkOpen() {
    if (closed) {
      throw closedException();
    }
  }

  /** An INT64 vector. */
  NDArray vector(long[] values) {
    return create(values.clone(), values.length);
  }

  /** An INT32 vector. */
  NDArray vector(int[] values) {
    return create(values.clone(), values.length);
  }

  private NDArray encodedScalar(byte[] encoded) {
    Objects.requireNonNull(encoded, "encoded");
    return create(new byte[][] {encoded});
  }

  private NDArray statelessRandom(String opName, long[] seed, DataType dataType, long[] shape) {
    Objects.requireNonNull(dataType, "dataType");
    return statelessRandom(opName, seed, shape, op -> op.setAttr("dtype", dataType));
  }

  /**
   * A stateless sampler run with its first four inputs (shape, key, counter, algorithm) made from
   * a seed as TensorFlow Python's auto_select makes them, and {@code rest} adding the others.
   */
  private NDArray statelessRandom(String opName, long[] seed, long[] shape,
      UnaryOperator<OpBuilder> rest) {
    checkSeed(seed);
    Tensor.elementCount(shape);
    NDArray[] keyCounter;
    try (NDArray seedArray = vector(seed)) {
      keyCounter = opBuilder("StatelessRandomGetKeyCounter").addInput(seedArray).buildAll();
    }
    try (NDArray key = keyCounter[0]; NDArray counter = keyCounter[1];
        NDArray dims = vector(shape); NDArray algorithm = scalar(AUTO_SELECT_RNG)) {
      return rest.apply(opBuilder(opName).addInput(dims).addInput(key).addInput(counter)
          .addInput(algorithm)).build();
    }
  }

  private static void checkSeed(long[] seed) {
    Objects.requireNonNull(seed, "seed");
    if (seed.length != 2) {
      throw new IllegalArgumentException("a seed is two longs, got " + seed.length);
    }
  }

  /** An array over a tensor nobody else can write: no copy needed. */
  private NDArray fromNewTensor(Tensor tensor) {
    try (tensor) {
      checkOpen();
      return wrap(tensor);
    }
  }

  private static IllegalStateException closedException() {
    return new IllegalStateException("NDManager is closed");
  }
}
