package io.tfjni.djl;

import ai.djl.Device;
import ai.djl.ndarray.BaseNDManager;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.nio.charset.Charset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DJL's NDManager over tfjni's tensors and eager arrays. Every array it creates holds its own
 * native values (see {@link TfjniNDArray}); closing the manager closes them (and its sub-managers)
 * at once, with no garbage collector involved.
 */
public class TfjniNDManager extends BaseNDManager {
  private static final Logger LOGGER = LoggerFactory.getLogger(TfjniNDManager.class);

  TfjniNDManager(NDManager parent, Device device) {
    super(parent, device == null ? Device.cpu() : device);
  }

  static TfjniNDManager newSystemManager() {
    return new SystemManager();
  }

  /** The tfjni manager owning the native arrays. */
  io.tfjni.eager.NDManager tf() {
    return getEngine().arrays();
  }

  @Override
  public final TfjniEngine getEngine() {
    return TfjniEngine.peek();
  }

  @Override
  public ByteBuffer allocateDirect(int capacity) {
    return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
  }

  /** The array itself if it is this engine's, else a copy of it made here (null for null). */
  @Override
  public TfjniNDArray from(NDArray array) {
    if (array == null || array instanceof TfjniNDArray) {
      return (TfjniNDArray) array;
    }
    NDArray result;
    if (array.getDataType() == DataType.STRING) {
      result = create(array.toStringArray(), array.getShape());
    } else {
      result = create(array.toByteBuffer(), array.getShape(), array.getDataType());
    }
    result.setName(array.getName());
    return (TfjniNDArray) result;  // this manager makes only its engine's arrays
  }

  @Override
  public NDManager newSubManager(Device device) {
    TfjniNDManager child = new TfjniNDManager(this, device);
    attachUncappedInternal(child.uid, child);
    return child;
  }

  // DJL's BaseNDManager checks every attach and detach against the temporarily attached resources
  // (ConcurrentHashMap.compute, which also allocates that map's table). With none, the usual case,
  // a put or a remove does the same; a predict attaches and detaches three times.

  @Override
  public synchronized void attachUncappedInternal(String resourceId, AutoCloseable resource) {
    if (!tempResources.isEmpty()) {
      super.attachUncappedInternal(resourceId, resource);
      return;
    }
    if (closed.get()) {
      throw new IllegalStateException("cannot attach " + resourceId + " to " + getName()
          + ": the manager is closed");
    }
    resources.put(resourceId, resource);
  }

  @Override
  public synchronized void detachInternal(String resourceId) {
    if (!tempResources.isEmpty() || closed.get()) {
      super.detachInternal(resourceId);
      return;
    }
    resources.remove(resourceId);
  }

  /**
   * Closes what this manager holds and keeps it open, uncapped, for more: a {@link TfjniPredictor}
   * empties its context's manager after each predict instead of making a new one. Returns false,
   * having released nothing, while it holds resources attached only temporarily (they go back to
   * their own managers on {@link #close()}, which the caller then uses instead).
   */
  synchronized boolean releaseAll() {
    if (!tempResources.isEmpty() || closed.get()) {
      return false;
    }
    // Each resource detaches itself as it closes (detachInternal above): the map empties itself.
    for (AutoCloseable resource : resources.values()) {
      try {
        resource.close();
      } catch (Exception e) {
        LOGGER.error("closing a resource of {} failed", getName(), e);
      }
    }
    resources.clear();
    capped.set(false);
    return true;
  }

  /** Attaches one array (DJL's {@code attachInternal} takes varargs: an array per call). */
  synchronized void attachArray(String uid, TfjniNDArray array) {
    if (capped.get()) {
      throw new IllegalStateException("cannot attach array " + uid + " to " + getName()
          + ": the manager is capped (no new resources)");
    }
    attachUncappedInternal(uid, array);
  }

  /** Wraps a native array of the engine's tfjni manager into this manager. */
  TfjniNDArray wrap(io.tfjni.eager.NDArray value) {
    try {
      return new TfjniNDArray(this, value);
    } catch (RuntimeException e) {
      value.close();
      throw e;
    }
  }

