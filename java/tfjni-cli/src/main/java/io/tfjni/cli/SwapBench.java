package io.tfjni.cli;

import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.internal.FileTrees;
import io.tfjni.serving.ServingListener;
import io.tfjni.serving.ServingPredictor;
import io.tfjni.serving.VersionPublisher;
import io.tfjni.serving.VersionedModel;
import io.tfjni.serving.Warmup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * {@code tfjni bench --swap_every N}: serves a TensorFlow Serving base path through a {@link
 * VersionedModel} and swaps versions while the bench's threads call it, then splits the
 * latencies into runs around a swap and steady runs. The base path's numbered version
 * directories are copied, one after another and round again, as new versions into a temporary
 * base directory (the user's is not changed); every N-th measured run hands a swap to a thread of
 * its own, which publishes the next version, polls it in ({@link VersionedModel#refresh()}) and
 * removes the previous directory. A run is around a swap if it overlaps the time from the new
 * version's copy to the old version's close, or the window after that.
 */
final class SwapBench implements AutoCloseable {
  /**
   * The serving log, held so its level sticks: its INFO lines (a load, a swap and an unload per
   * swap) would bury the report; its warnings (a version that fails) still show.
   */
  private static final Logger SERVING_LOG = Logger.getLogger("io.tfjni.serving");
  /** One swap's times: publishing began, the new version served, the old one closed. */
  private record Swap(long version, long startNanos, long servedNanos) {}

  /** Runs' count, median, 99th percentile and maximum, in milliseconds. */
  record Latency(long runs, double p50Ms, double p99Ms, double maxMs) {
    static Latency of(long[] sortedNanos) {
      int n = sortedNanos.length;
      return new Latency(n, BenchCommand.percentile(sortedNanos, 50) / 1e6,
          BenchCommand.percentile(sortedNanos, 99) / 1e6, (n > 0 ? sortedNanos[n - 1] : 0) / 1e6);
    }
  }

  /** One thread count's swaps and its runs split into around swaps and steady. */
  record Phase(int threads, int swaps, double swapMsMean, Latency aroundSwaps, Latency steady) {}

  private final List<Path> sources;
  private final Path base;
  private final long swapEvery;
  private final Duration window;
  private final VersionedModel model;
  private final ServingPredictor predictor;
  private final Map<Long, Long> unloadedAt = new ConcurrentHashMap<>();
  private final AtomicLong measuredRuns = new AtomicLong();
  private final Thread swapper;
  private final Object lock = new Object();
  // Guarded by lock.
  private long swapsDue;
  private long swapsDone;
  private boolean closing;
  private RuntimeException swapFailure;
  private final List<Swap> swaps = new ArrayList<>();
  private final List<RunLog> logs = new ArrayList<>();
  private long nextVersion = 2;

  private SwapBench(Path sourceBase, SessionOptions options, String[] tags, String signature,
      List<String> inputKeys, Tensor[] inputs, long swapEvery, Duration window) {
    SERVING_LOG.setLevel(Level.WARNING);
    this.sources = versionDirectories(sourceBase);
    this.swapEvery = swapEvery;
    this.window = window;
    try {
      this.base = Files.createTempDirectory("tfjni-bench-versions");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    publish(1);
    // A version takes traffic warmed up, as a service's would: its warm-up file, then the
    // bench's own inputs once.
    Warmup ownInputs = version -> {
      try (Predictor p = version.model().predictor(signature, inputKeys, List.of());
          RunResult result = p.run(inputs)) {
        result.get(0);
      }
    };
    VersionedModel opened = null;
    try {
      opened = VersionedModel.builder(base).name("bench").pollInterval(Duration.ZERO)
          .sessionOptions(options).tags(tags)
          .warmup(Warmup.TENSORFLOW_SERVING_FILE.andThen(ownInputs))
          .listener(new ServingListener() {
            @Override
            public void onUnload(long version, Duration drainTime) {
              unloadedAt.put(version, System.nanoTime());
            }
          }).build();
      if (opened.servingVersion() != 1) {
        throw new CliException("version 1 (a copy of " + sources.get(0) + ") did not load: "
            + opened.status());
      }
      this.predictor = opened.predictor(signature, inputKeys, List.of());
    } catch (RuntimeException e) {
      if (opened != null) {
        opened.close();
      }
      FileTrees.deleteUnchecked(base);
      throw e;
    }
    this.model = opened;
    this.swapper = new Thread(this::swapWhenDue, "tfjni-bench-swapper");
    swapper.setDaemon(true);
    swapper.start();
  }

  /**
   * Starts serving a copy of {@code sourceBase}'s first version.
   *
   * @throws CliException if {@code sourceBase} holds no numbered version directory or its first
   *     version does not load
   */
  static SwapBench start(Path sourceBase, SessionOptions options, String[] tags,
      String signature, List<String> inputKeys, Tensor[] inputs, long swapEvery,
      Duration window) {
    return new SwapBench(sourceBase, options, tags, signature, inputKeys, inputs, swapEvery,
        window);
  }

  /** The numbered version directories of a base path, oldest first. */
  static List<Path> versionDirectories(Path sourceBase) {
    List<Path> versions = new ArrayList<>();
    try (Stream<Path> entries = Files.list(sourceBase)) {
      entries.filter(p -> p.getFileName().toString().matches("\\d+") && Files.isDirectory(p))
          .sorted(Comparator.comparing(p -> Long.parseLong(p.getFileName().toString())))
          .forEach(versions::add);
    } catch (IOException e) {
      throw new CliException("--swap_every serves --dir as a base path of numbered version"
          + " directories, but " + sourceBase + " cannot be listed: " + e);
    }
    if (versions.isEmpty()) {
      throw new CliException("--swap_every serves --dir as a base path of numbered version"
          + " directories (DIR/1, DIR/2, ...), but " + sourceBase + " holds none");
    }
    return versions;
  }

  /** The source versions that are published in turn. */
  List<Path> sources() {
    return sources;
  }

  /** The bench's callers: one run of the serving version per call, logged once measuring. */
  BenchCommand.Callers callers(Tensor[] inputs) {
    return () -> {
      RunLog log = new RunLog();
      synchronized (lock) {
        logs.add(log);
      }
      return new BenchCommand.Caller() {
        @Override
        public void call() {
          long start = System.nanoTime();
          predictor.run(inputs).close();
          if (log.measuring) {
            log.add(start, System.nanoTime());
            if (measuredRuns.incrementAndGet() % swapEvery == 0) {
              swapDue();
            }
          }
        }

        @Override
        public void measuring() {
          log.measuring = true;
        }

        @Override
        public void close() {}
      };
    };
  }

  private void swapDue() {
    synchronized (lock) {
      swapsDue++;
      lock.notifyAll();
    }
  }

  /** The swapper thread: one swap per due count, until closed. */
  private void swapWhenDue() {
    while (true) {
      synchronized (lock) {
        while (swapsDone == swapsDue && !closing) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closing) {
          return;
        }
      }
      RuntimeException failure = null;
      try {
        swapOnce();
      } catch (RuntimeException e) {
        failure = e;
      }
      synchronized (lock) {
        swapsDone++;
        if (failure != null && swapFailure == null) {
          swapFailure = failure;
        }
        lock.notifyAll();
      }
    }
  }

  private void swapOnce() {
    long version = nextVersion++;
    long start = System.nanoTime();
    publish(version);
    model.refresh();  // sees the new directory
    model.refresh();  // finds it unchanged: loads, warms up and swaps it in
    long served = System.nanoTime();
    if (model.servingVersion() != version) {
      throw new CliException("version " + version + " was not swapped in: " + model.status());
    }
    FileTrees.deleteUnchecked(base.resolve(Long.toString(version - 1)));
    synchronized (lock) {
      swaps.add(new Swap(version, start, served));
    }
  }

  /** Publishes the next source version beside the others (VersionPublisher: renamed into place). */
  private void publish(long version) {
    VersionPublisher.publish(sources.get((int) ((version - 1) % sources.size())), base, version);
  }

  /**
   * Ends a thread count's phase once the swaps its runs made due are done, and splits its runs.
   *
   * @throws CliException if a swap failed
   */
  Phase endPhase(int threads) throws InterruptedException {
    List<Swap> phaseSwaps;
    List<RunLog> phaseLogs;
    synchronized (lock) {
      while (swapsDone < swapsDue) {
        lock.wait();
      }
      if (swapFailure != null) {
        throw swapFailure;
      }
      phaseSwaps = List.copyOf(swaps);
      phaseLogs = List.copyOf(logs);
      swaps.clear();
      logs.clear();
    }
    long[][] windows = windows(phaseSwaps);
    long[] around = new long[0];
    long[] steady = new long[0];
    int aroundCount = 0;
    int steadyCount = 0;
    for (RunLog log : phaseLogs) {
      for (int i = 0; i < log.count; i++) {
        long elapsed = log.ends[i] - log.starts[i];
        if (overlaps(windows, log.starts[i], log.ends[i])) {
          if (aroundCount == around.length) {
            around = Arrays.copyOf(around, Math.max(16, around.length * 2));
          }
          around[aroundCount++] = elapsed;
        } else {
          if (steadyCount == steady.length) {
            steady = Arrays.copyOf(steady, Math.max(16, steady.length * 2));
          }
          steady[steadyCount++] = elapsed;
        }
      }
    }
    around = Arrays.copyOf(around, aroundCount);
    steady = Arrays.copyOf(steady, steadyCount);
    Arrays.sort(around);
    Arrays.sort(steady);
    double swapMs = phaseSwaps.stream().mapToLong(s -> s.servedNanos() - s.startNanos())
        .average().orElse(0) / 1e6;
    return new Phase(threads, phaseSwaps.size(), swapMs, Latency.of(around), Latency.of(steady));
  }

  /**
   * Each swap's window, from its start to the old version's close (or the swap, if the close is
   * not known) plus {@link #window}, merged where they overlap, in time order.
   */
  private long[][] windows(List<Swap> phaseSwaps) {
    List<long[]> merged = new ArrayList<>();
    for (Swap swap : phaseSwaps) {
      long closed = Math.max(swap.servedNanos(),
          unloadedAt.getOrDefault(swap.version() - 1, swap.servedNanos()));
      long[] w = {swap.startNanos(), closed + window.toNanos()};
      long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && w[0] <= last[1]) {
        last[1] = Math.max(last[1], w[1]);
      } else {
        merged.add(w);
      }
    }
    return merged.toArray(new long[0][]);
  }

  /** Whether [start, end] overlaps one of the disjoint, ordered windows. */
  private static boolean overlaps(long[][] windows, long start, long end) {
    int lo = 0;
    int hi = windows.length - 1;
    while (lo <= hi) {  // the last window starting at or before end
      int mid = (lo + hi) >>> 1;
      if (windows[mid][0] <= end) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi >= 0 && windows[hi][1] >= start;
  }

  /** The phases as a table. */
  static String table(List<Phase> phases) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%7s %6s %9s %11s %8s %8s %8s %11s %8s %8s %8s%n",
        "threads", "swaps", "swap ms", "runs around", "p50 ms", "p99 ms", "max ms", "runs steady",
        "p50 ms", "p99 ms", "max ms"));
    for (Phase p : phases) {
      out.append(String.format(Locale.ROOT,
          "%7d %6d %9.1f %11d %8.3f %8.3f %8.3f %11d %8.3f %8.3f %8.3f%n", p.threads(),
          p.swaps(), p.swapMsMean(), p.aroundSwaps().runs(), p.aroundSwaps().p50Ms(),
          p.aroundSwaps().p99Ms(), p.aroundSwaps().maxMs(), p.steady().runs(), p.steady().p50Ms(),
          p.steady().p99Ms(), p.steady().maxMs()));
    }
    return out.toString();
  }

  /** The phases and settings as JSON values. */
  Map<String, Object> json(List<Phase> phases) {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("every_runs", swapEvery);
    report.put("window_ms", window.toNanos() / 1e6);
    report.put("versions", sources.stream().map(Path::toString).toList());
    List<Object> results = new ArrayList<>();
    for (Phase p : phases) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("threads", p.threads());
      r.put("swaps", p.swaps());
      r.put("swap_ms_mean", p.swapMsMean());
      r.put("around_swaps", latencyJson(p.aroundSwaps()));
      r.put("steady", latencyJson(p.steady()));
      results.add(r);
    }
    report.put("results", results);
    return report;
  }

  private static Map<String, Object> latencyJson(Latency latency) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("runs", latency.runs());
    r.put("p50_ms", latency.p50Ms());
    r.put("p99_ms", latency.p99Ms());
    r.put("max_ms", latency.maxMs());
    return r;
  }

  /** Stops the swapper, closes the model and removes the temporary base directory. */
  @Override
  public void close() {
    synchronized (lock) {
      closing = true;
      lock.notifyAll();
    }
    try {
      swapper.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    model.close();
    FileTrees.deleteUnchecked(base);
  }

  /** One caller's measured runs: start and end times. */
  private static final class RunLog {
    volatile boolean measuring;
    long[] starts = new long[1024];
    long[] ends = new long[1024];
    int count;

    void add(long start, long end) {
      if (count == starts.length) {
        starts = Arrays.copyOf(starts, count * 2);
        ends = Arrays.copyOf(ends, count * 2);
      }
      starts[count] = start;
      ends[count] = end;
      count++;
    }
  }
}
