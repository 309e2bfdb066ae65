package io.tfjni.soak;

import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.batching.BatchedResult;
import io.tfjni.internal.FileTrees;
import io.tfjni.numpy.Npy;
import io.tfjni.serving.ServingBatchingPredictor;
import io.tfjni.serving.ServingListener;
import io.tfjni.serving.ServingPredictor;
import io.tfjni.serving.VersionFailure;
import io.tfjni.serving.VersionPublisher;
import io.tfjni.serving.VersionedModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The Java side of scripts/test/swap-soak.sh: callers (half of them through a batching predictor)
 * call a {@link VersionedModel} without pause for N minutes while a new version directory
 * arrives every few seconds, copies of the versioned_a and versioned_b exports alternating (odd
 * versions A, even B), each found by the model's own polling. Every answer is checked against
 * TensorFlow Python's: a predictor's must be exactly its version's export's answer for the
 * caller's row, a batching predictor's (which does not name its version) exactly A's or B's.
 * Samples RSS, heap and live native objects every second as {@link SoakDriver} does, so
 * scripts/test/soak_report.py judges the run. A program, not a test: SwapLoadTest is its CI size.
 *
 * <p>Arguments: MINUTES MODELS_DIR OUT_DIR [CALLERS=16] [SECONDS_PER_VERSION=2]. OUT_DIR/expected
 * holds TensorFlow Python's rows and answers as .npy files (written by the script from the
 * models' manifest): rows_x.npy, versioned_a_y.npy, versioned_b_y.npy.
 */
public final class SwapSoakDriver {
  private static final String A = "versioned_a";
  private static final String B = "versioned_b";
  private static final Duration POLL_INTERVAL = Duration.ofMillis(250);

  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicLong errors = new AtomicLong();
  private final ConcurrentLinkedQueue<String> firstErrors = new ConcurrentLinkedQueue<>();
  private final LongAdder calls = new LongAdder();
  private final LongAdder batchedCalls = new LongAdder();
  private final AtomicLong swaps = new AtomicLong();
  private final AtomicLong published = new AtomicLong();

  private float[][] rows;
  private float[][] answersA;
  private float[][] answersB;

