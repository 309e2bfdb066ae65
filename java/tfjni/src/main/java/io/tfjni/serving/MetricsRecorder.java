package io.tfjni.serving;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link VersionedModel}'s metrics: each version's {@link VersionMetrics} (which its {@link
 * LoadedVersion} writes on the request path), and the load events, heard as a {@link
 * ServingListener}. Versions that are no longer loaded are kept, the most recent {@value
 * #RETAINED_UNLOADED} of them, so that a model swapped hourly does not grow without bound.
 */
final class MetricsRecorder implements ServingListener {
  static final int RETAINED_UNLOADED = 16;

  private final String model;
  private final TreeMap<Long, VersionMetrics> versions = new TreeMap<>();
  private final LongAdder swaps = new LongAdder();
  private final LongAdder sourceFailures = new LongAdder();

  MetricsRecorder(String model) {
    this.model = model;
  }

  /** The metrics of a version, made the first time it is asked for. */
  synchronized VersionMetrics version(long version) {
    return versions.computeIfAbsent(version, v -> new VersionMetrics(model, v));
  }

  @Override
  public void onLoad(long version, Duration loadTime, Duration warmUpTime) {
    version(version).loaded(loadTime, warmUpTime);
  }

  @Override
  public void onLoadFailed(VersionFailure failure) {
    if (failure.stage() == VersionFailure.Stage.SOURCE) {
      sourceFailures.increment();
    } else {
      version(failure.version()).loadFailed();
      forgetOldest();
    }
  }

  @Override
  public void onSwap(long previousVersion, long newVersion, Duration unavailable) {
    swaps.increment();
  }

  @Override
  public void onUnload(long version, Duration drainTime) {
    version(version).unloaded();
    forgetOldest();
  }

  /**
   * Drops the lowest-numbered versions no {@link LoadedVersion} writes to, beyond the most
   * recent ones.
   */
  private synchronized void forgetOldest() {
    List<Long> unloaded = new ArrayList<>();
    versions.forEach((number, metrics) -> {
      if (!metrics.isAttached()) {
        unloaded.add(number);
      }
    });
    for (int i = 0; i < unloaded.size() - RETAINED_UNLOADED; i++) {
      versions.remove(unloaded.get(i));
    }
  }

  synchronized ServingMetrics snapshot(long servingVersion) {
    List<ServingMetrics.Version> snapshots = new ArrayList<>();
    versions.values().forEach(metrics -> snapshots.add(metrics.snapshot()));
    return new ServingMetrics(model, servingVersion, swaps.sum(), sourceFailures.sum(),
        List.copyOf(snapshots));
  }
}
