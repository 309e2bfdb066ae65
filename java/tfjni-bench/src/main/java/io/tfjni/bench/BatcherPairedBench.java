package io.tfjni.bench;

import io.tfjni.DataType;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import io.tfjni.batching.BatchingPredictor;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * How much of a model's full-batch rate the batcher delivers: slices of N callers of one row each
 * through a {@link BatchingPredictor} (its defaults, up to 64 rows a batch), paired with slices of
 * one thread running batches of the same N rows directly into a reused result. The slices
 * alternate, each pair's order swapping, so both sides of a pair see the same machine speed; the
 * median of the per-pair ratios of rows per second compares them. Between its slices the callers
 * wait at a gate, so the direct slice runs alone. Every op runs on the calling thread, as in
 * {@code scripts/bench/bench-batching.sh}.
 *
 * <pre>
 *   BatcherPairedBench MODEL_DIR CALLERS [PAIRS] [SLICE_MS]   (defaults: 20 pairs of 300 ms)
 * </pre>
 *
 * <p>Prints one line per pair and a summary: the median ratio [quartiles], each side's median
 * rows per second and the batcher's rows per batch.
 */
public final class BatcherPairedBench {
  private final Object gate = new Object();
  private volatile boolean open;
  private volatile boolean stopping;
  private final AtomicInteger inCall = new AtomicInteger();
  private final LongAdder rows = new LongAdder();

  public static void main(String[] args) throws Exception {
    if (args.length < 2 || args.length > 4) {
      System.err.println("usage: BatcherPairedBench MODEL_DIR CALLERS [PAIRS] [SLICE_MS]");
      System.exit(2);
    }
    Path model = Path.of(args[0]);
    int callers = Integer.parseInt(args[1]);
    int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    long sliceNanos = (args.length > 3 ? Long.parseLong(args[3]) : 300) * 1_000_000L;
    if (callers < 1 || pairs < 1 || sliceNanos <= 0) {
      throw new IllegalArgumentException("callers, pairs and the slice must be positive");
    }
    new BatcherPairedBench().run(model, callers, pairs, sliceNanos);
  }

  private void run(Path dir, int callers, int pairs, long sliceNanos) throws Exception {
    try (SavedModel model = SavedModel.load(dir, SessionOptions.defaults().runOnCallerThread(),
            "serve");
        Predictor predictor = model.predictor("serving_default");
        Tensor row = filled(predictor.inputs().get(0), 1);
        Tensor fullBatch = filled(predictor.inputs().get(0), callers);
        RunResult direct = predictor.newResult();
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(64)
            .queueCapacity(Math.max(1024, callers)).build()) {
      Thread[] threads = new Thread[callers];
      for (int i = 0; i < callers; i++) {
        threads[i] = new Thread(() -> callRows(batcher, row), "batched-caller-" + i);
        threads[i].start();
      }
      try {
        double[] batched = new double[pairs];
        double[] full = new double[pairs];
        Tensor[] fullInputs = {fullBatch};
        for (int pair = -1; pair < pairs; pair++) {  // pair -1 warms both sides up
          boolean batchedFirst = (pair & 1) == 0;
          double batchedRate = 0;
          double fullRate = 0;
          for (int half = 0; half < 2; half++) {
            if ((half == 0) == batchedFirst) {
              batchedRate = batchedSlice(sliceNanos);
            } else {
              fullRate = fullBatchSlice(predictor, fullInputs, direct, callers, sliceNanos);
            }
          }
          if (pair >= 0) {
            batched[pair] = batchedRate;
            full[pair] = fullRate;
            System.out.printf("pair %d: batched %.0f rows/s, full batches %.0f rows/s%n", pair,
                batchedRate, fullRate);
          }
        }
        PairStats.Quartiles ratio = PairStats.Quartiles.of(PairStats.ratios(batched, full));
        System.out.printf("%d callers through the batcher / one thread's batches of %d rows,"
            + " %d pairs of %d ms: median %.2f [%.2f-%.2f]; rows/s %.0f against %.0f;"
            + " %.1f rows per run of the batcher%n", callers, callers, pairs,
            sliceNanos / 1_000_000, ratio.median(), ratio.q1(), ratio.q3(),
            PairStats.Quartiles.of(batched).median(), PairStats.Quartiles.of(full).median(),
            (double) batcher.rowsRun() / Math.max(1, batcher.batchesRun()));
      } finally {
        stopping = true;
        synchronized (gate) {
          gate.notifyAll();
        }
        for (Thread thread : threads) {
          thread.join();
        }
      }
    }
  }

  /** A caller: one row at a time through the batcher while the gate is open. */
  private void callRows(BatchingPredictor batcher, Tensor row) {
    Tensor[] inputs = {row};
    try (RunResult result = batcher.newResult()) {
      while (awaitOpenGate()) {
        inCall.incrementAndGet();
        try {
          if (open) {
            batcher.predict(inputs, result);
            rows.increment();
          }
        } finally {
          inCall.decrementAndGet();
        }
      }
    }
  }

  /** Waits until the gate opens; false once stopping. */
  private boolean awaitOpenGate() {
    synchronized (gate) {
      while (!open && !stopping) {
        try {
          gate.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return !stopping;
    }
  }

  /** Opens the gate for a slice, then closes it and waits until no caller is in a call. */
  private double batchedSlice(long sliceNanos) throws InterruptedException {
    synchronized (gate) {
      open = true;
      gate.notifyAll();
    }
    long start = System.nanoTime();
    long before = rows.sum();
    Thread.sleep(sliceNanos / 1_000_000);
    long ranRows = rows.sum() - before;
    long elapsed = System.nanoTime() - start;
    open = false;
    while (inCall.get() > 0) {
      Thread.sleep(1);
    }
    return ranRows * 1e9 / elapsed;
  }

  private static double fullBatchSlice(Predictor predictor, Tensor[] inputs, RunResult into,
      int rowsPerRun, long sliceNanos) {
    long start = System.nanoTime();
    long runs = 0;
    long elapsed;
    do {
      predictor.run(inputs, into);
      runs++;
      elapsed = System.nanoTime() - start;
    } while (elapsed < sliceNanos);
    return runs * rowsPerRun * 1e9 / elapsed;
  }

  /** A float tensor of {@code rows} rows of the input's shape, filled with a fixed pattern. */
  private static Tensor filled(TensorSpec input, int rows) {
    if (input.dataType() != DataType.FLOAT) {
      throw new IllegalArgumentException("input '" + input.key() + "' is " + input.dataType()
          + "; this benchmark feeds FLOAT inputs only");
    }
    long[] shape = input.shape().clone();
    shape[0] = rows;
    float[] values = new float[Math.toIntExact(Tensor.elementCount(shape))];
    for (int i = 0; i < values.length; i++) {
      values[i] = (i % 17) / 17f;
    }
    return Tensor.of(values, shape);
  }
}
