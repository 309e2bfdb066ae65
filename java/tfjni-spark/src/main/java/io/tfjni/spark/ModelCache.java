package io.tfjni.spark;

import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.ThreadPools;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The models loaded in this JVM (a Spark executor, or the driver), one per path and settings,
 * shared by every task and thread. Each user holds a {@link Lease}; a model no lease has used
 * for {@value #IDLE_SECONDS_PROPERTY} seconds (default {@value #DEFAULT_IDLE_SECONDS}) is closed
 * by a daemon thread, and every model is closed at JVM shutdown.
 */
final class ModelCache {
  static final String IDLE_SECONDS_PROPERTY = "tfjni.spark.idleSeconds";
  static final long DEFAULT_IDLE_SECONDS = 300;

  /** What makes two loads the same model. */
  record Key(Path path, List<String> tags, int intraOpThreads, int interOpThreads) {}

  private static final class Entry {
    final SavedModel model;
    int leases;
    long lastReleasedNanos;

    Entry(SavedModel model) {
      this.model = model;
    }
  }

  private static final Map<Key, Entry> ENTRIES = new HashMap<>();
  private static ScheduledExecutorService reaper;

  private ModelCache() {}

  /** A lease on the model for {@code key}, loading it if no one in this JVM has. */
  static Lease acquire(Key key) {
    synchronized (ENTRIES) {
      Entry entry = ENTRIES.get(key);
      if (entry == null || entry.model.isClosed()) {
        // Loading under the cache's one lock: every acquire and release in this JVM waits for
        // the load, so a model is loaded once however many tasks want it.
        SessionOptions options = SessionOptions.defaults();
        ThreadPools.intraOpThreads(options, key.intraOpThreads());
        ThreadPools.interOpThreads(options, key.interOpThreads());
        entry = new Entry(SavedModel.load(key.path(), options, key.tags().toArray(new String[0])));
        ENTRIES.put(key, entry);
        startReaper();
      }
      entry.leases++;
      return new Lease(key, entry);
    }
  }

  /** Closes every model no lease holds; what the reaper does once they are idle long enough. */
  static int evictUnused() {
    return evict(0);
  }

  private static int evict(long idleNanos) {
    List<SavedModel> idle = new ArrayList<>();
    synchronized (ENTRIES) {
      long now = System.nanoTime();
      ENTRIES.values().removeIf(entry -> {
        boolean unused = entry.leases == 0 && now - entry.lastReleasedNanos >= idleNanos;
        if (unused) {
          idle.add(entry.model);
        }
        return unused;
      });
    }
    idle.forEach(SavedModel::close);
    return idle.size();
  }

  private static void startReaper() {
    if (reaper != null) {
      return;
    }
    long idleSeconds = Long.getLong(IDLE_SECONDS_PROPERTY, DEFAULT_IDLE_SECONDS);
    reaper = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "tfjni-spark-model-reaper");
      thread.setDaemon(true);
      return thread;
    });
    long period = Math.max(1, idleSeconds / 2);
    reaper.scheduleWithFixedDelay(() -> evict(TimeUnit.SECONDS.toNanos(idleSeconds)), period,
        period, TimeUnit.SECONDS);
    Runtime.getRuntime().addShutdownHook(new Thread(ModelCache::closeAll, "tfjni-spark-shutdown"));
  }

  private static void closeAll() {
    List<SavedModel> all = new ArrayList<>();
    synchronized (ENTRIES) {
      ENTRIES.values().forEach(entry -> all.add(entry.model));
      ENTRIES.clear();
    }
    all.forEach(SavedModel::close);  // waits for runs in flight, then frees
  }

  /** One user's hold on a cached model; close it when done (idempotent). */
  static final class Lease implements AutoCloseable {
    private final Key key;
    private Entry entry;

    private Lease(Key key, Entry entry) {
      this.key = key;
      this.entry = entry;
    }

    SavedModel model() {
      if (entry == null) {
        throw new IllegalStateException("the lease on " + key.path() + " is closed");
      }
      return entry.model;
    }

    @Override
    public void close() {
      synchronized (ENTRIES) {
        if (entry != null) {
          entry.leases--;
          entry.lastReleasedNanos = System.nanoTime();
          entry = null;
        }
      }
    }
  }
}
