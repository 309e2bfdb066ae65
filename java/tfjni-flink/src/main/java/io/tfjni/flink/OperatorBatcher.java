package io.tfjni.flink;

import io.tfjni.DataType;
import io.tfjni.Predictor;
import io.tfjni.RowSpec;
import io.tfjni.Tensor;
import io.tfjni.batching.BatchListener;
import io.tfjni.batching.BatchedResult;
import io.tfjni.batching.BatchingPredictor;
import io.tfjni.batching.PaddedBatchSizes;
import java.lang.reflect.Array;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The operator's records through tfjni's {@link BatchingPredictor}, which queues, batches and
 * runs them: a record's rows go in as the arrays they are (copied once, into the queue), and its
 * prediction comes out as its rows of every output, copied into primitive arrays. The predictors
 * (TensorFlow's, and LiteRT's for the batch sizes converted) are borrowed, not owned; with
 * LiteRT's, a batch smaller than a converted size is padded up to it ({@link
 * PaddedBatchSizes#forConverted}), and each batch's runtime is logged at DEBUG to the {@code
 * System.Logger} "io.tfjni.flink".
 */
final class OperatorBatcher implements RecordBatcher {
  /** At DEBUG, which runtime runs each batch. */
  private static final System.Logger LOG = System.getLogger("io.tfjni.flink");

  private final BatchingPredictor batcher;
  private final List<RowSpec> inputs;
  private final List<RowSpec> outputs;

  /**
   * @throws IllegalArgumentException naming an input or output that cannot be batched (the core's
   *     rule) or whose row is not of a known shape (this module's, as rows are flattened arrays)
   */
  OperatorBatcher(Predictor predictor, Map<Integer, Predictor> bySize, int maxBatchSize,
      Duration maxDelay, String threadName) {
    // The async operator's capacity already bounds the records in flight, and a record it hands
    // over must not be refused (that would fail the job instead of holding the source back): the
    // queue is left unbounded here.
    BatchingPredictor.Builder builder = BatchingPredictor.builder(predictor)
        .maxBatchSize(maxBatchSize).maxDelay(maxDelay).unboundedQueue().threadName(threadName)
        .predictorsBySize(bySize);
    if (!bySize.isEmpty()) {
      builder.listener(new RuntimeLog(threadName));
    }
    int[] padded = PaddedBatchSizes.forConverted(bySize.keySet(), maxBatchSize);
    if (padded.length > 0) {
      builder.allowedBatchSizes(padded);
    }
    this.batcher = builder.build();
    try {
      this.inputs = SubtaskModel.arrayRows(predictor.inputs(), "input");
      this.outputs = SubtaskModel.arrayRows(predictor.outputs(), "output");
    } catch (RuntimeException e) {
      batcher.close();
      throw e;
    }
  }

  /** Logs at DEBUG the runtime of each batch: LiteRT's predictors are those of their size. */
  private record RuntimeLog(String threadName) implements BatchListener {
    @Override
    public void onCallerStarted(long waitNanos) {}

    @Override
    public void onRun(int callers, int rows, long runNanos, boolean failed) {}

    @Override
    public void onPredictorChosen(int rows, int batchSize, boolean ofItsSize) {
      if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
        LOG.log(System.Logger.Level.DEBUG, "tfjni-flink: " + threadName + ", a batch of " + rows
            + " rows" + (batchSize == rows ? "" : ", padded to " + batchSize + ",") + " runs on "
            + (ofItsSize ? "LiteRT" : "TensorFlow"));
      }
    }
  }

  /** The row of each input, in the predictor's input order. */
  List<RowSpec> inputs() {
    return inputs;
  }

  /** The layout of each output's row, in the order of the predictions' outputs. */
  List<RowSpec> outputs() {
    return outputs;
  }

  @Override
  public CompletableFuture<Prediction> submit(Object[] rows) {
    CompletableFuture<BatchedResult> pending;
    try {
      pending = batcher.submitRow(rows);  // copies the rows
    } catch (RuntimeException e) {  // closed, or a row that does not fit: this record fails
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Prediction> answer = new CompletableFuture<>();
    Completions.relay(pending, result -> answer.complete(prediction(result, outputs)),
        answer::completeExceptionally);
    return answer;
  }

  /**
   * A record's prediction from its batched result (closed here): its rows of every output, in
   * the order of {@code outputs}, copied out.
   */
  static Prediction prediction(BatchedResult result, List<RowSpec> outputs) {
    try (result) {
      Map<String, Object> rows = new LinkedHashMap<>();
      for (int o = 0; o < outputs.size(); o++) {
        RowSpec layout = outputs.get(o);
        rows.put(layout.key(), row(result.get(o), layout));
      }
      return new Prediction(rows);
    }
  }

  /** A record's row of an output: a primitive array of its type, or byte[][] for STRING. */
  private static Object row(Tensor output, RowSpec layout) {
    if (layout.dataType() == DataType.STRING) {
      byte[][] row = output.toBytesArray();
      if (row.length != layout.arrayLength()) {
        throw new IllegalStateException("output '" + layout.key() + "' gave " + row.length
            + " strings for a record, not " + layout.arrayLength());
      }
      return row;
    }
    Object row = Array.newInstance(layout.dataType().javaComponent(), layout.arrayLength());
    output.copyTo(row);  // refuses an output whose size is not one row
    return row;
  }

  /** How many model runs the batcher has made: records run / runs is the mean batch size. */
  long batchesRun() {
    return batcher.batchesRun();
  }

  /**
   * Fails the records still queued, waits for the batch being run; through interrupts, as Flink
   * interrupts the thread that closes a cancelled operator.
   */
  @Override
  public void close() {
    batcher.close();
  }
}
