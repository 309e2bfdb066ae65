package io.tfjni.soak;

import io.tfjni.DataType;
import io.tfjni.LiveObjects;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.eager.EagerContext;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import io.tfjni.numpy.Npy;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The Java side of scripts/test/soak.sh: N minutes of mixed predictor and eager work on every core,
 * sampling once a second the process RSS, the Java heap and tfjni's live native objects into a
 * CSV. Every result is checked (against TensorFlow Python's hold-out outputs or arithmetic), so
 * the soak also counts wrong answers. A program, not a test: it never runs in the JUnit suite.
 *
 * <p>Arguments: minutes, models directory, output directory. Writes samples.csv and
 * meta.properties there; scripts/test/soak_report.py judges them.
 */
public final class SoakDriver {
  /** Most native objects one worker holds at a time: a generous bound, checked per sample. */
  static final int LIVE_PER_WORKER = 64;
  private static final int BATCH = 8;
  private static final int PIXELS = 64;
  private static final int CLASSES = 10;
  private static final float PROB_TOLERANCE = 1e-5f;
  /** The header of samples.csv, which scripts/test/soak_report.py reads. */
  static final String SAMPLE_COLUMNS = "t_s,phase,rss_kib,heap_used_bytes,heap_committed_bytes,"
      + "live_total,live_tensors,live_tensor_handles,live_tensor_bytes,ops_total,errors_total,"
      + "jvm_committed_kib";
  private static final Pattern NMT_TOTAL =
      Pattern.compile("Total: reserved=\\d+KB, committed=(\\d+)KB");

  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicLong errors = new AtomicLong();
  private final ConcurrentLinkedQueue<String> firstErrors = new ConcurrentLinkedQueue<>();
  private final List<Worker> workers = new ArrayList<>();

  private float[] images;
  private float[] expectedProbs;
  private long[] expectedLabels;
  private int batches;

  private SoakDriver() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: SoakDriver MINUTES MODELS_DIR OUT_DIR");
      System.exit(2);
    }
    double minutes = Double.parseDouble(args[0]);
    new SoakDriver().run(minutes, Path.of(args[1]), Path.of(args[2]));
  }

  /** One kind of work, repeated until told to stop; its own resources opened and closed. */
  private abstract class Worker implements Runnable {
    final String name;
    final LongAdder ops = new LongAdder();

    Worker(String name) {
      this.name = name;
    }

    abstract void work() throws Exception;

    @Override
    public void run() {
      while (!stop.get()) {
        try {
          work();
        } catch (Throwable e) {
          error(name + ": " + e);
          sleepQuietly(100);  // do not spin on a persistent failure
        }
      }
    }

    void check(boolean ok, String what) {
      if (!ok) {
        error(name + ": wrong result: " + what);
      }
    }
  }

  private void error(String message) {
    if (errors.incrementAndGet() <= 20) {
      firstErrors.add(message);
      System.err.println("soak error: " + message);
    }
  }

  private void run(double minutes, Path models, Path out) throws Exception {
    Files.createDirectories(out);
    loadHoldout(models);
    EagerContext.shared();  // lives for the process: part of the baseline
    Map<String, String> meta = runFacts(minutes);
    long baseline = TensorFlow.liveObjects().total();
    meta.put("live_baseline", Long.toString(baseline));

    long start = System.nanoTime();
    try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("samples.csv"),
        StandardCharsets.UTF_8))) {
      csv.println(SAMPLE_COLUMNS);
      sample(csv, start, "baseline");

      SavedModel digits = SavedModel.load(models.resolve("digits"));
      SavedModel multi = SavedModel.load(models.resolve("multi"));
      SavedModel strings = SavedModel.load(models.resolve("strings"));
      // The map API keeps one prepared predictor per key set for the model's life: make them now.
      warmMapApi(multi, strings);
      long loaded = TensorFlow.liveObjects().total();
      meta.put("live_loaded", Long.toString(loaded));

      workers.add(new DigitsReused(digits));
      workers.add(new DigitsFreshWithEager(digits));
      workers.add(new MapApi(multi, strings));
      workers.add(new EagerMath());
      workers.add(new EagerToPredictor(multi));
      long bound = loaded + (long) LIVE_PER_WORKER * workers.size();
      meta.put("live_bound", Long.toString(bound));
      meta.put("workers", Integer.toString(workers.size()));
      meta.put("live_per_worker", Integer.toString(LIVE_PER_WORKER));

      List<Thread> threads = new ArrayList<>();
      for (Worker worker : workers) {
        Thread thread = new Thread(worker, "soak-" + worker.name);
        threads.add(thread);
      }
      long workStart = System.nanoTime();
      meta.put("work_start_s", seconds(workStart - start));
      threads.forEach(Thread::start);
      long end = workStart + (long) (minutes * 60e9);
      // The report's warm-up: min(120 s, a quarter of the run). NMT's diff starts there.
      long warmupEnd = workStart + Math.min(TimeUnit.SECONDS.toNanos(120), (end - workStart) / 4);
      boolean baselined = false;
      long next = workStart;
      while (System.nanoTime() < end) {
        next += TimeUnit.SECONDS.toNanos(1);
        sleepUntil(next);
        sample(csv, start, "run");
        if (!baselined && System.nanoTime() >= warmupEnd) {
          baselined = nativeMemory("baseline") != null;
        }
      }
      String diff = baselined ? nativeMemory("summary.diff") : null;
      if (diff != null) {
        Files.writeString(out.resolve("nmt-diff.txt"), diff, StandardCharsets.UTF_8);
      }
      stop.set(true);
      long stopAt = System.nanoTime();
      meta.put("work_stop_s", seconds(stopAt - start));
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(120));
        if (thread.isAlive()) {
          error(thread.getName() + " did not stop within 120 s");
        }
      }
      digits.close();
      multi.close();
      strings.close();
      // After: no work, everything closed. The live count must be back at the baseline.
      next = System.nanoTime();
      for (int i = 0; i < 5; i++) {
        next += TimeUnit.SECONDS.toNanos(1);
        sleepUntil(next);
        sample(csv, start, "after");
      }
    }
    LiveObjects after = TensorFlow.liveObjects();
    meta.put("live_after", Long.toString(after.total()));
    meta.put("live_after_detail", after.toString());
    long totalOps = 0;
    for (Worker worker : workers) {
      meta.put("ops." + worker.name, Long.toString(worker.ops.sum()));
      totalOps += worker.ops.sum();
    }
    meta.put("ops_total", Long.toString(totalOps));
    meta.put("errors", Long.toString(errors.get()));
    meta.put("first_errors", String.join(" | ", firstErrors));
    writeMeta(out, meta);
    System.out.printf(Locale.ROOT, "soak: %.1f min, %d operations, %d errors, live %d -> %d%n",
        minutes, totalOps, errors.get(), baseline, after.total());
  }

  /** meta.properties, which scripts/test/soak_report.py reads: one key=value a line. */
  static void writeMeta(Path out, Map<String, String> meta) throws IOException {
    try (PrintWriter properties = new PrintWriter(Files.newBufferedWriter(
        out.resolve("meta.properties"), StandardCharsets.UTF_8))) {
      meta.forEach((key, value) -> properties.println(key + "=" + value.replace("\n", " ")));
    }
  }

  /** The facts about this run every soak's meta.properties starts with. */
  static Map<String, String> runFacts(double minutes) {
    Map<String, String> meta = new java.util.LinkedHashMap<>();
    meta.put("tensorflow", TensorFlow.version());
    meta.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    meta.put("jvm_args", String.join(" ",
        ManagementFactory.getRuntimeMXBean().getInputArguments()));
    meta.put("cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
    meta.put("minutes", Double.toString(minutes));
    return meta;
  }

  private void sample(PrintWriter csv, long start, String phase) throws IOException {
    long ops = 0;
    for (Worker worker : workers) {
      ops += worker.ops.sum();
    }
    writeSample(csv, start, phase, ops, errors.get());
  }

  /**
   * One row of {@link #SAMPLE_COLUMNS}: the time since {@code start}, the phase, RSS, heap, live
   * native objects, the operations and errors so far, the JVM's own committed memory.
   */
  static void writeSample(PrintWriter csv, long start, String phase, long ops, long errors)
      throws IOException {
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    LiveObjects live = TensorFlow.liveObjects();
    csv.printf(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d%n",
        seconds(System.nanoTime() - start), phase, rssKib(), heap.getUsed(), heap.getCommitted(),
        live.total(), live.tensors(), live.tensorHandles(), live.tensorBytes(), ops, errors,
        jvmCommittedKib());
    csv.flush();
  }

  /**
   * The JVM's own committed native memory (heap, code, metaspace, threads, GC, ...) from Native
   * Memory Tracking, in KiB; -1 without -XX:NativeMemoryTracking. RSS growth beyond it is memory
   * the JVM does not account for: TensorFlow's, tfjni's and the C allocator's.
   */
  static long jvmCommittedKib() {
    String out = nativeMemory("summary");
    Matcher total = NMT_TOTAL.matcher(String.valueOf(out));
    return total.find() ? Long.parseLong(total.group(1)) : -1;
  }

  /** jcmd VM.native_memory with one argument (summary, baseline, summary.diff); null if off. */
  static String nativeMemory(String argument) {
    try {
      Object out = ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
          new Object[] {new String[] {argument}}, new String[] {String[].class.getName()});
      String text = String.valueOf(out);
      return text.contains("not enabled") ? null : text;
    } catch (JMException e) {
      return null;
    }
  }

  static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
  }

  /** Resident set size from /proc/self/status, in KiB. */
  static long rssKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no VmRSS in /proc/self/status");
  }

  static void sleepUntil(long nanoTime) throws InterruptedException {
    long wait = nanoTime - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loadHoldout(Path models) throws IOException {
    try (Tensor x = Npy.read(models.resolve("digits_holdout_images.npy"));
        Tensor p = Npy.read(models.resolve("digits_holdout_probs.npy"))) {
      images = x.toFloatArray();
      expectedProbs = p.toFloatArray();
    }
    batches = images.length / PIXELS / BATCH;
    expectedLabels = new long[expectedProbs.length / CLASSES];
    for (int i = 0; i < expectedLabels.length; i++) {
      int best = 0;
      for (int c = 1; c < CLASSES; c++) {
        if (expectedProbs[i * CLASSES + c] > expectedProbs[i * CLASSES + best]) {
          best = c;
        }
      }
      expectedLabels[i] = best;
    }
  }

  private static void warmMapApi(SavedModel multi, SavedModel strings) {
    try (Tensor a = Tensor.of(new float[] {1}, 1);
        Tensor x = Tensor.of(new float[] {1, 2, 3}, 1, 3);
        Tensor s = Tensor.ofStrings(new String[] {"a"}, 1);
        RunResult r1 = multi.run("add", Map.of("a", a, "b", a));
        RunResult r2 = multi.run("scale", Map.of("x", x));
        RunResult r3 = strings.run("transform", Map.of("s", s))) {
      r1.get(0);
      r2.get(0);
      r3.get(0);
    }
  }

  private boolean probsMatch(float[] probs, int batch) {
    int offset = batch * BATCH * CLASSES;
    for (int i = 0; i < probs.length; i++) {
      if (Math.abs(probs[i] - expectedProbs[offset + i]) > PROB_TOLERANCE) {
        return false;
      }
    }
    return true;
  }

  /** The zero-allocation path: one allocated input filled in place, one reused result. */
  private final class DigitsReused extends Worker {
    private final SavedModel model;

    DigitsReused(SavedModel model) {
      super("digits-reused");
      this.model = model;
    }

    @Override
    void work() {
      try (Predictor predictor = model.predictor("serving_default");
          RunResult result = predictor.newResult();
          Tensor input = Tensor.allocate(DataType.FLOAT, BATCH, 8, 8, 1)) {
        FloatBuffer pixels = input.buffer().asFloatBuffer();
        float[] probs = new float[BATCH * CLASSES];
        for (int i = 0; i < 5_000 && !stop.get(); i++) {
          int batch = i % batches;
          pixels.clear();
          pixels.put(images, batch * BATCH * PIXELS, BATCH * PIXELS);
          predictor.run(input, result).get(0).copyTo(probs);
          check(probsMatch(probs, batch), "digits batch " + batch);
          ops.increment();
        }
      }
    }
  }

  /** New tensors and results every run; the outputs go through eager ops in a sub-manager. */
  private final class DigitsFreshWithEager extends Worker {
    private final SavedModel model;

    DigitsFreshWithEager(SavedModel model) {
      super("digits-fresh-eager");
      this.model = model;
    }

    @Override
    void work() {
      try (Predictor predictor = model.predictor("serving_default");
          NDManager root = NDManager.newBaseManager()) {
        float[] batchPixels = new float[BATCH * PIXELS];
        for (int i = 0; i < 500 && !stop.get(); i++) {
          int batch = i % batches;
          System.arraycopy(images, batch * BATCH * PIXELS, batchPixels, 0, batchPixels.length);
          try (Tensor input = Tensor.of(batchPixels, BATCH, 8, 8, 1);
              RunResult result = predictor.run(input);
              NDManager scope = root.newSubManager()) {
            NDArray probs = scope.from(result.get("output_0"));
            long[] labels = probs.argMax(1).toLongArray();
            boolean ok = true;
            for (int j = 0; j < BATCH; j++) {
              ok &= labels[j] == expectedLabels[batch * BATCH + j];
            }
            check(ok, "digits labels of batch " + batch);
            float[] top = probs.topK(1)[0].sum().toFloatArray();
            check(top[0] > 0 && top[0] <= BATCH + 1e-4f, "sum of top probabilities " + top[0]);
          }
          ops.increment();
        }
      }
    }
  }

  /** The map API on two models, strings longer than TensorFlow's inline 22 bytes included. */
  private final class MapApi extends Worker {
    private final SavedModel multi;
    private final SavedModel strings;
    private int i;

    MapApi(SavedModel multi, SavedModel strings) {
      super("map-api");
      this.multi = multi;
      this.strings = strings;
    }

    @Override
    void work() {
      i++;
      float[] a = new float[16];
      float[] b = new float[16];
      for (int k = 0; k < a.length; k++) {
        a[k] = (i + k) % 1000;
        b[k] = -k;
      }
      try (Tensor ta = Tensor.of(a, a.length);
          Tensor tb = Tensor.of(b, b.length);
          RunResult sum = multi.run("add", Map.of("a", ta, "b", tb))) {
        float[] s = sum.get("sum").toFloatArray();
        boolean ok = true;
        for (int k = 0; k < s.length; k++) {
          ok &= s[k] == a[k] + b[k];
        }
        check(ok, "add");
      }
      float[] x = {i % 97, 2, -3.5f};
      try (Tensor tx = Tensor.of(x, 1, 3);
          RunResult scaled = multi.run("scale", Map.of("x", tx))) {
        check(scaled.get("total").toFloatArray()[0] == x[0] + x[1] + x[2], "scale total");
      }
      String word = "a string long enough to live on the heap #" + i;
      try (Tensor ts = Tensor.ofStrings(new String[] {word, "short"}, 2);
          RunResult out = strings.run("transform", Map.of("s", ts))) {
        String[] upper = out.get("upper").toStringArray();
        String[] joined = out.get("joined").toStringArray();
        int[] length = out.get("length").toIntArray();
        check(upper[0].equals(word.toUpperCase(Locale.ROOT)) && upper[1].equals("SHORT")
            && joined[0].equals(word + "_suffix") && length[0] == word.length()
            && length[1] == 5, "strings transform");
      }
      ops.increment();
    }
  }

  /** Eager arithmetic in sub-managers; the root manager itself is renewed now and then. */
  private final class EagerMath extends Worker {
    EagerMath() {
      super("eager-math");
    }

    @Override
    void work() {
      try (NDManager root = NDManager.newBaseManager()) {
        for (int i = 0; i < 1_000 && !stop.get(); i++) {
          try (NDManager scope = root.newSubManager()) {
            float[] av = new float[12];
            float[] bv = new float[8];
            for (int k = 0; k < av.length; k++) {
              av[k] = (i + k) % 7;
            }
            for (int k = 0; k < bv.length; k++) {
              bv[k] = k - 3;
            }
            NDArray a = scope.create(av, 3, 4);
            NDArray b = scope.create(bv, 4, 2);
            float[] c = a.matMul(b).add(1f).mul(2f).toFloatArray();
            boolean ok = true;
            for (int r = 0; r < 3; r++) {
              for (int col = 0; col < 2; col++) {
                float dot = 0;
                for (int k = 0; k < 4; k++) {
                  dot += av[r * 4 + k] * bv[k * 2 + col];
                }
                ok &= c[r * 2 + col] == (dot + 1) * 2;
              }
            }
            check(ok, "matMul");
            float[] softmax = a.softmax().sum(1).toFloatArray();
            for (float rowSum : softmax) {
              ok &= Math.abs(rowSum - 1) < 1e-5f;
            }
            NDArray joined = a.transpose().reshape(2, 6).concat(0, a.reshape(2, 6));
            float total = joined.sum().toFloatArray()[0];
            float expected = 0;
            for (float v : av) {
              expected += 2 * v;
            }
            check(ok && total == expected, "softmax rows or concat sum");
          }
          ops.increment();
        }
      }
    }
  }

  /** Eager results fed to a predictor, its outputs back into eager ops. */
  private final class EagerToPredictor extends Worker {
    private final SavedModel multi;

    EagerToPredictor(SavedModel multi) {
      super("eager-predictor");
      this.multi = multi;
    }

    @Override
    void work() {
      try (Predictor doubler = multi.predictor("any_rank");
          RunResult result = doubler.newResult();
          NDManager root = NDManager.newBaseManager()) {
        for (int i = 0; i < 1_000 && !stop.get(); i++) {
          try (NDManager scope = root.newSubManager()) {
            NDArray x = scope.arange(0f, 24f, 1f).reshape(2, 3, 4).add((float) (i % 10));
            try (Tensor fed = x.toTensor()) {
              doubler.run(fed, result);
            }
            float sum = scope.from(result.get(0)).sum().toFloatArray()[0];
            // 2 * (0 + ... + 23 + 24 * (i % 10))
            check(sum == 2 * (276 + 24 * (i % 10)), "doubled sum " + sum);
          }
          ops.increment();
        }
      }
    }
  }
}
