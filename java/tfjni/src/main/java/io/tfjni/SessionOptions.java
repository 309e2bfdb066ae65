package io.tfjni;

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
  private static final long UNSET = -1;

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

  private SessionOptions() {}

  public static SessionOptions defaults() {
    return new SessionOptions();
  }

  /** Threads one op may use (0: TensorFlow chooses, usually the core count). */
  public SessionOptions intraOpThreads(int threads) {
    intraOpThreads = requireThreads(threads);
    return this;
  }

  /** Threads that run independent ops at once (0: TensorFlow chooses). */
  public SessionOptions interOpThreads(int threads) {
    interOpThreads = requireThreads(threads);
    return this;
  }

  /** Give this session its own thread pools instead of the process-wide ones. */
  public SessionOptions usePerSessionThreads(boolean value) {
    usePerSessionThreads = value ? 1 : 0;
    return this;
  }

  /** Adds an inter-op pool (the first is used by default); a named pool is shared by name. */
  public SessionOptions addSessionInterOpThreadPool(int threads, String globalName) {
    poolThreads.add((int) requireThreads(threads));
    poolNames.add(globalName == null ? "" : globalName);
    return this;
  }

  /** Place ops on CPU when the requested device cannot run them. */
  public SessionOptions allowSoftPlacement(boolean value) {
    allowSoftPlacement = value ? 1 : 0;
    return this;
  }

  public SessionOptions gpuAllowGrowth(boolean value) {
    gpuAllowGrowth = value ? 1 : 0;
    return this;
  }

  /** Fraction of each GPU's memory to reserve, a finite number >= 0. */
  public SessionOptions gpuMemoryFraction(double fraction) {
    if (!Double.isFinite(fraction) || fraction < 0) {
      throw new IllegalArgumentException("GPU memory fraction must be finite and >= 0, got "
          + fraction);
    }
    gpuMemoryFraction = fraction;
    return this;
  }

  /** Comma-separated GPU ids visible to this session, e.g. "0,1". */
  public SessionOptions gpuVisibleDevices(String devices) {
    gpuVisibleDevices = Objects.requireNonNull(devices, "devices");
    return this;
  }

  /** A serialized tensorflow.ConfigProto for settings not covered above. */
  public SessionOptions rawConfigProto(byte[] configProto) {
    rawConfigProto = Objects.requireNonNull(configProto, "configProto").clone();
    return this;
  }

  // The encoding io_tfjni_*.cpp reads through jni_support's session_config().
  long[] scalars() {
    long fractionBits = gpuMemoryFraction == null ? 0
        : Double.doubleToRawLongBits(gpuMemoryFraction);
    return new long[] {intraOpThreads, interOpThreads, usePerSessionThreads, allowSoftPlacement,
        gpuAllowGrowth, gpuMemoryFraction == null ? 0 : 1, fractionBits};
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
