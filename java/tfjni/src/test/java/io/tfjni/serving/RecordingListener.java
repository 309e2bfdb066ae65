package io.tfjni.serving;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Records a versioned model's events as short strings ("load 2", "swap 1->2", ...). */
final class RecordingListener implements ServingListener {
  private final List<String> events = new ArrayList<>();
  private final List<VersionFailure> failures = new ArrayList<>();

  synchronized List<String> events() {
    return List.copyOf(events);
  }

  synchronized List<VersionFailure> failures() {
    return List.copyOf(failures);
  }

  synchronized void clear() {
    events.clear();
    failures.clear();
  }

  @Override
  public synchronized void onLoad(long version, Duration loadTime, Duration warmUpTime) {
    events.add("load " + version);
  }

  @Override
  public synchronized void onLoadFailed(VersionFailure failure) {
    events.add("failed " + failure.version() + " " + failure.stage());
    failures.add(failure);
  }

  @Override
  public synchronized void onSwap(long previousVersion, long newVersion, Duration unavailable) {
    events.add("swap " + previousVersion + "->" + newVersion);
  }

  @Override
  public synchronized void onUnload(long version, Duration drainTime) {
    events.add("unload " + version);
  }
}