  private SwapSoakDriver() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3 || args.length > 5) {
      System.err.println("usage: SwapSoakDriver MINUTES MODELS_DIR OUT_DIR [CALLERS]"
          + " [SECONDS_PER_VERSION]");
      System.exit(2);
    }
    double minutes = Double.parseDouble(args[0]);
    int callers = args.length > 3 ? Integer.parseInt(args[3]) : 16;
    double secondsPerVersion = args.length > 4 ? Double.parseDouble(args[4]) : 2;
    new SwapSoakDriver().run(minutes, Path.of(args[1]), Path.of(args[2]), callers,
        secondsPerVersion);
  }

  private void error(String message) {
    if (errors.incrementAndGet() <= 20) {
      firstErrors.add(message);
      System.err.println("swap soak error: " + message);
    }
  }

  private static String exportOf(long version) {
    return version % 2 == 1 ? A : B;
  }

  private float[] expected(String export, int row) {
    return (export.equals(A) ? answersA : answersB)[row];
  }

  private void run(double minutes, Path models, Path out, int callerCount,
      double secondsPerVersion) throws Exception {
    Files.createDirectories(out);
    rows = readRows(out.resolve("expected/rows_x.npy"));
    answersA = readRows(out.resolve("expected/versioned_a_y.npy"));
    answersB = readRows(out.resolve("expected/versioned_b_y.npy"));
    Map<String, String> meta = SoakDriver.runFacts(minutes);
    meta.put("title", "Swap soak");
    meta.put("command", "scripts/test/swap-soak.sh");
    meta.put("work", "calls through swapping versions");
    meta.put("description", callerCount + " callers (half through a ServingBatchingPredictor)"
        + " call a VersionedModel without pause while a new version directory arrives every "
        + secondsPerVersion + " s, copies of versioned_a and versioned_b alternating, found by"
        + " the model's polling every " + POLL_INTERVAL.toMillis() + " ms (availability-preserving"
        + " swaps); each answer checked against TensorFlow Python's for the caller's row: exactly"
        + " the answering version's export's (a batching call: A's or B's).");
    Path base = Files.createDirectories(out.resolve("versions"));
    long baseline = TensorFlow.liveObjects().total();
    meta.put("live_baseline", Long.toString(baseline));
    publish(models, base, 1);
    long start = System.nanoTime();
    try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("samples.csv"),
        StandardCharsets.UTF_8))) {
      csv.println(SoakDriver.SAMPLE_COLUMNS);
      SoakDriver.writeSample(csv, start, "baseline", 0, 0);
      List<Thread> threads = new ArrayList<>();
      try (VersionedModel model = VersionedModel.builder(base).pollInterval(POLL_INTERVAL)
          .listener(new Counting()).build()) {
        ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
        ServingBatchingPredictor batching = model.batchingPredictor(
            SavedModel.DEFAULT_SIGNATURE, List.of("x"), List.of("y"),
            options -> options.maxBatchSize(callerCount));
        long loaded = TensorFlow.liveObjects().total();
        meta.put("live_loaded", Long.toString(loaded));
        // As SoakDriver's: a swap's second version and a call's tensors fit in the allowance.
        long bound = loaded + (long) SoakDriver.LIVE_PER_WORKER * callerCount;
        meta.put("live_bound", Long.toString(bound));
        meta.put("workers", Integer.toString(callerCount));
        meta.put("live_per_worker", Integer.toString(SoakDriver.LIVE_PER_WORKER));
        for (int c = 0; c < callerCount; c++) {
          int row = c % rows.length;
          boolean batched = c % 2 == 1;
          threads.add(new Thread(() -> call(predictor, batching, row, batched),
              "swap-soak-caller-" + c));
        }
        Thread publisher = new Thread(() -> publishEvery(models, base, model, secondsPerVersion),
            "swap-soak-publisher");
        long workStart = System.nanoTime();
        meta.put("work_start_s", SoakDriver.seconds(workStart - start));
        threads.forEach(Thread::start);
        publisher.start();
        long end = workStart + (long) (minutes * 60e9);
        long next = workStart;
        while (System.nanoTime() < end) {
          next += TimeUnit.SECONDS.toNanos(1);
          SoakDriver.sleepUntil(next);
          SoakDriver.writeSample(csv, start, "run", calls.sum(), errors.get());
        }
        stop.set(true);
        meta.put("work_stop_s", SoakDriver.seconds(System.nanoTime() - start));
        publisher.join();
        for (Thread thread : threads) {
          thread.join();
        }
        meta.put("serving_version_at_end", Long.toString(model.servingVersion()));
      }
      long next = System.nanoTime();
      for (int i = 0; i < 5; i++) {
        next += TimeUnit.SECONDS.toNanos(1);
        SoakDriver.sleepUntil(next);
        SoakDriver.writeSample(csv, start, "after", calls.sum(), errors.get());
      }
    } finally {
      FileTrees.deleteUnchecked(base);
    }
    long liveAfter = TensorFlow.liveObjects().total();
    meta.put("live_after", Long.toString(liveAfter));
    meta.put("live_after_detail", TensorFlow.liveObjects().toString());
    meta.put("ops.predictor", Long.toString(calls.sum() - batchedCalls.sum()));
    meta.put("ops.batching-predictor", Long.toString(batchedCalls.sum()));
    meta.put("ops.versions-published", Long.toString(published.get()));
    meta.put("ops.swaps", Long.toString(swaps.get()));
    meta.put("ops_total", Long.toString(calls.sum()));
    meta.put("errors", Long.toString(errors.get()));
    meta.put("first_errors", String.join(" | ", firstErrors));
    SoakDriver.writeMeta(out, meta);
    System.out.printf(Locale.ROOT, "swap soak: %.1f min, %d calls, %d versions published,"
        + " %d swaps, %d errors, live %d -> %d%n", minutes, calls.sum(), published.get(),
        swaps.get(), errors.get(), baseline, liveAfter);
  }

  /** Counts swaps; a version that fails to load is an error of the run. */
  private final class Counting implements ServingListener {
    @Override
    public void onSwap(long previousVersion, long newVersion, Duration unavailable) {
      swaps.incrementAndGet();
    }

    @Override
    public void onLoadFailed(VersionFailure failure) {
      error("load failed: " + failure);
    }
  }

  /** One caller: its row, again and again, each answer checked. */
  private void call(ServingPredictor predictor, ServingBatchingPredictor batching, int row,
      boolean batched) {
    try (Tensor x = Tensor.of(rows[row], 1, rows[row].length)) {
      while (!stop.get()) {
        try {
          if (batched) {
            try (BatchedResult answer = batching.predict(x)) {
              float[] y = answer.get(0).toFloatArray();
              if (!Arrays.equals(y, expected(A, row)) && !Arrays.equals(y, expected(B, row))) {
                error("batched row " + row + ": " + Arrays.toString(y) + " is neither A's nor B's");
              }
            }
            batchedCalls.increment();
          } else {
            try (ServingPredictor.VersionedResult answer = predictor.runVersioned(x)) {
              float[] y = answer.result().get(0).toFloatArray();
              String export = exportOf(answer.version());
              if (!Arrays.equals(y, expected(export, row))) {
                error("row " + row + " on version " + answer.version() + ": "
                    + Arrays.toString(y) + " is not " + export + "'s answer");
              }
            }
          }
          calls.increment();
        } catch (RuntimeException e) {
          error("row " + row + (batched ? " batched: " : ": ") + e);
        }
      }
    }
  }

  /**
   * Publishes version 2, 3, ... on a fixed schedule (the workload, not a wait for a condition)
   * and deletes the directories of versions older than the serving one.
   */
  private void publishEvery(Path models, Path base, VersionedModel model, double seconds) {
    long interval = (long) (seconds * 1e9);
    long next = System.nanoTime();
    try {
      for (long version = 2; !stop.get(); version++) {
        next += interval;
        SoakDriver.sleepUntil(next);
        if (stop.get()) {
          break;
        }
        publish(models, base, version);
        long serving = model.servingVersion();
        try (Stream<Path> dirs = Files.list(base)) {
          for (Path dir : (Iterable<Path>) dirs::iterator) {
            String name = dir.getFileName().toString();
            if (name.matches("\\d+") && Long.parseLong(name) < serving) {
              FileTrees.deleteUnchecked(dir);
            }
          }
        }
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      error("publisher: " + e);
    }
  }

  /** Writes the version's export beside the others, then renames it into place in one step. */
  private void publish(Path models, Path base, long version) {
    VersionPublisher.publish(models.resolve(exportOf(version)), base, version);
    published.incrementAndGet();
  }

  /** A [rows, columns] float .npy file as rows. */
  private static float[][] readRows(Path npy) throws IOException {
    try (Tensor t = Npy.read(npy)) {
      long[] shape = t.shape();
      float[] flat = t.toFloatArray();
      float[][] out = new float[(int) shape[0]][(int) shape[1]];
      for (int r = 0; r < out.length; r++) {
        System.arraycopy(flat, r * out[r].length, out[r], 0, out[r].length);
      }
      return out;
    }
  }
}
