package io.tfjni.spark;

import io.tfjni.InvalidRowException;
import io.tfjni.InvalidRows;
import io.tfjni.ModelCache;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.Tensor;
import io.tfjni.batching.PaddedBatchSizes;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Runs one partition: rows are grouped into batches of the plan's size, each batch fed through
 * one prepared {@link Predictor} call of the JVM's shared model, and each row comes out with the
 * outputs appended. With {@code preferLiteRt}, a batch runs on the LiteRT model converted at the
 * smallest size that holds it, up to the batch size ({@link PaddedBatchSizes#forConverted}),
 * padded with rows of zeros whose outputs are dropped (a partition's last, shorter batch), if
 * there is one ({@link io.tfjni.SavedModel#liteRtPredictor}), else on TensorFlow as it is; each
 * batch's runtime is logged at DEBUG to the {@code System.Logger} "io.tfjni.spark". Lazily, batch
 * by batch, as Spark pulls rows; everything native is released when the partition ends or the
 * task does (a failure, a cancelled task).
 *
 * <p>It works on Spark's internal rows, as the query engine holds them: an array column is read
 * without boxing an element, and a row goes out as the input row joined to its outputs, which
 * the scan that reads this RDD turns into Spark's binary row format in one copy.
 */
final class PartitionInference implements FlatMapFunction<Iterator<InternalRow>, InternalRow> {
  private static final long serialVersionUID = 1;
  /** At DEBUG, which runtime runs each batch. */
  private static final Logger LOG = System.getLogger("io.tfjni.spark");

  private final InferencePlan plan;

  PartitionInference(InferencePlan plan) {
    this.plan = plan;
  }

  @Override
  public Iterator<InternalRow> call(Iterator<InternalRow> rows) {
    Batches batches = new Batches(plan, rows);
    TaskContext task = TaskContext.get();
    if (task != null) {
      TaskCompletionListener closeBatches = context -> batches.close();
      task.addTaskCompletionListener(closeBatches);
    }
    return batches;
  }

  /** The partition's output rows, made one batch at a time. */
  private static final class Batches implements Iterator<InternalRow>, AutoCloseable {
    private final InferencePlan plan;
    private final Iterator<InternalRow> input;
    private final ArrayDeque<InternalRow> ready = new ArrayDeque<>();
    private final List<InputBatch> batches = new ArrayList<>();
    /** The batch's rows in order (copies: Spark reuses the row objects it hands out). */
    private final List<InternalRow> pending = new ArrayList<>();
    /** Row copies kept from batch to batch, refilled in place (no new memory per row). */
    private final List<UnsafeRow> copies = new ArrayList<>();
    /** Whether each pending row fed the model; a kept invalid row gets null outputs. */
    private final List<Boolean> valid = new ArrayList<>();
    private ModelCache.Lease lease;
    private Predictor predictor;
    private RunResult result;
    /** The sizes a batch is padded up to (none without LiteRT models within the batch size). */
    private int[] paddedSizes;
    /** LiteRT's predictor of each size run so far and its result; null if the size has none. */
    private final Map<Integer, LiteRtRun> liteRt = new HashMap<>();
    private long rowNumber;
    private boolean closed;

    Batches(InferencePlan plan, Iterator<InternalRow> input) {
      this.plan = plan;
      this.input = input;
      for (int i = 0; i < plan.inputs().size(); i++) {
        batches.add(new InputBatch(plan.inputs().get(i), plan.inputColumnTypes().get(i),
            plan.batchSize()));
      }
    }

    @Override
    public boolean hasNext() {
      while (ready.isEmpty() && !closed) {
        if (!input.hasNext()) {
          close();
          break;
        }
        nextBatch();
      }
      return !ready.isEmpty();
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return ready.poll();
    }

    private void nextBatch() {
      pending.clear();
      valid.clear();
      batches.forEach(InputBatch::clear);
      int rows = 0;
      while (rows < plan.batchSize() && input.hasNext()) {
        InternalRow row = input.next();
        long number = rowNumber++;
        InvalidRowException refused = add(row);
        if (refused == null || keeps(refused, number)) {
          pending.add(hold(row, pending.size()));
          valid.add(refused == null);
        }
        rows += refused == null ? 1 : 0;
      }
      Object[][] outputs = rows == 0 ? new Object[0][] : run(rows);
      int at = 0;
      for (int i = 0; i < pending.size(); i++) {
        Object[] values = new Object[plan.outputs().size()];
        if (valid.get(i)) {
          for (int o = 0; o < outputs.length; o++) {
            values[o] = outputs[o][at];
          }
          at++;
        }
        ready.add(new JoinedRow(pending.get(i), new GenericInternalRow(values)));
      }
    }

    /**
     * A copy of the batch's {@code i}th row that stays valid until the next batch: the rows of
     * the previous batch are all handed out by then, and Spark reads a row before asking for the
     * next one.
     */
    private InternalRow hold(InternalRow row, int i) {
      if (!(row instanceof UnsafeRow unsafe)) {
        return row.copy();
      }
      if (i == copies.size()) {
        copies.add(unsafe.copy());
      } else {
        copies.get(i).copyFrom(unsafe);
      }
      return copies.get(i);
    }

    /** Adds the row to every input's batch; null, or why an input refused it (none added). */
    private InvalidRowException add(InternalRow row) {
      int added = 0;
      try {
        for (; added < batches.size(); added++) {
          batches.get(added).add(row, plan.inputColumnIndexes()[added]);
        }
        return null;
      } catch (InvalidRowException e) {
        for (int i = 0; i < added; i++) {
          batches.get(i).dropLast();
        }
        return e;
      }
    }

    /** Whether the plan keeps a row that an input refused; under ERROR, fails the task. */
    private boolean keeps(InvalidRowException refused, long number) {
      ColumnSpec spec = plan.inputs().stream()
          .filter(input -> input.key().equals(refused.inputKey())).findFirst().orElseThrow();
      return plan.invalidRows().keeps(() -> {
        TaskContext task = TaskContext.get();
        return InvalidRows.error("tfjni-spark: column '" + spec.column() + "' (input '"
            + spec.key() + "'), row " + number + " of partition "
            + (task == null ? "?" : task.partitionId()), refused.problem(), spec.describe(),
            "handleInvalid", List.of("'skip'", "'keep'"), "row");
      });
    }

    private Object[][] run(int rows) {
      if (predictor == null) {
        lease = ExecutorModels.CACHE.acquire(plan.cacheKey());
        predictor = lease.model().predictor(plan.signatureKey(), plan.inputKeys(),
            plan.outputKeys());
        result = predictor.newResult();
        paddedSizes = PaddedBatchSizes.forConverted(
            lease.model().liteRtBatchSizes(plan.signatureKey()), plan.batchSize());
      }
      LiteRtRun onLiteRt = paddedSizes.length == 0 ? null
          : liteRtAt(PaddedBatchSizes.paddedSize(rows, paddedSizes));
      int batchRows = onLiteRt == null ? rows : onLiteRt.batchSize();
      if (LOG.isLoggable(Level.DEBUG)) {
        TaskContext task = TaskContext.get();
        LOG.log(Level.DEBUG, "tfjni-spark: " + (task == null ? "a partition"
            : "partition " + task.partitionId() + " of stage " + task.stageId())
            + ", a batch of " + rows + " rows" + (batchRows == rows ? "" : ", padded to "
            + batchRows + ",") + " runs on " + (onLiteRt != null ? "LiteRT" : "TensorFlow"));
      }
      Tensor[] tensors = new Tensor[batches.size()];
      try {
        for (int i = 0; i < tensors.length; i++) {
          tensors[i] = batches.get(i).toTensor(batchRows);
        }
        RunResult result = onLiteRt != null
            ? onLiteRt.predictor().run(tensors, onLiteRt.result())
            : predictor.run(tensors, this.result);
        Object[][] outputs = new Object[plan.outputs().size()][];
        for (int o = 0; o < outputs.length; o++) {
          outputs[o] = OutputRows.of(result.get(o), batchRows, rows, plan.stringsAsBinary());
        }
        return outputs;
      } finally {
        for (Tensor tensor : tensors) {
          if (tensor != null) {
            tensor.close();
          }
        }
      }
    }

    /** LiteRT's run at this batch size, made the first time; null if the size has none. */
    private LiteRtRun liteRtAt(int batchSize) {
      if (!liteRt.containsKey(batchSize)) {
        Predictor made = lease.model().liteRtPredictor(plan.signatureKey(), plan.inputKeys(),
            plan.outputKeys(), batchSize).orElse(null);
        liteRt.put(batchSize, made == null ? null : LiteRtRun.of(made, batchSize));
      }
      return liteRt.get(batchSize);
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      batches.forEach(InputBatch::close);
      if (result != null) {
        result.close();
      }
      if (predictor != null) {
        predictor.close();
      }
      liteRt.values().stream().filter(Objects::nonNull).forEach(LiteRtRun::close);
      if (lease != null) {
        lease.close();
      }
    }
  }

  /** A LiteRT predictor of one batch size and the result its runs reuse. */
  private record LiteRtRun(Predictor predictor, RunResult result, int batchSize)
      implements AutoCloseable {
    static LiteRtRun of(Predictor predictor, int batchSize) {
      try {
        return new LiteRtRun(predictor, predictor.newResult(), batchSize);
      } catch (RuntimeException | Error e) {
        predictor.close();
        throw e;
      }
    }

    @Override
    public void close() {
      result.close();
      predictor.close();
    }
  }
}
