package io.tfjni.bench;

import io.tfjni.DataType;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import io.tfjni.spark.SavedModelTransformer;
import java.lang.management.ManagementFactory;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Rows per second through tfjni's Spark transformer on local[2], beside the same rows through a
 * plain prepared {@link Predictor} loop on 2 threads in the same JVM, for one benchmark model
 * and several batch sizes, interleaved per round, and the same DataFrame written without the model
 * (Spark's own cost per row). Also the process's CPU time per row of each (and the JIT
 * compilers' share of it), and the heap bytes all threads allocated per row during the Spark
 * job. Prints one JSON line per measurement, and each contender's CPU by thread group on
 * stderr; scripts/bench/bench-spark.sh runs it and writes docs/SPARK_BENCHMARKS.md.
 *
 * <p>Usage: {@code SparkThroughput BENCH_MODELS_DIR MODEL ROWS BATCH,BATCH,... ROUNDS}. The rows
 * are random floats of the signature's input shape, made once and cached in Spark's memory, so
 * neither their making nor any file is timed; the Spark job writes to the no-op sink.
 */
public final class SparkThroughput {
  /** Untimed runs of each contender at each batch size before the timed rounds. */
  private static final int WARMUP_RUNS = 3;

  private SparkThroughput() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: SparkThroughput BENCH_MODELS_DIR MODEL ROWS BATCHES ROUNDS");
      System.exit(2);
    }
    Path model = Path.of(args[0], args[1]);
    int rows = Integer.parseInt(args[2]);
    int[] batches = Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray();
    int rounds = Integer.parseInt(args[4]);

    TensorSpec input;
    String outputKey;
    try (SavedModel saved = SavedModel.load(model)) {
      input = saved.signature("serving_default").inputs().get(0);
      outputKey = saved.signature("serving_default").outputKeys().get(0);
    }
    long[] shape = input.shape();
    int perRow = 1;
    for (int d = 1; d < shape.length; d++) {
      perRow *= (int) shape[d];
    }
    float[] data = new float[rows * perRow];
    Random random = new Random(42);
    for (int i = 0; i < data.length; i++) {
      data[i] = random.nextFloat();
    }

    SparkSession spark = SparkSession.builder().master("local[2]").appName("tfjni-spark bench")
        .config("spark.ui.enabled", "false").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    TaskSpans spans = new TaskSpans();
    spark.sparkContext().addSparkListener(spans);
    List<Row> rowList = new ArrayList<>(rows);
    for (int r = 0; r < rows; r++) {
      List<Float> values = new ArrayList<>(perRow);
      for (int j = 0; j < perRow; j++) {
        values.add(data[r * perRow + j]);
      }
      rowList.add(RowFactory.create(values));
    }
    Dataset<Row> frame = spark.createDataFrame(rowList, new StructType().add("x",
        DataTypes.createArrayType(DataTypes.FloatType, false))).repartition(2).cache();
    frame.count();
    rowList.clear();

    // One model for the plain loop, loaded once like the executor's; both contenders run once
    // untimed first (TensorFlow optimises a graph on its first run).
    try (SavedModel plain = SavedModel.load(model, SessionOptions.defaults(), "serve");
        Predictor predictor = plain.predictor("serving_default", List.of(input.key()),
            List.of(outputKey))) {
      // Spark runs far more Java code than the loop: a couple of warm-up jobs leave the JIT
      // compiling Spark's scheduler and row paths through the timed ones, on the cores the
      // model needs. Warm both until the compilers are quiet, at every batch size.
      for (int warm = 0; warm < WARMUP_RUNS; warm++) {
        for (int batch : batches) {
          sparkJob(frame, model, input, outputKey, batch);
          predictorLoop(predictor, input, data, rows, perRow, batch);
          scanJob(frame);
        }
      }
      for (int round = 0; round < rounds; round++) {
        for (int batch : batches) {
          long bytesBefore = allocatedBytes();
          long cpu = processCpuNanos();
          ThreadCpu threadsBefore = ThreadCpu.snapshot();
          double sparkSeconds = sparkJob(frame, model, input, outputKey, batch);
          double sparkCpu = cpuMillisPerRow(cpu, rows);
          double bytesPerRow = (allocatedBytes() - bytesBefore) / (double) rows;
          Map<String, Double> sparkThreads =
              ThreadCpu.snapshot().millisPerRowSince(threadsBefore, rows);
          print(args[1], "spark", batch, round, rows, rows / sparkSeconds, sparkCpu,
              bytesPerRow, ThreadCpu.compilerMillis(sparkThreads));
          printThreads(args[1], "spark", batch, round, sparkThreads);
          spark.sparkContext().listenerBus().waitUntilEmpty();
          System.err.println("spans " + args[1] + " spark batch " + batch + " round " + round
              + ": " + spans.describeLastJob());
          cpu = processCpuNanos();
          threadsBefore = ThreadCpu.snapshot();
          double loopRate = predictorLoop(predictor, input, data, rows, perRow, batch);
          Map<String, Double> loopThreads =
              ThreadCpu.snapshot().millisPerRowSince(threadsBefore, rows);
          print(args[1], "predictor", batch, round, rows, loopRate, cpuMillisPerRow(cpu, rows),
              -1, ThreadCpu.compilerMillis(loopThreads));
          printThreads(args[1], "predictor", batch, round, loopThreads);
          cpu = processCpuNanos();
          double scanSeconds = scanJob(frame);
          print(args[1], "scan", batch, round, rows, rows / scanSeconds,
              cpuMillisPerRow(cpu, rows), -1, -1);
        }
      }
    }
    spark.stop();
  }

  /** Seconds to transform every row of {@code frame} into the no-op sink. */
  private static double sparkJob(Dataset<Row> frame, Path model, TensorSpec input,
      String outputKey, int batch) {
    SavedModelTransformer transformer = new SavedModelTransformer()
        .setModelPath(model.toString()).setInputCols("x").setInputKeys(input.key())
        .setOutputKeys(outputKey).setOutputCols("y").setBatchSize(batch);
    long start = System.nanoTime();
    transformer.transform(frame).write().format("noop").mode("overwrite").save();
    return (System.nanoTime() - start) / 1e9;
  }

  /** Seconds to write every row of {@code frame} to the no-op sink: Spark's own floor. */
  private static double scanJob(Dataset<Row> frame) {
    long start = System.nanoTime();
    frame.write().format("noop").mode("overwrite").save();
    return (System.nanoTime() - start) / 1e9;
  }

  /** Rows per second through one shared predictor, 2 threads each running half of the rows. */
  private static double predictorLoop(Predictor predictor, TensorSpec input, float[] data,
      int rows, int perRow, int batch) {
    AtomicLong done = new AtomicLong();
    Thread[] threads = new Thread[2];
    long[] ends = new long[threads.length];
    long start = System.nanoTime();
    for (int t = 0; t < threads.length; t++) {
      int index = t;
      int first = t * rows / 2;
      int last = (t + 1) * rows / 2;
      threads[t] = new Thread(() -> {
        try (RunResult result = predictor.newResult()) {
          for (int r = first; r < last; r += batch) {
            int n = Math.min(batch, last - r);
            long[] shape = input.shape();
            shape[0] = n;
            try (Tensor x = Tensor.allocate(DataType.FLOAT, shape)) {
              FloatBuffer buffer = x.buffer().asFloatBuffer();
              buffer.put(data, r * perRow, n * perRow);
              predictor.run(x, result);
              result.get(0).toFloatArray();  // the rows' outputs, as Spark reads them
            }
            done.addAndGet(n);
          }
        }
        ends[index] = System.nanoTime();
      });
      threads[t].start();
    }
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    System.err.printf(Locale.ROOT, "spans loop batch %d: %d ms, first thread ended %d ms"
        + " before the last%n", batch, (System.nanoTime() - start) / 1_000_000,
        Math.abs(ends[0] - ends[1]) / 1_000_000);
    return done.get() / ((System.nanoTime() - start) / 1e9);
  }

  /**
   * CPU time of the whole process (every thread, TensorFlow's own pools and the GC included):
   * on a shared machine far steadier than the wall clock, and what the two contenders would
   * each get from the machine alone.
   */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static double cpuMillisPerRow(long startNanos, int rows) {
    return (processCpuNanos() - startNanos) / 1e6 / rows;
  }

  /** Heap bytes allocated so far by every live thread. */
  private static long allocatedBytes() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long total = 0;
    for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      total += Math.max(0, bytes);
    }
    return total;
  }

  /** Where the CPU went, by thread group, on stderr (a diagnostic, not part of the report). */
  private static void printThreads(String model, String contender, int batch, int round,
      Map<String, Double> millisPerRow) {
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
        "threads %s %s batch %d round %d, CPU ms/row:", model, contender, batch, round));
    millisPerRow.forEach((group, ms) -> line.append(String.format(Locale.ROOT, " [%s] %.3f",
        group, ms)));
    System.err.println(line);
  }

  private static void print(String model, String contender, int batch, int round,
      int rowsPerJob, double rowsPerSecond, double cpuMillisPerRow, double bytesPerRow,
      double jitMillisPerRow) {
    System.out.printf(Locale.ROOT, "{\"model\": \"%s\", \"contender\": \"%s\", \"batch\": %d,"
        + " \"round\": %d, \"rows\": %d, \"rows_per_s\": %.1f, \"cpu_ms_per_row\": %.4f,"
        + " \"alloc_bytes_per_row\": %.1f, \"jit_cpu_ms_per_row\": %.4f}%n", model, contender,
        batch, round, rowsPerJob, rowsPerSecond, cpuMillisPerRow, bytesPerRow, jitMillisPerRow);
  }
}
