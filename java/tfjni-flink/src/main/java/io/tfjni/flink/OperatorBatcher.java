package io.tfjni.flink;

import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.Tensor;
import java.lang.reflect.Array;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Batches one operator's records: a thread of its own takes the queued records once {@code
 * maxBatchSize} are waiting or the oldest has waited {@code maxDelay}, concatenates their rows
 * into one tensor per input, runs the predictor once and slices every output back into each
 * record's prediction. The predictor is borrowed, not owned.
 */
final class OperatorBatcher implements RecordBatcher {
  private record Queued(Object[] rows, long queuedNanos, CompletableFuture<Prediction> answer) {}

  private final Predictor predictor;
  private final List<RowLayout> inputs;
  private final List<RowLayout> outputs;
  private final int maxBatchSize;
  private final long maxDelayNanos;
  private final RunResult result;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Queued> queue = new ArrayDeque<>();
  private final Thread thread;
  private boolean closed;
  private volatile long batchesRun;

  OperatorBatcher(Predictor predictor, List<RowLayout> inputs, List<RowLayout> outputs,
      int maxBatchSize, Duration maxDelay, String threadName) {
    this.predictor = predictor;
    this.inputs = inputs;
    this.outputs = outputs;
    this.maxBatchSize = maxBatchSize;
    this.maxDelayNanos = maxDelay.toNanos();
    this.result = predictor.newResult();
    this.thread = new Thread(this::runBatches, threadName);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public CompletableFuture<Prediction> submit(Object[] rows) {
    CompletableFuture<Prediction> answer = new CompletableFuture<>();
    lock.lock();
    try {
      if (closed) {
        answer.completeExceptionally(new IllegalStateException("the batcher is closed"));
      } else {
        queue.add(new Queued(rows, System.nanoTime(), answer));
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
    return answer;
  }

  private void runBatches() {
    for (List<Queued> batch; (batch = nextBatch()) != null; ) {
      run(batch);
    }
  }

  /** Waits for a full batch or the oldest record's delay; null once closed. */
  private List<Queued> nextBatch() {
    lock.lock();
    try {
      while (!closed) {
        if (queue.isEmpty()) {
          changed.awaitUninterruptibly();
          continue;
        }
        long waitNanos = queue.peek().queuedNanos() + maxDelayNanos - System.nanoTime();
        if (queue.size() >= maxBatchSize || waitNanos <= 0) {
          List<Queued> batch = new ArrayList<>(Math.min(queue.size(), maxBatchSize));
          while (batch.size() < maxBatchSize && !queue.isEmpty()) {
            batch.add(queue.poll());
          }
          return batch;
        }
        try {
          changed.awaitNanos(waitNanos);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return null;
        }
      }
      return null;
    } finally {
      lock.unlock();
    }
  }

  private void run(List<Queued> batch) {
    int n = batch.size();
    Tensor[] tensors = new Tensor[inputs.size()];
    try {
      for (int i = 0; i < tensors.length; i++) {
        tensors[i] = concatenate(batch, i, n);
      }
      batchesRun++;  // only this batcher's thread writes it
      predictor.run(tensors, result);
      List<Object> columns = new ArrayList<>(outputs.size());
      for (int o = 0; o < outputs.size(); o++) {
        columns.add(readAll(result.get(o), outputs.get(o), n));
      }
      for (int r = 0; r < n; r++) {
        Map<String, Object> rows = new LinkedHashMap<>();
        for (int o = 0; o < outputs.size(); o++) {
          RowLayout layout = outputs.get(o);
          Object row = Array.newInstance(layout.dataType().javaComponent(), layout.elements());
          System.arraycopy(columns.get(o), r * layout.elements(), row, 0, layout.elements());
          rows.put(layout.key(), row);
        }
        batch.get(r).answer().complete(new Prediction(rows));
      }
    } catch (RuntimeException e) {
      batch.forEach(queued -> queued.answer().completeExceptionally(e));
    } finally {
      for (Tensor tensor : tensors) {
        if (tensor != null) {
          tensor.close();
        }
      }
    }
  }

  /** How many model runs the batcher has made: records run / runs is the mean batch size. */
  long batchesRun() {
    return batchesRun;
  }

  /** One tensor of every record's row of input {@code i}. */
  private Tensor concatenate(List<Queued> batch, int i, int n) {
    RowLayout layout = inputs.get(i);
    Object all = Array.newInstance(layout.dataType().javaComponent(), n * layout.elements());
    for (int r = 0; r < n; r++) {
      System.arraycopy(batch.get(r).rows()[i], 0, all, r * layout.elements(), layout.elements());
    }
    return Tensor.of(layout.dataType(), all, batchShape(layout, n));
  }

  private static long[] batchShape(RowLayout layout, int n) {
    long[] shape = new long[layout.rowShape().length + 1];
    shape[0] = n;
    System.arraycopy(layout.rowShape(), 0, shape, 1, layout.rowShape().length);
    return shape;
  }

  private static Object readAll(Tensor output, RowLayout layout, int n) {
    Object all = Array.newInstance(layout.dataType().javaComponent(), n * layout.elements());
    output.copyTo(all);  // refuses an output whose size is not n rows
    return all;
  }

  @Override
  public void close() {
    List<Queued> left;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      changed.signalAll();
      left = new ArrayList<>(queue);
      queue.clear();
    } finally {
      lock.unlock();
    }
    // The batch being run finishes before its result is freed; Flink interrupts the thread that
    // closes a cancelled operator, so the wait goes on through interrupts.
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    left.forEach(queued -> queued.answer().completeExceptionally(
        new IllegalStateException("the operator closed before the record ran")));
    result.close();
  }
}
