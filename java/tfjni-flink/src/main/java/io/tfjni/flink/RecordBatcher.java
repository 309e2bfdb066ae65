package io.tfjni.flink;

import java.util.concurrent.CompletableFuture;

/**
 * Where the function's records go to share model runs: one record's rows in, its prediction
 * out. {@link OperatorBatcher}, over tfjni's batching predictor, sits behind it.
 */
interface RecordBatcher extends AutoCloseable {
  /**
   * Queues one record: its row of every input, in the predictor's input order, each a primitive
   * array (or {@code String[]}, {@code byte[][]}) that the core checks once ({@link
   * io.tfjni.RowSpec#checkArray}). The future completes with the record's outputs, or fails with
   * its batch's exception, with {@link io.tfjni.InvalidRowException} if a row does not fit its
   * input, or with {@link IllegalStateException} once the batcher is closed; it never throws.
   */
  CompletableFuture<Prediction> submit(Object[] rows);

  /** Fails the records still queued and frees what the batcher holds. */
  @Override
  void close();
}
