package io.tfjni.serving;

import io.tfjni.Predictor;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Signature;
import io.tfjni.TensorFlow;
import io.tfjni.batching.BatchingPredictor;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Serves a model whose versions are numbered subdirectories of a base directory (TensorFlow
 * Serving's layout: {@code base/1}, {@code base/2}, ...), swapping in new versions while it
 * serves. {@link ServingPredictor}s and {@link ServingBatchingPredictor}s made from it follow
 * the swaps; a caller holds one for the model's life.
 *
 * <ul>
 *   <li><b>Which versions.</b> Those the {@link VersionPolicy} picks among the complete versions
 *       on disk (default: the newest). New calls go to the newest loaded version.
 *   <li><b>Complete versions.</b> A version directory is loaded only once it holds {@code
 *       saved_model.pb}, the {@linkplain Builder#readyMarker ready marker} if one is required,
 *       and the same files, sizes and modification times at two consecutive polls. Writers
 *       should still move a complete directory into place with one rename, as TensorFlow Serving
 *       expects; this check keeps a copy in progress out, and a version that fails to load is
 *       not tried again until its directory changes.
 *   <li><b>Swaps.</b> A new version is loaded, its predictors prepared (and checked against the
 *       held ones' signatures) and its {@link Warmup} run, off the request path; then one
 *       volatile write sends every new call to it. Calls in flight finish on the old version,
 *       which is closed when its last call returns. The {@link SwapOrder} chooses whether both
 *       versions are in memory at once.
 *   <li><b>Failures.</b> A version that fails to load, to match the held predictors or to warm
 *       up is never swapped in: the serving version keeps serving, and the failure is reported
 *       by {@link #status()}, the log ({@code System.Logger} "io.tfjni.serving") and the {@link
 *       ServingListener}.
 *   <li><b>Removal.</b> A loaded version removed from disk is unloaded, as TensorFlow Serving
 *       does, when the policy has another version to serve instead (an older one on disk is
 *       loaded for it: a rollback). When removal leaves nothing to serve (every version gone,
 *       the base directory gone or unreadable), the loaded versions keep serving and it is
 *       reported as a {@link VersionFailure.Stage#SOURCE} failure; serving resumes its normal
 *       course when versions appear again.
 * </ul>
 *
 * <p>Polling runs on a daemon thread the model owns, every {@linkplain Builder#pollInterval
 * poll interval}; {@link #refresh()} polls at once, on the caller's thread. {@link #close()}
 * stops polling, waits for the calls in flight and closes every version.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
public final class VersionedModel implements AutoCloseable {
  /** Stands for "no version" where a version number is expected. */
  public static final long NO_VERSION = -1;

  private static final System.Logger LOG = System.getLogger("io.tfjni.serving");

  private final String name;
  private final Path base;
  private final VersionPolicy policy;
  private final SwapOrder swapOrder;
  private final Warmup warmup;
  private final List<ServingListener> listeners;
  private final SessionOptions sessionOptions;
  private final String[] tags;
  /** Runs after each unload: returns freed memory to the system, or nothing if turned off. */
  private final Runnable freedMemoryRelease;
  private final VersionDirectories directories;
  private final MetricsRecorder metrics;

  /** Held by a whole refresh, and by close: one scan, load and swap sequence at a time. */
  private final ReentrantLock refreshLock = new ReentrantLock();
  /**
   * Guards the fields below it. Held briefly (never across a load), so that making a predictor
   * does not wait for a load in progress.
   */
  private final ReentrantLock stateLock = new ReentrantLock();
  private final TreeMap<Long, LoadedVersion> loaded = new TreeMap<>();
  private final List<ServingPredictor> predictors = new ArrayList<>();
  private final List<ServingBatchingPredictor> batchingPredictors = new ArrayList<>();
  private final TreeMap<Long, FailedVersion> failed = new TreeMap<>();
  private List<Long> pending = List.of();
  private VersionFailure lastFailure;
  private String reportedSourceProblem;
  /** Why no version serves while {@link #serving} is null, for the exception calls get. */
  private String unavailableReason = "no version has loaded yet";
  private long unavailableSinceNanos = System.nanoTime();

  /** The version new calls go to; null when none serves (or after close). */
  private volatile LoadedVersion serving;
  /** Every loaded version by number, for {@link #lease(long)}; replaced whole under stateLock. */
  private volatile Map<Long, LoadedVersion> byVersion = Map.of();
  private volatile boolean closed;
  private final CountDownLatch closeDone = new CountDownLatch(1);
  /** Versions out of service whose close is handed to the serving thread. */
  private final Set<LoadedVersion> unloading = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService thread;
  private final ScheduledFuture<?> polling;

  /** A failed version and the directory content it failed with. */
  private record FailedVersion(VersionDirectories.Fingerprint fingerprint,
      VersionFailure failure) {}

  private VersionedModel(Builder builder) {
    this.name = builder.name != null ? builder.name : String.valueOf(builder.base.getFileName());
    this.base = builder.base;
    this.policy = builder.policy;
    this.swapOrder = builder.swapOrder;
    this.warmup = builder.warmup;
    // Metrics and flight recorder events hear every event first, as listeners of their own.
    this.metrics = new MetricsRecorder(name);
    List<ServingListener> all = new ArrayList<>(List.of(metrics, new ServingEvents(name)));
    all.addAll(builder.listeners);
    this.listeners = List.copyOf(all);
    this.sessionOptions = builder.sessionOptions;
    this.tags = builder.tags.clone();
    this.freedMemoryRelease = builder.releaseFreedMemory ? builder.freedMemoryRelease
        : () -> { };
    this.directories = new VersionDirectories(base, builder.readyMarker);
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
      Thread t = new Thread(task, "tfjni-serving-" + name);
      t.setDaemon(true);
      return t;
    });
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.thread = executor;
    // The first scan only records what is there: the refresh that follows at once compares.
    directories.scan();
    refresh();
    long interval = builder.pollInterval.toNanos();
    this.polling = interval == 0 ? null : thread.scheduleWithFixedDelay(this::poll, interval,
        interval, TimeUnit.NANOSECONDS);
  }

  /**
   * A builder of a versioned model serving {@code base}.
   *
   * @param base the directory holding numbered version directories
   * @return a builder with the defaults: the latest version, availability-preserving swaps, no
   *     warm-up, polling every second, tag "serve", TensorFlow's default session options
   */
  public static Builder builder(Path base) {
    return new Builder(Objects.requireNonNull(base, "base"));
  }

  /**
   * The version a directory of a base path stands for, by its name.
   *
   * @param directoryName a directory's file name
   * @return its version number, or -1 if the name is not a plain decimal number (a directory
   *     the versioned model ignores, such as a writer's {@code .tmp-3})
   */
  public static long versionOf(String directoryName) {
    return VersionDirectories.versionOf(directoryName);
  }

  /**
   * The model's name, for logs.
   *
   * @return the name given to the builder, else the base directory's file name
   */
  public String name() {
    return name;
  }

  /**
   * Polls the base directory now, on this thread: loads, swaps and unloads as the policy says,
   * and returns when done. A version seen for the first time, or changed since the last poll, is
   * loaded at a later poll (see the class comment).
   *
   * @return the status after the poll
   * @throws IllegalStateException if the model is closed
   */
  public ServingStatus refresh() {
    refreshLock.lock();
    try {
      ensureOpen();
      VersionDirectories.Scan scan = directories.scan();
      forgetChangedFailures(scan);
      NavigableSet<Long> wanted;
      Set<Long> failedNow = new TreeSet<>();
      while (true) {
        ensureOpen();
        wanted = policy.select(ready(scan, failedNow));
        if (wanted.isEmpty()) {
          reportNothingToServe(scan);
          break;
        }
        clearSourceProblem();
        if (swapOrder == SwapOrder.RESOURCE_PRESERVING) {
          unloadAllBut(wanted, true);
        }
        boolean anyFailed = false;
        for (long version : wanted.descendingSet()) {
          if (!isLoaded(version) && !load(version, scan)) {
            failedNow.add(version);
            anyFailed = true;
          }
        }
        if (!anyFailed) {
          break;
        }
        // A failed version is no longer ready: the policy may pick another one (an older
        // version to load again after a resource-preserving unload, say).
      }
      if (!wanted.isEmpty()) {
        swapTo(newestLoadedOf(wanted));
        unloadAllBut(wanted, false);
      }
      recordPending(scan);
      return status();
    } finally {
      refreshLock.unlock();
    }
  }

  private void poll() {
    try {
      if (!closed) {
        refresh();
      }
    } catch (IllegalStateException e) {
      if (!closed) {
        LOG.log(Level.ERROR, "model '" + name + "': polling " + base + " failed", e);
      }
    } catch (RuntimeException | Error e) {
      // Logged and polled again at the next interval: a thrown exception would end the polling.
      LOG.log(Level.ERROR, "model '" + name + "': polling " + base + " failed", e);
    }
  }

  /**
   * Complete versions not known to fail (nor failed in this poll: a failure is recorded only
   * for a directory whose content could be read), and loaded versions still on disk.
   */
  private NavigableSet<Long> ready(VersionDirectories.Scan scan, Set<Long> failedNow) {
    NavigableSet<Long> ready = new TreeSet<>();
    stateLock.lock();
    try {
      for (long version : scan.complete()) {
        if (!failed.containsKey(version) && !failedNow.contains(version)) {
          ready.add(version);
        }
      }
      for (long version : loaded.keySet()) {
        if (scan.directories().containsKey(version)) {
          ready.add(version);
        }
      }
    } finally {
      stateLock.unlock();
    }
    return ready;
  }

  /** A failed version whose directory changed (or went) is tried again once complete. */
  private void forgetChangedFailures(VersionDirectories.Scan scan) {
    stateLock.lock();
    try {
      failed.entrySet().removeIf(entry -> !entry.getValue().fingerprint()
          .equals(scan.fingerprints().get(entry.getKey())));
    } finally {
      stateLock.unlock();
    }
  }

  private boolean isLoaded(long version) {
    stateLock.lock();
    try {
      return loaded.containsKey(version);
    } finally {
      stateLock.unlock();
    }
  }

  /**
   * Loads a version, prepares the held predictors on it, warms it up and adds it to the loaded
   * versions; on failure, closes it and records why. Returns whether it loaded.
   */
  private boolean load(long version, VersionDirectories.Scan scan) {
    Path directory = scan.directories().get(version);
    long start = System.nanoTime();
    SavedModel model;
    try {
      model = SavedModel.load(directory, sessionOptions, tags);
    } catch (RuntimeException e) {
      fail(version, directory, VersionFailure.Stage.LOAD, e, scan);
      return false;
    }
    LoadedVersion candidate = new LoadedVersion(version, directory, model,
        metrics.version(version));
    boolean added = false;
    try {
      VersionFailure.Stage stage = VersionFailure.Stage.SIGNATURE;
      long prepared = start;
      long warmedUp = start;
      try {
        prepareHeld(candidate);
        prepared = System.nanoTime();
        stage = VersionFailure.Stage.WARM_UP;
        warmup.warmUp(new ModelVersion(version, directory, model));
        warmedUp = System.nanoTime();
        stage = VersionFailure.Stage.SIGNATURE;
        added = add(candidate);
      } catch (Exception e) {
        fail(version, directory, stage, e, scan);
        return false;
      }
      if (!added) {
        return false;  // closed meanwhile
      }
      Duration loadTime = Duration.ofNanos(prepared - start);
      Duration warmUpTime = Duration.ofNanos(warmedUp - prepared);
      LOG.log(Level.INFO, () -> "model '" + name + "': version " + version + " loaded in "
          + loadTime.toMillis() + " ms, warmed up in " + warmUpTime.toMillis() + " ms");
      tell(listener -> listener.onLoad(version, loadTime, warmUpTime));
      return true;
    } finally {
      if (!added) {
        candidate.close();
      }
    }
  }

  /** Prepares every held predictor on a version not yet serving (refused if one cannot be). */
  private void prepareHeld(LoadedVersion candidate) {
    List<ServingPredictor> held;
    List<ServingBatchingPredictor> heldBatching;
    stateLock.lock();
    try {
      held = List.copyOf(predictors);
      heldBatching = List.copyOf(batchingPredictors);
    } finally {
      stateLock.unlock();
    }
    prepare(candidate, held, heldBatching);
  }

  private static void prepare(LoadedVersion version, List<ServingPredictor> held,
      List<ServingBatchingPredictor> heldBatching) {
    for (ServingPredictor predictor : held) {
      if (!version.hasPredictor(predictor.contract())) {
        version.addPredictor(predictor.contract(), predictor.contract().prepareOn(version));
      }
    }
    for (ServingBatchingPredictor predictor : heldBatching) {
      if (!version.hasPredictor(predictor.contract())) {
        version.addPredictor(predictor.contract(), predictor.contract().prepareOn(version));
      }
      if (!version.hasBatcher(predictor)) {
        version.addBatcher(predictor, predictor.buildOn(version));
      }
    }
  }

  /**
   * Adds a loaded version, first preparing the predictors made while it loaded. Returns false if
   * the model was closed meanwhile.
   */
  private boolean add(LoadedVersion version) {
    stateLock.lock();
    try {
      if (closed) {
        return false;
      }
      prepare(version, predictors, batchingPredictors);
      loaded.put(version.version, version);
      byVersion = Map.copyOf(loaded);
      return true;
    } finally {
      stateLock.unlock();
    }
  }

  private void fail(long version, Path directory, VersionFailure.Stage stage, Throwable cause,
      VersionDirectories.Scan scan) {
    VersionFailure failure = VersionFailure.of(version, directory, stage, cause);
    stateLock.lock();
    try {
      VersionDirectories.Fingerprint fingerprint = scan.fingerprints().get(version);
      if (fingerprint != null) {
        failed.put(version, new FailedVersion(fingerprint, failure));
      }
      lastFailure = failure;
    } finally {
      stateLock.unlock();
    }
    LOG.log(Level.WARNING, "model '" + name + "': version " + version + " not served ("
        + servingDescription() + "): " + failure, cause);
    tell(listener -> listener.onLoadFailed(failure));
  }

  private String servingDescription() {
    LoadedVersion now = serving;
    return now == null ? "no version serves" : "version " + now.version + " keeps serving";
  }

  private void reportNothingToServe(VersionDirectories.Scan scan) {
    String problem = scan.problem() != null ? scan.problem()
        : scan.directories().isEmpty() ? "the base directory " + base + " holds no version"
        : "no complete version in " + base + " that " + policy + " picks and that has not failed"
            + " (versions on disk: " + scan.directories().keySet() + ")";
    LoadedVersion now = serving;
    VersionFailure failure = VersionFailure.ofSource(now == null ? NO_VERSION : now.version, base,
        problem + "; " + (now == null ? "no version serves" : "the loaded versions "
            + loadedVersions() + " keep serving"));
    stateLock.lock();
    try {
      if (failure.message().equals(reportedSourceProblem)) {
        return;  // reported once, not at every poll
      }
      reportedSourceProblem = failure.message();
      lastFailure = failure;
    } finally {
      stateLock.unlock();
    }
    LOG.log(Level.WARNING, "model '" + name + "': " + failure.message());
    tell(listener -> listener.onLoadFailed(failure));
  }

  private void clearSourceProblem() {
    stateLock.lock();
    try {
      reportedSourceProblem = null;
    } finally {
      stateLock.unlock();
    }
  }

  private LoadedVersion newestLoadedOf(NavigableSet<Long> wanted) {
    stateLock.lock();
    try {
      for (long version : wanted.descendingSet()) {
        LoadedVersion candidate = loaded.get(version);
        if (candidate != null) {
          return candidate;
        }
      }
      return null;
    } finally {
      stateLock.unlock();
    }
  }

  /** Sends new calls to {@code next} (null: none) with one volatile write, and reports it. */
  private void swapTo(LoadedVersion next) {
    LoadedVersion previous;
    Duration unavailable = Duration.ZERO;
    stateLock.lock();
    try {
      previous = serving;
      if (previous == next) {
        return;
      }
      if (previous == null) {
        unavailable = Duration.ofNanos(System.nanoTime() - unavailableSinceNanos);
      }
      if (next == null) {
        unavailableSinceNanos = System.nanoTime();
        unavailableReason = "version " + previous.version + " was unloaded before its successor"
            + " loads (resource-preserving swap)";
      }
      serving = next;
    } finally {
      stateLock.unlock();
    }
    long from = previous == null ? NO_VERSION : previous.version;
    long to = next == null ? NO_VERSION : next.version;
    Duration gap = unavailable;
    LOG.log(Level.INFO, () -> "model '" + name + "': serving version " + to + " (was " + from
        + (gap.isZero() ? "" : ", no version served for " + gap.toMillis() + " ms") + ")");
    tell(listener -> listener.onSwap(from, to, gap));
  }

  /**
   * Takes every loaded version not in {@code keep} out of service. {@code waitHere}: wait for
   * each one's calls in flight and close it on this thread (resource-preserving order); else the
   * last call out hands its close to the serving thread, or this thread closes it at once if no
   * call is in flight.
   */
  private void unloadAllBut(Set<Long> keep, boolean waitHere) {
    List<LoadedVersion> leaving = new ArrayList<>();
    stateLock.lock();
    try {
      for (LoadedVersion version : loaded.values()) {
        if (!keep.contains(version.version)) {
          leaving.add(version);
        }
      }
      leaving.forEach(version -> loaded.remove(version.version));
      byVersion = Map.copyOf(loaded);
    } finally {
      stateLock.unlock();
    }
    if (leaving.isEmpty()) {
      return;
    }
    if (leaving.contains(serving)) {
      swapTo(newestLoadedOf(new TreeSet<>(keep)));
    }
    for (LoadedVersion version : leaving) {
      unloading.add(version);
      if (waitHere) {
        version.retire(null);
        version.awaitDrained();
        unload(version);
      } else {
        Thread retiring = Thread.currentThread();
        version.retire(drained -> {
          if (Thread.currentThread() == retiring) {
            unload(drained);  // no call in flight: close it now, still off the request path
          } else {
            handOffUnload(drained);
          }
        });
      }
    }
  }

  /** Closes a drained version on the serving thread, or here if that thread has stopped. */
  private void handOffUnload(LoadedVersion version) {
    try {
      thread.execute(() -> unload(version));
    } catch (RejectedExecutionException e) {
      unload(version);
    }
  }

  private void unload(LoadedVersion version) {
    try {
      if (!version.close()) {
        return;
      }
    } finally {
      unloading.remove(version);
    }
    freedMemoryRelease.run();
    Duration drainTime = Duration.ofNanos(System.nanoTime() - version.retiredAtNanos());
    LOG.log(Level.INFO, () -> "model '" + name + "': version " + version.version + " unloaded ("
        + drainTime.toMillis() + " ms after leaving service)");
    tell(listener -> listener.onUnload(version.version, drainTime));
  }

  private void recordPending(VersionDirectories.Scan scan) {
    stateLock.lock();
    try {
      List<Long> notLoaded = new ArrayList<>();
      for (long version : scan.pending()) {
        if (!loaded.containsKey(version)) {
          notLoaded.add(version);
        }
      }
      pending = List.copyOf(notLoaded);
    } finally {
      stateLock.unlock();
    }
  }

  private void tell(Consumer<ServingListener> event) {
    for (ServingListener listener : listeners) {
      try {
        event.accept(listener);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "model '" + name + "': a serving listener threw", e);
      }
    }
  }

  /** The serving version, acquired (release it); the request path's only synchronization. */
  LoadedVersion acquireServing() {
    while (true) {
      LoadedVersion version = serving;
      if (version == null) {
        throw closed ? closedException() : unavailable();
      }
      if (version.tryAcquire()) {
        return version;
      }
      // Retired between the read and the acquire: the swap already published its successor.
      Thread.onSpinWait();
    }
  }

  private VersionUnavailableException unavailable() {
    String reason;
    stateLock.lock();
    try {
      reason = unavailableReason;
    } finally {
      stateLock.unlock();
    }
    VersionFailure failure = lastFailure().orElse(null);
    return new VersionUnavailableException("model '" + name + "' (" + base + ") has no version"
        + " serving: " + reason + (failure == null ? "" : "; last failure: " + failure));
  }

  private IllegalStateException closedException() {
    return new IllegalStateException("VersionedModel '" + name + "' is closed");
  }

  private void ensureOpen() {
    if (closed) {
      throw closedException();
    }
  }

  /**
   * A predictor over every input and output of a signature, following the swaps.
   *
   * @param signatureKey the signature's key
   * @return the predictor, owned by this model
   * @throws IllegalArgumentException if the serving version has no such signature, or another
   *     loaded version cannot serve it (both signatures named)
   * @throws VersionUnavailableException if no version serves, so the signature is unknown
   * @throws IllegalStateException if the model is closed
   */
  public ServingPredictor predictor(String signatureKey) {
    return register(contract -> new ServingPredictor(this, contract), signatureKey, null,
        List.of(), predictors);
  }

  /**
   * A predictor feeding {@code inputKeys} in that order and fetching {@code outputKeys} (every
   * output if empty) of a signature, following the swaps. It is prepared on every loaded version
   * now, and on each new version before that version is swapped in; a version that cannot feed
   * it (an input renamed, a dtype changed) is refused with both signatures named.
   *
   * @param signatureKey the signature's key
   * @param inputKeys the inputs, in the order the predictor's runs take them (every input of
   *     the signature, as for {@link SavedModel#predictor(String, List, List)})
   * @param outputKeys the outputs to fetch, in order; empty for all
   * @return the predictor, owned by this model
   * @throws IllegalArgumentException if the serving version's signature has no such input or
   *     output, or another loaded version cannot serve it
   * @throws VersionUnavailableException if no version serves, so the signature is unknown
   * @throws IllegalStateException if the model is closed
   */
  public ServingPredictor predictor(String signatureKey, List<String> inputKeys,
      List<String> outputKeys) {
    Objects.requireNonNull(inputKeys, "inputKeys");
    return register(contract -> new ServingPredictor(this, contract), signatureKey, inputKeys,
        outputKeys, predictors);
  }

  /**
   * A batching predictor over a signature that follows the swaps: each loaded version gets a
   * {@link BatchingPredictor} built with {@code options} over its own predictor (see {@link
   * ServingBatchingPredictor}).
   *
   * @param signatureKey the signature's key
   * @param inputKeys the inputs, in order (every input of the signature)
   * @param outputKeys the outputs to fetch, in order; empty for all
   * @param options sets the builder's options (batch size, delay...); called once per version
   * @return the batching predictor, owned by this model
   * @throws IllegalArgumentException if the signature cannot be batched or served (see {@link
   *     #predictor(String, List, List)})
   * @throws VersionUnavailableException if no version serves, so the signature is unknown
   * @throws IllegalStateException if the model is closed
   */
  public ServingBatchingPredictor batchingPredictor(String signatureKey, List<String> inputKeys,
      List<String> outputKeys, Consumer<BatchingPredictor.Builder> options) {
    Objects.requireNonNull(inputKeys, "inputKeys");
    Objects.requireNonNull(options, "options");
    return register(contract -> new ServingBatchingPredictor(this, contract, options),
        signatureKey, inputKeys, outputKeys, batchingPredictors);
  }

  /**
   * Makes a held predictor on the serving version, prepares it on every loaded version and keeps
   * it for the versions to come. Refused if a loaded version cannot serve it (what was prepared
   * on the others stays until they close).
   */
  private <T> T register(Function<PredictorContract, T> maker, String signatureKey,
      List<String> inputKeys, List<String> outputKeys, List<T> into) {
    Objects.requireNonNull(signatureKey, "signatureKey");
    Objects.requireNonNull(outputKeys, "outputKeys");
    stateLock.lock();
    try {
      ensureOpen();
      LoadedVersion current = serving;
      if (current == null) {
        throw unavailable();
      }
      Signature signature = current.model.signature(signatureKey);
      List<String> inputs = inputKeys != null ? inputKeys : signature.inputKeys();
      Predictor reference = current.model.predictor(signatureKey, inputs, outputKeys);
      PredictorContract contract;
      try {
        contract = new PredictorContract(signatureKey, inputs, outputKeys, current.version,
            signature, reference);
      } finally {
        reference.close();
      }
      T held = maker.apply(contract);
      List<ServingPredictor> asPredictor = held instanceof ServingPredictor p ? List.of(p)
          : List.of();
      List<ServingBatchingPredictor> asBatching = held instanceof ServingBatchingPredictor b
          ? List.of(b) : List.of();
      for (LoadedVersion version : loaded.values()) {
        try {
          prepare(version, asPredictor, asBatching);
        } catch (PredictorContract.IncompatibleSignatureException e) {
          throw new IllegalArgumentException(e.getMessage(), e);
        }
      }
      into.add(held);
      return held;
    } finally {
      stateLock.unlock();
    }
  }

  /**
   * A hold on the serving version (close it): the version stays loaded until the lease closes.
   *
   * @return the lease
   * @throws IllegalStateException if the model is closed
   * @throws VersionUnavailableException if no version serves
   */
  public VersionLease lease() {
    return new VersionLease(acquireServing());
  }

  /**
   * A hold on a specific loaded version (close it), for a policy that loads several.
   *
   * @param version the version's number
   * @return the lease
   * @throws IllegalStateException if the model is closed
   * @throws VersionUnavailableException if that version is not loaded (the message lists those
   *     that are)
   */
  public VersionLease lease(long version) {
    ensureOpen();
    LoadedVersion wanted = byVersion.get(version);
    if (wanted == null || !wanted.tryAcquire()) {
      ensureOpen();
      throw new VersionUnavailableException("model '" + name + "' has no version " + version
          + " loaded; loaded: " + loadedVersions());
    }
    return new VersionLease(wanted);
  }

  /**
   * The version new calls go to.
   *
   * @return its number, or {@link #NO_VERSION}
   */
  public long servingVersion() {
    LoadedVersion now = serving;
    return now == null ? NO_VERSION : now.version;
  }

  private List<Long> loadedVersions() {
    stateLock.lock();
    try {
      return List.copyOf(loaded.keySet());
    } finally {
      stateLock.unlock();
    }
  }

  /**
   * The most recent failure to load, match or warm up a version, or to find one to serve.
   *
   * @return the failure, if any happened since the model was built
   */
  public Optional<VersionFailure> lastFailure() {
    stateLock.lock();
    try {
      return Optional.ofNullable(lastFailure);
    } finally {
      stateLock.unlock();
    }
  }

  /**
   * What is served now, and what failed.
   *
   * @return the status
   */
  public ServingStatus status() {
    stateLock.lock();
    try {
      List<VersionFailure> failures = new ArrayList<>();
      failed.values().forEach(f -> failures.add(f.failure()));
      return new ServingStatus(servingVersion(), List.copyOf(loaded.keySet()), pending,
          Collections.unmodifiableList(failures), Optional.ofNullable(lastFailure), closed);
    } finally {
      stateLock.unlock();
    }
  }

  /**
   * What each version has served and how its loads went (see {@link ServingMetrics}); also
   * recorded as JDK Flight Recorder events (docs/SERVING.md, "Metrics").
   *
   * @return a snapshot, valid after close too
   */
  public ServingMetrics metrics() {
    return metrics.snapshot(servingVersion());
  }

  /**
   * Stops polling, waits for a load in progress, refuses new calls ({@link
   * IllegalStateException}), waits for the calls in flight and closes every version.
   * Idempotent: a second call returns once the first has finished.
   */
  @Override
  public void close() {
    boolean first;
    stateLock.lock();
    try {
      first = !closed;
      closed = true;
    } finally {
      stateLock.unlock();
    }
    if (!first) {
      awaitClosed();
      return;
    }
    try {
      if (polling != null) {
        polling.cancel(false);
      }
      refreshLock.lock();
      try {
        List<LoadedVersion> all;
        stateLock.lock();
        try {
          serving = null;
          all = new ArrayList<>(loaded.values());
          loaded.clear();
          byVersion = Map.of();
        } finally {
          stateLock.unlock();
        }
        all.forEach(version -> version.retire(null));
        unloading.addAll(all);
      } finally {
        refreshLock.unlock();
      }
      thread.shutdown();
      // Versions swapped out earlier and handed to the serving thread are closed here if that
      // thread has not got to them; LoadedVersion.close keeps each to one close.
      for (LoadedVersion version : List.copyOf(unloading)) {
        version.awaitDrained();
        unload(version);
      }
    } finally {
      closeDone.countDown();
    }
  }

  private void awaitClosed() {
    boolean interrupted = false;
    while (true) {
      try {
        closeDone.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Options of a {@link VersionedModel}. */
  public static final class Builder {
    private final Path base;
    private String name;
    private VersionPolicy policy = VersionPolicy.latest();
    private SwapOrder swapOrder = SwapOrder.AVAILABILITY_PRESERVING;
    private Warmup warmup = Warmup.TENSORFLOW_SERVING_FILE;
    private final List<ServingListener> listeners = new ArrayList<>();
    private Duration pollInterval = Duration.ofSeconds(1);
    private SessionOptions sessionOptions = SessionOptions.defaults();
    private String[] tags = {SavedModel.DEFAULT_TAG};
    private String readyMarker;
    private boolean releaseFreedMemory = true;
    private Runnable freedMemoryRelease = TensorFlow::releaseFreeMemory;

    private Builder(Path base) {
      this.base = base;
    }

    /**
     * The model's name in logs and messages.
     *
     * @param name the name; the base directory's file name by default
     * @return this builder
     */
    public Builder name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Which versions to load.
     *
     * @param policy the policy; {@link VersionPolicy#latest()} by default
     * @return this builder
     */
    public Builder policy(VersionPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * The order of loading and unloading in a swap.
     *
     * @param order {@link SwapOrder#AVAILABILITY_PRESERVING} by default
     * @return this builder
     */
    public Builder swapOrder(SwapOrder order) {
      this.swapOrder = Objects.requireNonNull(order, "order");
      return this;
    }

    /**
     * What runs on a loaded version before it takes traffic, in place of the default: to keep
     * replaying TensorFlow Serving's warm-up file too, pass {@code
     * Warmup.TENSORFLOW_SERVING_FILE.andThen(yours)}.
     *
     * @param warmup the warm-up; {@link Warmup#TENSORFLOW_SERVING_FILE} by default
     * @return this builder
     */
    public Builder warmup(Warmup warmup) {
      this.warmup = Objects.requireNonNull(warmup, "warmup");
      return this;
    }

    /**
     * Adds a listener of loads, failures, swaps and unloads.
     *
     * @param listener the listener
     * @return this builder
     */
    public Builder listener(ServingListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * How often the daemon thread polls the base directory. {@link Duration#ZERO} polls only
     * when {@link VersionedModel#refresh()} is called.
     *
     * @param interval zero or more; one second by default (TensorFlow Serving's default)
     * @return this builder
     */
    public Builder pollInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException("the poll interval must not be negative, got "
            + interval);
      }
      this.pollInterval = interval;
      return this;
    }

    /**
     * The session options every version is loaded with.
     *
     * @param options the options; TensorFlow's defaults by default
     * @return this builder
     */
    public Builder sessionOptions(SessionOptions options) {
      this.sessionOptions = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * The meta graph's tags.
     *
     * @param tags at least one; "serve" by default
     * @return this builder
     */
    public Builder tags(String... tags) {
      if (tags.length == 0) {
        throw new IllegalArgumentException("at least one tag is needed, e.g. \"serve\"");
      }
      for (String tag : tags) {
        Objects.requireNonNull(tag, "tag");
      }
      this.tags = tags.clone();
      return this;
    }

    /**
     * A file a version directory must hold before it is loaded, which its writer creates last
     * (e.g. "READY"); none by default.
     *
     * @param fileName the marker's name, relative to the version directory
     * @return this builder
     */
    public Builder readyMarker(String fileName) {
      this.readyMarker = Objects.requireNonNull(fileName, "fileName");
      return this;
    }

    /**
     * Whether to hand the memory a version freed when it closed back to the operating system
     * right after each unload ({@link TensorFlow#releaseFreeMemory()}, on the thread that
     * unloads it, never a caller's). Without it, the C allocator keeps that memory for reuse and
     * a process's RSS creeps up over many swaps, by the fragments no later load happens to fit.
     *
     * @param release true by default
     * @return this builder
     */
    public Builder releaseFreedMemory(boolean release) {
      this.releaseFreedMemory = release;
      return this;
    }

    /**
     * What releasing freed memory runs, {@link TensorFlow#releaseFreeMemory()} by default: a
     * seam for the tests, which observe when it runs.
     */
    Builder freedMemoryRelease(Runnable release) {
      this.freedMemoryRelease = Objects.requireNonNull(release, "release");
      return this;
    }

    /**
     * Scans the base directory, loads what the policy picks among the complete versions there
     * (a version present now counts as complete if it does not change between two scans made
     * one after the other), and starts polling. With nothing loadable it still returns: calls
     * throw {@link VersionUnavailableException} until a version loads, and {@link
     * VersionedModel#status()} says why.
     *
     * @return the versioned model, owned by the caller: close it
     */
    public VersionedModel build() {
      return new VersionedModel(this);
    }
  }
}
