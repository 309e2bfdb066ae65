package io.tfjni;

import io.tfjni.internal.NativeLibrary;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Settings for runs (TensorFlow's {@code RunOptions}): a timeout, a trace level, and raw
 * {@code RunOptions} bytes for every other field. Immutable; each {@code with...} returns a copy.
 *
 * <p>Give them to a predictor once, with {@link Predictor#withOptions(RunOptions)}: the options
 * are encoded there, once, and every run of that predictor passes the same bytes, so a run with
 * options allocates nothing more than one without. The map API takes them per call
 * ({@link SavedModel#run(String, java.util.Map, RunOptions)}).
 */
public final class RunOptions {
  /** How much a run records in its {@link RunMetadata} (TensorFlow's RunOptions.TraceLevel). */
  public enum TraceLevel {
    /** Nothing: no step statistics. TensorFlow's default. */
    NO_TRACE,
    /** Per-node timings on the host. */
    SOFTWARE_TRACE,
    /** Device (GPU) kernel timings; on a CPU the same as SOFTWARE_TRACE. */
    HARDWARE_TRACE,
    /** Both. */
    FULL_TRACE
  }

  private static final RunOptions DEFAULTS = new RunOptions(-1, null, new byte[0]);

  /** -1: not set (TensorFlow's default, no timeout). */
  private final long timeoutMillis;
  private final TraceLevel traceLevel;
  private final byte[] raw;
  /** The serialized RunOptions, made once, on first use (racing threads make equal bytes). */
  private volatile byte[] encoded;

  private RunOptions(long timeoutMillis, TraceLevel traceLevel, byte[] raw) {
    this.timeoutMillis = timeoutMillis;
    this.traceLevel = traceLevel;
    this.raw = raw;
  }

  /**
   * Options with no field set: runs behave exactly as without options.
   *
   * @return the shared default options
   */
  public static RunOptions defaults() {
    return DEFAULTS;
  }

  /**
   * A run that takes longer than {@code millis} fails with {@link TensorFlowException} code
   * {@code DEADLINE_EXCEEDED}; TensorFlow cancels its remaining ops and the model stays usable.
   * 0 means no timeout (TensorFlow's meaning). Negative values are refused.
   *
   * @param millis the timeout in milliseconds, 0 or more
   * @return a copy with it set
   * @throws IllegalArgumentException if {@code millis} is negative
   */
  public RunOptions withTimeoutMillis(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException(
          "the run timeout must be >= 0 ms (0: no timeout), got " + millis);
    }
    return new RunOptions(millis, traceLevel, raw);
  }

  /**
   * The trace level; anything but NO_TRACE fills {@link RunMetadata#stepStats()}.
   *
   * @param level the level
   * @return a copy with it set
   */
  public RunOptions withTraceLevel(TraceLevel level) {
    return new RunOptions(timeoutMillis, Objects.requireNonNull(level, "level"), raw);
  }

  /**
   * A serialized {@code tensorflow.RunOptions} for the fields this class has no method for. The
   * timeout and trace level, when set, take precedence over the same fields in these bytes.
   * Bytes that are not a sequence of whole protobuf fields are refused where the options are
   * encoded; bytes TensorFlow cannot parse as a RunOptions fail each run with its error.
   *
   * @param runOptionsProto the serialized proto (copied)
   * @return a copy with it set
   */
  public RunOptions withRawOptions(byte[] runOptionsProto) {
    return new RunOptions(timeoutMillis, traceLevel,
        Objects.requireNonNull(runOptionsProto, "runOptionsProto").clone());
  }

  /**
   * The timeout.
   *
   * @return the timeout in milliseconds, if set (0: set to "no timeout")
   */
  public OptionalLong timeoutMillis() {
    return timeoutMillis < 0 ? OptionalLong.empty() : OptionalLong.of(timeoutMillis);
  }

  /**
   * The trace level.
   *
   * @return the level; NO_TRACE when not set
   */
  public TraceLevel traceLevel() {
    return traceLevel == null ? TraceLevel.NO_TRACE : traceLevel;
  }

  /**
   * The raw RunOptions bytes.
   *
   * @return a copy (empty when not set)
   */
  public byte[] rawOptions() {
    return raw.clone();
  }

  /**
   * Whether no field is set.
   *
   * @return true if runs with these options behave as without options
   */
  public boolean isDefault() {
    return timeoutMillis < 0 && traceLevel == null && raw.length == 0;
  }

  /** The serialized RunOptions the runs pass to TensorFlow (by the C++ core's encoder). */
  byte[] encoded() {
    byte[] bytes = encoded;
    if (bytes == null) {
      NativeLibrary.ensureLoaded();
      bytes = nativeEncode(timeoutMillis, traceLevel == null ? -1 : traceLevel.ordinal(), raw);
      encoded = bytes;
    }
    return bytes;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RunOptions o && o.timeoutMillis == timeoutMillis
        && o.traceLevel == traceLevel && Arrays.equals(o.raw, raw);
  }

  @Override
  public int hashCode() {
    return Objects.hash(timeoutMillis, traceLevel, Arrays.hashCode(raw));
  }

  @Override
  public String toString() {
    return "RunOptions[timeoutMillis=" + (timeoutMillis < 0 ? "unset" : timeoutMillis)
        + ", traceLevel=" + (traceLevel == null ? "unset" : traceLevel) + ", raw=" + raw.length
        + " bytes]";
  }

  /** {@code timeoutMillis} and {@code traceLevel}: -1 when not set. */
  private static native byte[] nativeEncode(long timeoutMillis, int traceLevel, byte[] raw);
}
