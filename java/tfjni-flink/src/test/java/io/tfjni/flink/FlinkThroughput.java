package io.tfjni.flink;

import io.tfjni.ModelCache;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.util.TestStreamEnvironment;

/**
 * Records per second through {@link SavedModelAsyncFunction} at parallelism 2 (a MiniCluster of
 * one TaskManager with 2 slots, kept running) against a plain prepared {@link Predictor} loop on
 * 2 threads at the same batch size, in one JVM, alternating round by round; and each record's
 * latency through the async path (its field read to its prediction mapped). The Flink figure
 * spans the job's first record read to its last prediction, so the job's deployment is left out.
 * The records are random floats of the signature's input shape, made once; the jobs' model stays
 * loaded from job to job, as a long-running job's would.
 *
 * <p>Usage: {@code FlinkThroughput MODEL_DIR RECORDS BATCH CAPACITY ROUNDS [chained]}; prints one
 * line per round and contender, then the medians. The records come from one source task,
 * rebalanced to the 2 subtasks (each record serialized on the way); with {@code chained}, from a
 * parallel source chained to the model's subtasks (no serialization; in this JVM only).
 */
public final class FlinkThroughput {
  private static final AtomicLong FIRST_READ = new AtomicLong();
  private static final AtomicLong LAST_MAPPED = new AtomicLong();
  private static long[] readNanos;
  /** The records, for the chained source (read in this JVM, not shipped). */
  private static float[][] chainedRows;
  private static long[] mappedNanos;

