package io.tfjni.batching;

import io.tfjni.internal.PackedStrings;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * One caller's request in a {@link BatchingPredictor}'s queue: a copy of its rows (per input, the
 * elements' bytes or, for a STRING input, its packed strings; so the caller may close its tensors
 * at once), how many rows that is, the per-row shape every batch-mate must share, when it was
 * queued, and the future that answers it.
 */
final class QueuedRows {
  /** Per fixed-size input, its rows' bytes in native order; null for a STRING input. */
  final byte[][] inputBytes;
  /** Per STRING input, its rows' elements; null for a fixed-size input. */
  final PackedStrings[] inputStrings;
  final int rows;
  /** Every input's dimensions after the batch dimension, one after another. */
  private final long[] rowShape;
  final long queuedNanos;
  final CompletableFuture<BatchedResult> answer = new CompletableFuture<>();

  /** Rows whose input data {@link BatchLayout} fills in before they are queued. */
  QueuedRows(int inputs, int rows, long[] rowShape) {
    this.inputBytes = new byte[inputs][];
    this.inputStrings = new PackedStrings[inputs];
    this.rows = rows;
    this.rowShape = rowShape;
    this.queuedNanos = System.nanoTime();
  }

  /** Whether these rows can be concatenated with {@code other}'s in one batch. */
  boolean fitsWith(QueuedRows other) {
    return Arrays.equals(rowShape, other.rowShape);
  }

  /** Each input's dimensions after the batch dimension. */
  long[] rowDimensions(int input, int[] ranks) {
    int start = 0;
    for (int i = 0; i < input; i++) {
      start += ranks[i] - 1;
    }
    return Arrays.copyOfRange(rowShape, start, start + ranks[input] - 1);
  }

  /** Fails this request unless it was already answered (a timeout, a cancel). */
  void fail(Throwable cause) {
    answer.completeExceptionally(cause);
  }

  /** Answers this request; a caller who gave up meanwhile gets nothing, so its tensors are freed. */
  void deliver(BatchedResult result) {
    if (!answer.complete(result)) {
      result.close();
    }
  }
}
