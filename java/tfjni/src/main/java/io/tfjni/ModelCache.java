package io.tfjni;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * SavedModels shared by every user in one JVM (a Spark executor, a Flink TaskManager), one per
 * path, tags and thread settings, loaded once. Each user holds a {@link Lease}. A model no lease
 * holds is closed once it has been unused for the cache's idle time: at once with an idle time of
 * zero (the last user closes it), or later by a daemon thread, so that users that come and go
 * (one task after another) do not load it again each time. Every model is closed at JVM
 * shutdown. Thread counts follow {@link ThreadPools}' rule.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
public final class ModelCache {
  /**
   * What makes two loads the same model.
   *
   * @param path the SavedModel's directory
   * @param tags the MetaGraphDef's tags
   * @param intraOpThreads the intra-op count, under {@link ThreadPools}' rule
   * @param interOpThreads the inter-op count, under {@link ThreadPools}' rule
   * @param liteRtThreads {@link SessionOptions#preferLiteRt(int)}'s threads: 0 for TensorFlow
   *     only
   */
  public record Key(Path path, List<String> tags, int intraOpThreads, int interOpThreads,
      int liteRtThreads) {
    /**
     * Keeps a copy of {@code tags}.
     *
     * @param path the SavedModel's directory
     * @param tags the MetaGraphDef's tags
     * @param intraOpThreads the intra-op count
     * @param interOpThreads the inter-op count
     * @param liteRtThreads the LiteRT thread count, 0 for none
     */
    public Key {
      Objects.requireNonNull(path, "path");
      tags = List.copyOf(tags);
    }

    /**
     * A key of a model run by TensorFlow only.
     *
     * @param path the SavedModel's directory
     * @param tags the MetaGraphDef's tags
     * @param intraOpThreads the intra-op count
     * @param interOpThreads the inter-op count
     */
    public Key(Path path, List<String> tags, int intraOpThreads, int interOpThreads) {
      this(path, tags, intraOpThreads, interOpThreads, 0);
    }
  }

  private static final class Entry {
    final SavedModel model;
    int leases;
    long lastReleasedNanos;

    Entry(SavedModel model) {
      this.model = model;
    }
  }

  private final String name;
  private final long idleNanos;
  /** Starts running a task every period of nanoseconds, for the cache's life. */
  interface Schedule {
    void everyPeriod(Runnable task, long periodNanos);
  }

  private final Map<Key, Entry> entries = new HashMap<>();
  private final LongSupplier clock;
  private final Schedule schedule;
  private boolean evictionScheduled;
  private boolean shutdownHookAdded;

  /**
   * A cache whose unused models are closed after {@code idle} ({@link Duration#ZERO}: when the
   * last lease closes); {@code name} names its threads.
   *
   * @param name the prefix of its threads' names
   * @param idle how long a model no lease holds stays loaded
   * @throws IllegalArgumentException if {@code idle} is negative
   */
  public ModelCache(String name, Duration idle) {
    this(name, idle, System::nanoTime, null);
  }

  /**
   * A cache that reads the time from {@code clock} and schedules its eviction of idle models
   * with {@code schedule} (null: a daemon thread of its own), for tests that drive both.
   */
  ModelCache(String name, Duration idle, LongSupplier clock, Schedule schedule) {
    this.name = Objects.requireNonNull(name, "name");
    if (idle.isNegative()) {
      throw new IllegalArgumentException("the idle time cannot be negative, got " + idle);
    }
    this.idleNanos = idle.toNanos();
    this.clock = clock;
    this.schedule = schedule != null ? schedule : this::onDaemonThread;
  }

  /**
   * A lease on the model for {@code key}, loading it if no one in this JVM has.
   *
   * @param key the model and its settings
   * @return a lease, which the caller closes
   * @throws TensorFlowException if the model does not load
   * @throws IllegalArgumentException if a thread count cannot take effect ({@link ThreadPools})
   */
  public Lease acquire(Key key) {
    synchronized (entries) {
      Entry entry = entries.get(key);
      if (entry == null || entry.model.isClosed()) {
        // Loading under the cache's one lock: every acquire and release waits for the load, so
        // a model is loaded once however many users want it.
        SessionOptions options = SessionOptions.defaults();
        ThreadPools.intraOpThreads(options, key.intraOpThreads());
        ThreadPools.interOpThreads(options, key.interOpThreads());
        options.preferLiteRt(key.liteRtThreads());
        entry = new Entry(SavedModel.load(key.path(), options, key.tags().toArray(new String[0])));
        entries.put(key, entry);
        startClosingThreads();
      }
      entry.leases++;
      return new Lease(key, entry);
    }
  }

  /**
   * Closes every model no lease holds, however recently used.
   *
   * @return how many were closed
   */
  public int evictUnused() {
    return evict(0);
  }

  private int evict(long unusedForNanos) {
    List<SavedModel> idle = new ArrayList<>();
    synchronized (entries) {
      long now = clock.getAsLong();
      entries.values().removeIf(entry -> {
        boolean unused = entry.leases == 0 && now - entry.lastReleasedNanos >= unusedForNanos;
        if (unused) {
          idle.add(entry.model);
        }
        return unused;
      });
    }
    idle.forEach(SavedModel::close);
    return idle.size();
  }

  private void startClosingThreads() {
    if (!shutdownHookAdded) {
      shutdownHookAdded = true;
      Runtime.getRuntime().addShutdownHook(new Thread(this::closeAll, name + "-shutdown"));
    }
    if (evictionScheduled || idleNanos == 0) {
      return;
    }
    evictionScheduled = true;
    // Half the idle time, so that a model goes at most one and a half idle times after its use.
    long period = Math.max(TimeUnit.SECONDS.toNanos(1), idleNanos / 2);
    schedule.everyPeriod(() -> evict(idleNanos), period);
  }

  private void onDaemonThread(Runnable task, long periodNanos) {
    ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, name + "-model-reaper");
      thread.setDaemon(true);
      return thread;
    });
    reaper.scheduleWithFixedDelay(task, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
  }

  private void closeAll() {
    List<SavedModel> all = new ArrayList<>();
    synchronized (entries) {
      entries.values().forEach(entry -> all.add(entry.model));
      entries.clear();
    }
    all.forEach(SavedModel::close);  // waits for runs in flight, then frees
  }

  private void release(Entry entry) {
    synchronized (entries) {
      entry.leases--;
      entry.lastReleasedNanos = clock.getAsLong();
    }
    if (idleNanos == 0) {
      evict(0);
    }
  }

  /** One user's hold on a cached model; close it when done (idempotent). */
  public final class Lease implements AutoCloseable {
    private final Key key;
    private Entry entry;

    private Lease(Key key, Entry entry) {
      this.key = key;
      this.entry = entry;
    }

    /**
     * The cached model; the cache closes it, never the lease's holder.
     *
     * @return the model
     * @throws IllegalStateException if this lease is closed
     */
    public SavedModel model() {
      synchronized (entries) {
        if (entry == null) {
          throw new IllegalStateException("the lease on " + key.path() + " is closed");
        }
        return entry.model;
      }
    }

    @Override
    public void close() {
      Entry released;
      synchronized (entries) {
        released = entry;
        entry = null;
      }
      if (released != null) {
        release(released);
      }
    }
  }
}