  /** An array owning a tensor that nobody writes from now on (see {@link TfjniNDArray}). */
  TfjniNDArray wrap(io.tfjni.Tensor value) {
    try {
      return new TfjniNDArray(this, value);
    } catch (RuntimeException e) {
      value.close();
      throw e;
    }
  }

  @Override
  public NDArray create(Buffer data, Shape shape, DataType dataType) {
    if (dataType == DataType.STRING) {
      throw new IllegalArgumentException(
          "a STRING array is made with create(String[], Charset, Shape)");
    }
    int size = Math.toIntExact(shape.size());
    validateBuffer(data, dataType, size);
    io.tfjni.DataType tfType = DataTypes.toTf(dataType);
    long[] dims = shape.getShape();
    if (data instanceof ByteBuffer) {
      return wrap(tensorOf((ByteBuffer) data, tfType, size, dims));
    }
    Object values = fromTyped(data, size);
    Class<?> component = values.getClass().getComponentType();
    if (component == tfType.javaComponent()) {
      // A tensor only: the eager array is made if an op needs it (see TfjniNDArray).
      return wrap(io.tfjni.Tensor.of(tfType, values, dims));
    }
    // E.g. an IntBuffer for an INT64 array (DJL accepts any integer buffer): convert.
    io.tfjni.DataType natural = naturalType(component);
    try (io.tfjni.eager.NDArray raw = tf().create(natural, values, dims)) {
      return wrap(raw.cast(tfType));
    }
  }

  private static io.tfjni.DataType naturalType(Class<?> component) {
    if (component == float.class) {
      return io.tfjni.DataType.FLOAT;
    } else if (component == double.class) {
      return io.tfjni.DataType.DOUBLE;
    } else if (component == int.class) {
      return io.tfjni.DataType.INT32;
    } else if (component == long.class) {
      return io.tfjni.DataType.INT64;
    } else if (component == short.class) {
      return io.tfjni.DataType.INT16;
    }
    return io.tfjni.DataType.INT8;
  }

  /**
   * A tensor of the buffer's next {@code size} elements (native byte order), copied once, straight
   * into TensorFlow's memory. BOOL bytes are read as C does, any non-zero byte true.
   */
  private static io.tfjni.Tensor tensorOf(ByteBuffer data, io.tfjni.DataType type, int size,
      long[] dims) {
    ByteBuffer bytes = data.duplicate();
    bytes.limit(bytes.position() + size * type.byteSize());
    io.tfjni.Tensor tensor = io.tfjni.Tensor.allocate(type, dims);
    try {
      ByteBuffer target = tensor.buffer();
      if (type == io.tfjni.DataType.BOOL) {
        while (bytes.hasRemaining()) {
          target.put(bytes.get() != 0 ? (byte) 1 : (byte) 0);
        }
      } else {
        target.put(bytes);
      }
      return tensor;
    } catch (RuntimeException e) {
      tensor.close();
      throw e;
    }
  }

  private static Object fromTyped(Buffer data, int size) {
    // DJL's create(float[] ...) wraps the caller's array: hand it over as it is (the tensor made
    // from it copies it to native memory), no Java copy of the payload per call.
    if (data.hasArray() && data.arrayOffset() == 0 && data.position() == 0
        && java.lang.reflect.Array.getLength(data.array()) == size) {
      return data.array();
    }
    if (data instanceof FloatBuffer) {
      float[] out = new float[size];
      ((FloatBuffer) data).duplicate().get(out);
      return out;
    } else if (data instanceof DoubleBuffer) {
      double[] out = new double[size];
      ((DoubleBuffer) data).duplicate().get(out);
      return out;
    } else if (data instanceof IntBuffer) {
      int[] out = new int[size];
      ((IntBuffer) data).duplicate().get(out);
      return out;
    } else if (data instanceof LongBuffer) {
      long[] out = new long[size];
      ((LongBuffer) data).duplicate().get(out);
      return out;
    } else if (data instanceof ShortBuffer) {
      short[] out = new short[size];
      ((ShortBuffer) data).duplicate().get(out);
      return out;
    }
    throw new IllegalArgumentException("unsupported buffer " + data.getClass().getName());
  }

