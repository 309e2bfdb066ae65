package io.tfjni;

import io.tfjni.eager.EagerContext;
import io.tfjni.internal.NativeLibrary;
import java.lang.annotation.Native;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Per-session settings, turned into a TensorFlow ConfigProto by tfjni's native core (never
 * through environment variables). Unset fields keep TensorFlow's defaults. For anything not
 * covered here, pass a serialized ConfigProto with {@link #rawConfigProto(byte[])}; the fields set
 * here take precedence over it.
 */
public final class SessionOptions {
  /** "Not set": outside the int range, where every setter's value lies (-1 is CALLER_THREAD). */
  @Native private static final long UNSET = 1L << 32;

  /**
   * The {@link #interOpThreads(int)} value that runs every op of a run on the thread that called
   * it: see {@link #runOnCallerThread()}.
   */
  public static final int CALLER_THREAD = -1;

  // Positions in scalars(). @Native makes javac -h write them (and UNSET) into
  // io_tfjni_SessionOptions.h, from which native/jni/jni_support.cpp reads them.
  @Native private static final int INTRA_OP_THREADS = 0;
  @Native private static final int INTER_OP_THREADS = 1;
  @Native private static final int USE_PER_SESSION_THREADS = 2;
  @Native private static final int ALLOW_SOFT_PLACEMENT = 3;
  @Native private static final int GPU_ALLOW_GROWTH = 4;
  /** 1 if a GPU memory fraction is set, else 0. */
  @Native private static final int HAS_GPU_MEMORY_FRACTION = 5;
  /** The fraction's Double.doubleToRawLongBits. */
  @Native private static final int GPU_MEMORY_FRACTION_BITS = 6;
  @Native private static final int SCALAR_COUNT = 7;

  private long intraOpThreads = UNSET;
  private long interOpThreads = UNSET;
  private long usePerSessionThreads = UNSET;
  private long allowSoftPlacement = UNSET;
  private long gpuAllowGrowth = UNSET;
  private Double gpuMemoryFraction;
  private String gpuVisibleDevices;
  private byte[] rawConfigProto;
  private final List<Integer> poolThreads = new ArrayList<>();
  private final List<String> poolNames = new ArrayList<>();
  private int liteRtThreads;

  private SessionOptions() {}

  /**
   * Options with nothing set: TensorFlow's defaults.
   *
   * @return new options, to set further
   */
  public static SessionOptions defaults() {
    return new SessionOptions();
  }

  /**
   * Threads one op may use (0: TensorFlow chooses, usually the core count). TensorFlow sizes this
   * pool once per process, when the first session or eager context starts: later counts are
   * ignored, with {@link #usePerSessionThreads(boolean)} too ({@link ThreadPools} refuses them).
   *
   * @param threads the count, 0 or more
   * @return these options
   * @throws IllegalArgumentException if {@code threads} is negative
   */
  public SessionOptions intraOpThreads(int threads) {
    intraOpThreads = requireThreads(threads);
    return this;
  }

  /**
   * Threads that run independent ops at once (0: TensorFlow chooses), or {@link #CALLER_THREAD}
   * (-1): no inter-op pool, every op runs on the thread that called the run, as with
   * {@link #runOnCallerThread()}. Other negative counts are rejected. TensorFlow sizes its shared
   * inter-op pool for the first session of the process; a count given to a later session takes
   * effect only in a pool of its own ({@link #usePerSessionThreads(boolean)}).
   *
   * @param threads the count, 0 or more, or {@link #CALLER_THREAD}
   * @return these options
   * @throws IllegalArgumentException if {@code threads} is negative but not {@link #CALLER_THREAD}
   */
  public SessionOptions interOpThreads(int threads) {
    if (threads < 0 && threads != CALLER_THREAD) {
      throw new IllegalArgumentException("inter-op thread count must be >= 0 (0 lets TensorFlow"
          + " choose) or -1 (SessionOptions.CALLER_THREAD: run every op on the calling thread),"
          + " got " + threads);
    }
    interOpThreads = threads;
    return this;
  }

  /**
   * Runs each signature at each batch size that {@code tfjni convert} converted to LiteRT with
   * LiteRT instead of TensorFlow: {@code SavedModel.load} loads the converted models it finds in
   * the SavedModel directory ({@link LiteRtConversions}), and {@link SavedModel#predictor(String,
   * int)} runs one of them for a batch size that has one, and TensorFlow otherwise. Not a
   * TensorFlow session setting: it leaves {@link #toConfigProto()} as it is. LiteRT's runtime
   * library must be configured (see {@link LiteRtModel}).
   *
   * @param threads the CPU threads each LiteRT model uses for a run, at least 1; 0 (the default)
   *     to run every batch size with TensorFlow
   * @return these options
   * @throws IllegalArgumentException if {@code threads} is negative
   */
  public SessionOptions preferLiteRt(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("LiteRT thread count must be >= 1, or 0 for TensorFlow"
          + " only, got " + threads);
    }
    liteRtThreads = threads;
    return this;
  }

  /**
   * Runs every op of a session run on the thread that called it ({@code Predictor.run},
   * {@code SavedModel.run}) instead of handing each op to TensorFlow's inter-op pool and waiting
   * for it: TensorFlow's {@code inter_op_parallelism_threads = -1}, the same as
   * {@code interOpThreads(CALLER_THREAD)}. Parallelism inside one op (a large matrix multiply or
   * convolution) still uses the intra-op pool.
   *
   * <p>It saves the hand-off on every call, which dominates small models, and lets each caller
   * thread run its own call; it loses the overlap of independent ops within one call, which
   * matters only for wide graphs run by a single caller. docs/GUIDE.md's "Running ops on the
   * calling thread" has measurements. TensorFlow honours it only for sessions on the process-wide pool,
   * so a model loaded with it together with {@link #usePerSessionThreads(boolean)
   * usePerSessionThreads(true)} or {@link #addSessionInterOpThreadPool} fails to load
   * ({@code INVALID_ARGUMENT}). For an {@link EagerContext} it requires synchronous dispatch.
   *
   * @return these options
   */
  public SessionOptions runOnCallerThread() {
    interOpThreads = CALLER_THREAD;
    return this;
  }

  /**
   * Gives this session its own thread pools instead of the process-wide ones.
   *
   * @param value true for pools of its own
   * @return these options
   */
  public SessionOptions usePerSessionThreads(boolean value) {
    usePerSessionThreads = value ? 1 : 0;
    return this;
  }

  /**
   * Adds an inter-op pool (the first is used by default); a named pool is shared by name.
   *
   * @param threads the pool's thread count, 0 or more (0: TensorFlow chooses)
   * @param globalName the name sessions share the pool by; null or empty for a pool of its own
   * @return these options
   * @throws IllegalArgumentException if {@code threads} is negative
   */
  public SessionOptions addSessionInterOpThreadPool(int threads, String globalName) {
    poolThreads.add((int) requireThreads(threads));
    poolNames.add(globalName == null ? "" : globalName);
    return this;
  }

  /**
   * Places ops on the CPU when the requested device cannot run them.
   *
   * @param value true to allow it
   * @return these options
   */
  public SessionOptions allowSoftPlacement(boolean value) {
    allowSoftPlacement = value ? 1 : 0;
    return this;
  }

  /**
   * Whether the GPU allocator starts small and grows as needed, rather than taking most of each
   * GPU's memory up front.
   *
   * @param value true to grow as needed
   * @return these options
   */
  public SessionOptions gpuAllowGrowth(boolean value) {
    gpuAllowGrowth = value ? 1 : 0;
    return this;
  }

  /**
   * The fraction of each GPU's memory to reserve.
   *
   * @param fraction a finite number, 0 or more
   * @return these options
   * @throws IllegalArgumentException if {@code fraction} is negative, infinite or NaN
   */
  public SessionOptions gpuMemoryFraction(double fraction) {
    if (!Double.isFinite(fraction) || fraction < 0) {
      throw new IllegalArgumentException("GPU memory fraction must be finite and >= 0, got "
          + fraction);
    }
    gpuMemoryFraction = fraction;
    return this;
  }

  /**
   * The GPUs visible to this session.
   *
   * @param devices comma-separated GPU ids, e.g. {@code "0,1"}
   * @return these options
   */
  public SessionOptions gpuVisibleDevices(String devices) {
    gpuVisibleDevices = Objects.requireNonNull(devices, "devices");
    return this;
  }

  /**
   * A serialized {@code tensorflow.ConfigProto} for settings not covered above; the typed settings
   * are merged over it.
   *
   * @param configProto the serialized proto (copied)
   * @return these options
   */
  public SessionOptions rawConfigProto(byte[] configProto) {
    rawConfigProto = Objects.requireNonNull(configProto, "configProto").clone();
    return this;
  }

  /**
   * The serialized {@code tensorflow.ConfigProto} a session loaded with these options is given:
   * the typed settings merged over {@link #rawConfigProto(byte[])}, byte for byte what TensorFlow
   * Python's {@code ConfigProto.SerializeToString()} gives for the same fields. For inspection
   * (TensorFlow Python reads it with {@code ConfigProto.FromString}); loading does this itself.
   *
   * @throws TensorFlowException ({@code INVALID_ARGUMENT}) for settings a session refuses to
   *     load with, such as the calling thread together with per-session pools, or raw bytes that
   *     are not whole protobuf fields
   * @return the serialized ConfigProto
   */
  public byte[] toConfigProto() {
    NativeLibrary.ensureLoaded();
    return nativeConfigProto(scalars(), visibleDevices(), rawConfig(), poolThreads(),
        poolNames());
  }

  private static native byte[] nativeConfigProto(long[] scalars, String visibleDevices,
      byte[] rawConfig, int[] poolThreads, String[] poolNames);

  // The encoding io_tfjni_*.cpp reads through jni_support's session_config(); UNSET means "not
  // set".
  long[] scalars() {
    long[] scalars = new long[SCALAR_COUNT];
    scalars[INTRA_OP_THREADS] = intraOpThreads;
    scalars[INTER_OP_THREADS] = interOpThreads;
    scalars[USE_PER_SESSION_THREADS] = usePerSessionThreads;
    scalars[ALLOW_SOFT_PLACEMENT] = allowSoftPlacement;
    scalars[GPU_ALLOW_GROWTH] = gpuAllowGrowth;
    if (gpuMemoryFraction != null) {
      scalars[HAS_GPU_MEMORY_FRACTION] = 1;
      scalars[GPU_MEMORY_FRACTION_BITS] = Double.doubleToRawLongBits(gpuMemoryFraction);
    }
    return scalars;
  }

  /** The intra-op count set, 0 (TensorFlow's choice) if none is. */
  int intraOpThreadCount() {
    return intraOpThreads == UNSET ? 0 : (int) intraOpThreads;
  }

  /** The threads of each preferred LiteRT model; 0 if LiteRT is not preferred. */
  int liteRtThreads() {
    return liteRtThreads;
  }

  boolean runsOnCallerThread() {
    return interOpThreads == CALLER_THREAD;
  }

  String visibleDevices() {
    return gpuVisibleDevices;
  }

  byte[] rawConfig() {
    return rawConfigProto;
  }

  int[] poolThreads() {
    return poolThreads.stream().mapToInt(Integer::intValue).toArray();
  }

  String[] poolNames() {
    return poolNames.toArray(new String[0]);
  }

  private static long requireThreads(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("thread count must be >= 0 (0 lets TensorFlow choose), got "
          + threads);
    }
    return threads;
  }
}
