package io.tfjni.serving;

import io.tfjni.Tensor;
import io.tfjni.TensorFlowException;
import io.tfjni.batching.BatchListener;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters of one version. The request path calls {@link #callStarted()} and {@link
 * #callEnded}: two clock reads and a few {@link LongAdder} additions, no lock, no allocation.
 * The version's batching predictors tell it of their runs (queue waits, batch sizes) as their
 * {@link BatchListener}, as cheaply. The version's load events are counted by {@link
 * MetricsRecorder}.
 */
final class VersionMetrics implements BatchListener {
  private static final TensorFlowException.Code[] CODES = TensorFlowException.Code.values();

  final String model;
  final long version;
  private final LongAdder inFlight = new LongAdder();
  private final LongAdder rows = new LongAdder();
  private final LatencyHistogram runTime = new LatencyHistogram();
  private final LatencyHistogram queueWait = new LatencyHistogram();
  private final SizeHistogram batchSizes = new SizeHistogram();
  private final LongAdder[] errorsByCode = new LongAdder[CODES.length];
  private final LongAdder otherFailures = new LongAdder();
  private final AtomicInteger holders = new AtomicInteger();
  private final LongAdder loads = new LongAdder();
  private final LongAdder failedLoads = new LongAdder();
  private final LongAdder unloads = new LongAdder();
  private volatile long loadTimeNanos;
  private volatile long warmUpTimeNanos;
  /** Per signature, the batch sizes its predictors run on LiteRT, ascending. */
  private volatile Map<String, List<Integer>> liteRtBatchSizes = Map.of();

  VersionMetrics(String model, long version) {
    this.model = model;
    this.version = version;
    for (int i = 0; i < errorsByCode.length; i++) {
      errorsByCode[i] = new LongAdder();
    }
  }

  /** Counts a call in flight; returns its start for {@link #callEnded}. */
  long callStarted() {
    inFlight.increment();
    return System.nanoTime();
  }

  /**
   * Counts a finished call: its run time, and its rows (the first input's first dimension; 1 for
   * a scalar or no input) if it succeeded, else its failure by TensorFlow code.
   */
  void callEnded(long started, Tensor[] inputs, Throwable failure) {
    long runTime = System.nanoTime() - started;
    long callRows = failure == null ? rowsOf(inputs) : 0;
    record(runTime, callRows, failure);
  }

  /** As {@link #callEnded}, for a call of a known number of rows. */
  void callEnded(long started, long callRows, Throwable failure) {
    long runTime = System.nanoTime() - started;
    record(runTime, failure == null ? callRows : 0, failure);
  }

  private void record(long runTimeNanos, long callRows, Throwable failure) {
    inFlight.decrement();
    runTime.record(runTimeNanos);
    String error = "";
    if (failure == null) {
      rows.add(callRows);
    } else {
      TensorFlowException tensorFlow = tensorFlowCause(failure);
      if (tensorFlow != null) {
        errorsByCode[tensorFlow.code().ordinal()].increment();
        error = tensorFlow.code().name();
      } else {
        otherFailures.increment();
        error = failure.getClass().getName();
      }
    }
    ServingEvents.run(model, version, callRows, runTimeNanos, error);
  }

  static long rowsOf(Tensor[] inputs) {
    return inputs.length == 0 || inputs[0].rank() == 0 ? 1 : inputs[0].dimension(0);
  }

  /** The TensorFlow error behind a failure (a future's failure wraps it), or null. */
  private static TensorFlowException tensorFlowCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof TensorFlowException tensorFlow) {
        return tensorFlow;
      }
    }
    return null;
  }

  @Override
  public void onCallerStarted(long waitNanos) {
    queueWait.record(waitNanos);
  }

  @Override
  public void onRun(int callers, int rows, long runNanos, boolean failed) {
    batchSizes.record(rows);
    ServingEvents.batch(model, version, callers, rows, runNanos, failed);
  }

  void loaded(Duration loadTime, Duration warmUpTime) {
    loads.increment();
    loadTimeNanos = loadTime.toNanos();
    warmUpTimeNanos = warmUpTime.toNanos();
  }

  /** A predictor of {@code signatureKey} runs these batch sizes on LiteRT. */
  synchronized void servesOnLiteRt(String signatureKey, Collection<Integer> sizes) {
    Map<String, List<Integer>> all = new TreeMap<>(liteRtBatchSizes);
    Set<Integer> merged = new TreeSet<>(all.getOrDefault(signatureKey, List.of()));
    merged.addAll(sizes);
    all.put(signatureKey, List.copyOf(merged));
    liteRtBatchSizes = Collections.unmodifiableMap(all);
  }

  void loadFailed() {
    failedLoads.increment();
  }

  void unloaded() {
    unloads.increment();
  }

  /** A {@link LoadedVersion} writes these counters from now until it is closed. */
  void attach() {
    holders.incrementAndGet();
  }

  void detach() {
    holders.decrementAndGet();
  }

  /** Whether a {@link LoadedVersion} (loading, serving or draining) still writes here. */
  boolean isAttached() {
    return holders.get() > 0;
  }

  ServingMetrics.Version snapshot() {
    Map<TensorFlowException.Code, Long> errors = new EnumMap<>(TensorFlowException.Code.class);
    for (int i = 0; i < CODES.length; i++) {
      long count = errorsByCode[i].sum();
      if (count != 0) {
        errors.put(CODES[i], count);
      }
    }
    HistogramSnapshot times = runTime.snapshot();
    return new ServingMetrics.Version(version, times.count(), rows.sum(), Map.copyOf(errors),
        otherFailures.sum(), inFlight.sum(), times, queueWait.snapshot(), batchSizes.snapshot(),
        loads.sum(), failedLoads.sum(), unloads.sum(),
        Duration.ofNanos(loadTimeNanos), Duration.ofNanos(warmUpTimeNanos), liteRtBatchSizes);
  }
}