  @Override
  public NDArray create(Shape shape, DataType dataType) {
    return zeros(shape, dataType);
  }

  @Override
  public NDArray create(String[] data, Charset charset, Shape shape) {
    byte[][] bytes = new byte[data.length][];
    for (int i = 0; i < data.length; i++) {
      bytes[i] = data[i].getBytes(charset);
    }
    return wrap(io.tfjni.Tensor.ofBytes(bytes, shape.getShape()));
  }

  @Override
  public NDArray zeros(Shape shape, DataType dataType) {
    return full(shape, 0, dataType);
  }

  @Override
  public NDArray ones(Shape shape, DataType dataType) {
    return full(shape, 1, dataType);
  }

  @Override
  public NDArray full(Shape shape, float value, DataType dataType) {
    if (dataType == DataType.STRING) {
      throw new IllegalArgumentException("no numeric value for a STRING array");
    }
    return wrap(tf().full(DataTypes.toTf(dataType), value, shape.getShape()));
  }

  @Override
  public NDArray arange(float start, float stop, float step, DataType dataType) {
    if (step == 0) {
      throw new IllegalArgumentException("step must not be 0");
    }
    io.tfjni.DataType type = DataTypes.toTf(dataType);
    // numpy: the count is ceil((stop - start) / step), the values start + i * step.
    long count = Math.max(0, (long) Math.ceil((stop - start) / (double) step));
    if (count == 0) {
      return zeros(new Shape(0), dataType);
    }
    if (dataType.isInteger()) {
      try (io.tfjni.eager.NDArray index = tf().arange(0, (int) count, 1);
          io.tfjni.eager.NDArray wide = index.cast(io.tfjni.DataType.DOUBLE);
          io.tfjni.eager.NDArray scaled = wide.mul(step); io.tfjni.eager.NDArray shifted = scaled.add(start);
          io.tfjni.eager.NDArray floored = shifted.floor()) {
        return wrap(floored.cast(type));
      }
    }
    return wrap(tf().arange(type, start, stop, step));
  }

  @Override
  public NDArray eye(int rows, int cols, int k, DataType dataType) {
    return wrap(tf().eye(rows, cols, k, DataTypes.toTf(dataType)));
  }

  @Override
  public NDArray linspace(float start, float stop, int num, boolean endpoint) {
    if (num < 0) {
      throw new IllegalArgumentException("num must not be negative: " + num);
    }
    if (num == 0) {
      return zeros(new Shape(0), DataType.FLOAT32);
    }
    if (!endpoint) {
      stop = start + (stop - start) * (num - 1) / num;
    }
    return wrap(tf().linspace(start, stop, num));
  }

  private long[] nextSeed() {
    return getEngine().nextRandomSeed();
  }

  @Override
  public NDArray randomUniform(float low, float high, Shape shape, DataType dataType) {
    return wrap(tf().randomUniform(nextSeed(), low, high, DataTypes.toTf(dataType),
        shape.getShape()));
  }

  @Override
  public NDArray randomNormal(float loc, float scale, Shape shape, DataType dataType) {
    return wrap(tf().randomNormal(nextSeed(), loc, scale, DataTypes.toTf(dataType),
        shape.getShape()));
  }

  @Override
  public NDArray randomInteger(long low, long high, Shape shape, DataType dataType) {
    // Drawn as INT64 (DJL's bounds are longs), then converted to the type asked for.
    try (io.tfjni.eager.NDArray values = tf().randomInteger(nextSeed(), low, high,
        io.tfjni.DataType.INT64, shape.getShape())) {
      return wrap(values.cast(DataTypes.toTf(dataType)));
    }
  }

  /** The order of n uniform random values: a uniformly random permutation of 0..n-1. */
  @Override
  public NDArray randomPermutation(long n) {
    try (io.tfjni.eager.NDArray keys = tf().randomUniform(nextSeed(), 0f, 1f, io.tfjni.DataType.FLOAT,
        n)) {
      if (n == 0) {
        return zeros(new Shape(0), DataType.INT64);
      }
      try (io.tfjni.eager.NDArray order = keys.argSort(0, false)) {
        return wrap(order.cast(io.tfjni.DataType.INT64));
      }
    }
  }