  private FlinkThroughput() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[0]);
    int records = Integer.parseInt(args[1]);
    int batch = Integer.parseInt(args[2]);
    int capacity = Integer.parseInt(args[3]);
    int rounds = Integer.parseInt(args[4]);
    boolean chained = args.length > 5 && args[5].equals("chained");

    TensorSpec input;
    try (SavedModel saved = SavedModel.load(model)) {
      input = saved.signature("serving_default").inputs().get(0);
    }
    long[] rowShape = Arrays.copyOfRange(input.shape(), 1, input.shape().length);
    int perRow = Math.toIntExact(Arrays.stream(rowShape).reduce(1, (a, b) -> a * b));
    Random random = new Random(42);
    List<Tuple2<Integer, float[]>> rows = new ArrayList<>(records);
    for (int r = 0; r < records; r++) {
      float[] row = new float[perRow];
      for (int i = 0; i < perRow; i++) {
        row[i] = random.nextFloat();
      }
      rows.add(Tuple2.of(r, row));
    }
    chainedRows = rows.stream().map(row -> row.f1).toArray(float[][]::new);
    readNanos = new long[records];
    mappedNanos = new long[records];

    MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
        .setConfiguration(new Configuration()).setNumTaskManagers(1).setNumSlotsPerTaskManager(2)
        .build());
    cluster.start();
    List<Double> flinkRates = new ArrayList<>();
    List<Double> loopRates = new ArrayList<>();
    List<Double> p50s = new ArrayList<>();
    List<Double> p99s = new ArrayList<>();
    // A lease held for the whole run keeps the jobs' model loaded and warm from job to job, as a
    // long-running streaming job's is; otherwise each job would load it again.
    ModelCache.Lease jobsModel = SubtaskModel.MODELS.acquire(
        new ModelCache.Key(model, List.of("serve"), 0, 0));
    try (SavedModel plain = SavedModel.load(model);
        Predictor predictor = plain.predictor("serving_default")) {
      for (int round = -1; round < rounds; round++) {  // round -1 warms both up, untimed
        double flink = flinkJob(cluster, model, input.key(), rows, batch, capacity, chained);
        double loop = predictorLoop(predictor, rows, rowShape, batch);
        long[] latencies = new long[records];
        for (int r = 0; r < records; r++) {
          latencies[r] = mappedNanos[r] - readNanos[r];
        }
        Arrays.sort(latencies);
        double p50 = latencies[records / 2] / 1e6;
        double p99 = latencies[(int) Math.min(records - 1, Math.ceil(records * 0.99) - 1)] / 1e6;
        System.out.printf("round %d: flink %.1f records/s, loop %.1f records/s, ratio %.2f,"
            + " flink latency p50 %.1f ms p99 %.1f ms%n", round, flink, loop, flink / loop, p50,
            p99);
        if (round >= 0) {
          flinkRates.add(flink);
          loopRates.add(loop);
          p50s.add(p50);
          p99s.add(p99);
        }
      }
    } finally {
      cluster.close();
      jobsModel.close();
    }
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      ratios.add(flinkRates.get(i) / loopRates.get(i));
    }
    System.out.printf("medians of %d rounds, %d records, batch %d, capacity %d, %s source: flink"
        + " %.1f records/s, loop %.1f records/s, ratio %.2f (rounds %s), latency p50 %.1f ms p99"
        + " %.1f ms%n", rounds, records, batch, capacity, chained ? "chained" : "rebalanced",
        median(flinkRates), median(loopRates),
        median(ratios), ratios.stream().map(r -> String.format("%.2f", r)).toList(),
        median(p50s), median(p99s));
  }

  private static double flinkJob(MiniCluster cluster, Path model, String inputKey,
      List<Tuple2<Integer, float[]>> rows, int batch, int capacity, boolean chained)
      throws Exception {
    FIRST_READ.set(Long.MAX_VALUE);
    LAST_MAPPED.set(0);
    StreamExecutionEnvironment env = new TestStreamEnvironment(cluster, 2);
    TypeInformation<Tuple2<Integer, float[]>> type =
        Types.TUPLE(Types.INT, Types.PRIMITIVE_ARRAY(Types.FLOAT));
    DataStream<Tuple2<Integer, float[]>> source = chained
        ? env.fromSequence(0, rows.size() - 1)
            .map(i -> Tuple2.of(i.intValue(), chainedRows[i.intValue()])).returns(type)
        : env.fromData(rows, type).rebalance();
    AsyncDataStream.unorderedWait(source,
        SavedModelAsyncFunction.<Tuple2<Integer, float[]>>builder(model.toString())
            .input(inputKey, "x", record -> {
              long now = System.nanoTime();
              readNanos[record.f0] = now;
              FIRST_READ.accumulateAndGet(now, Math::min);
              return record.f1;
            })
            .maxBatchSize(batch)
            .build((record, prediction) -> {
              long now = System.nanoTime();
              mappedNanos[record.f0] = now;
              LAST_MAPPED.accumulateAndGet(now, Math::max);
              return record.f0;
            }), 10, TimeUnit.MINUTES, capacity).returns(Types.INT)
        .sinkTo(new DiscardingSink<>());
    env.execute("throughput");
    return rows.size() / ((LAST_MAPPED.get() - FIRST_READ.get()) / 1e9);
  }

  /** Two threads, each running every other batch of the rows; records per second. */
  private static double predictorLoop(Predictor predictor, List<Tuple2<Integer, float[]>> rows,
      long[] rowShape, int batch) throws InterruptedException {
    int perRow = rows.get(0).f1.length;
    long[] shape = new long[rowShape.length + 1];
    System.arraycopy(rowShape, 0, shape, 1, rowShape.length);
    Thread[] threads = new Thread[2];
    long start = System.nanoTime();
    for (int t = 0; t < threads.length; t++) {
      int first = t;
      threads[t] = new Thread(() -> {
        try (RunResult result = predictor.newResult()) {
          for (int b = first * batch; b < rows.size(); b += threads.length * batch) {
            int n = Math.min(batch, rows.size() - b);
            float[] data = new float[n * perRow];
            for (int r = 0; r < n; r++) {
              System.arraycopy(rows.get(b + r).f1, 0, data, r * perRow, perRow);
            }
            long[] batchShape = shape.clone();
            batchShape[0] = n;
            try (Tensor tensor = Tensor.of(data, batchShape)) {
              predictor.run(new Tensor[] {tensor}, result);
            }
          }
        }
      });
      threads[t].start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    return rows.size() / ((System.nanoTime() - start) / 1e9);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