  /** One FLOAT32 normal sample per (mu, sigma) pair: mu + sigma * N(0, 1). */
  @Override
  public NDArray sampleNormal(NDArray mu, NDArray sigma) {
    return sampleNormal(mu, sigma, new Shape());
  }

  /** FLOAT32 samples of {@code shape} per (mu, sigma) pair: mu's shape, then {@code shape}. */
  @Override
  public NDArray sampleNormal(NDArray mu, NDArray sigma, Shape shape) {
    Shape full = mu.getShape().addAll(shape);
    long[] aligned = new long[full.dimension()];
    java.util.Arrays.fill(aligned, 1);
    System.arraycopy(mu.getShape().getShape(), 0, aligned, 0, mu.getShape().dimension());
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray unit = t.add(tf().randomNormal(nextSeed(), 0f, 1f, io.tfjni.DataType.FLOAT,
          full.getShape()));
      io.tfjni.eager.NDArray m = t.add(from(mu).tfArray(t, DataType.FLOAT32).reshape(aligned));
      io.tfjni.eager.NDArray s = t.add(from(sigma).tfArray(t, DataType.FLOAT32).reshape(aligned));
      return wrap(t.add(unit.mul(s)).add(m));
    }
  }

  @Override
  public NDArray samplePoisson(NDArray lam) {
    return samplePoisson(lam, new Shape());
  }

  /** FLOAT32 Poisson counts of {@code shape} per rate: lam's shape, then {@code shape}. */
  @Override
  public NDArray samplePoisson(NDArray lam, Shape shape) {
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray rate = from(lam).tfArray(t, DataType.FLOAT32);
      return wrap(parameterFirst(t.add(tf().randomPoisson(nextSeed(), rate,
          io.tfjni.DataType.FLOAT, parameterLast(rate, shape))), shape));
    }
  }

  @Override
  public NDArray sampleGamma(NDArray alpha, NDArray beta) {
    return sampleGamma(alpha, beta, new Shape());
  }

  /** FLOAT32 Gamma(alpha, scale beta) samples of {@code shape} per pair, as sampleNormal. */
  @Override
  public NDArray sampleGamma(NDArray alpha, NDArray beta, Shape shape) {
    long[] aligned = new long[alpha.getShape().dimension() + shape.dimension()];
    java.util.Arrays.fill(aligned, 1);
    System.arraycopy(alpha.getShape().getShape(), 0, aligned, 0, alpha.getShape().dimension());
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray concentration = from(alpha).tfArray(t, DataType.FLOAT32);
      io.tfjni.eager.NDArray unit = t.add(parameterFirst(t.add(tf().randomGamma(nextSeed(),
          concentration, parameterLast(concentration, shape))), shape));
      io.tfjni.eager.NDArray scale = t.add(from(beta).tfArray(t, DataType.FLOAT32).reshape(aligned));
      return wrap(unit.mul(scale));
    }
  }

  /** The shape TensorFlow's samplers draw: DJL's {@code shape}, then the parameter's. */
  private static long[] parameterLast(io.tfjni.eager.NDArray param, Shape shape) {
    return shape.addAll(new Shape(param.shape())).getShape();
  }

  /** A draw of {@code shape + param} transposed to DJL's {@code param + shape}. */
  private static io.tfjni.eager.NDArray parameterFirst(io.tfjni.eager.NDArray samples,
      Shape shape) {
    int m = shape.dimension();
    int k = samples.shape().length - m;
    int[] perm = new int[m + k];
    for (int i = 0; i < k; i++) {
      perm[i] = m + i;
    }
    for (int i = 0; i < m; i++) {
      perm[k + i] = i;
    }
    return samples.transpose(perm);
  }

  @Override
  public NDArray truncatedNormal(float loc, float scale, Shape shape, DataType dataType) {
    return wrap(tf().truncatedNormal(nextSeed(), loc, scale, DataTypes.toTf(dataType),
        shape.getShape()));
  }

  /** The engine's root manager: lives as long as the process, never closed. */
  private static final class SystemManager extends TfjniNDManager implements SystemNDManager {
    SystemManager() {
      super(null, Device.cpu());
    }

    @Override
    public void close() {}
  }
}
