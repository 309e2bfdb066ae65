package io.tfjni.flink;

import io.tfjni.ModelCache;
import io.tfjni.Predictor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One operator's hold on its model: a lease on the JVM's shared model, a predictor of the
 * signature and the batcher its records go through. Every function of this module opens one per
 * subtask; the last one closed in the JVM closes the model.
 */
final class SubtaskModel implements AutoCloseable {
  /** The models of this JVM's operators: the last operator using a model closes it. */
  static final ModelCache MODELS = new ModelCache("tfjni-flink", Duration.ZERO);

  private final ModelCache.Lease lease;
  private final Predictor predictor;
  private final OperatorBatcher batcher;

  private SubtaskModel(ModelCache.Lease lease, Predictor predictor, OperatorBatcher batcher) {
    this.lease = lease;
    this.predictor = predictor;
    this.batcher = batcher;
  }

  /**
   * Leases the model (loading it if no operator of this JVM has it), prepares the signature and
   * starts a batcher whose thread is named {@code threadName}.
   *
   * @throws RuntimeException the core's, if the model, the signature or its inputs and outputs
   *     cannot serve; nothing is left open then
   */
  static SubtaskModel open(ModelSettings settings, String threadName) {
    ModelCache.Lease lease = MODELS.acquire(settings.cacheKey());
    Predictor predictor = null;
    try {
      // No input keys given: every input of the signature, in the order of their keys.
      List<String> inputKeys = settings.inputKeys().isEmpty()
          ? lease.model().signature(settings.signatureKey()).inputKeys() : settings.inputKeys();
      predictor = lease.model().predictor(settings.signatureKey(), inputKeys,
          settings.outputKeys());
      return new SubtaskModel(lease, predictor,
          new OperatorBatcher(predictor, settings.maxBatchSize(), settings.maxDelay(),
              threadName));
    } catch (RuntimeException e) {
      if (predictor != null) {
        predictor.close();
      }
      lease.close();
      throw e;
    }
  }

  /** The layout of each input's row, in the order of the settings' input keys. */
  List<RowLayout> inputs() {
    return batcher.inputs();
  }

  /** The layout of each output's row, in the order the predictions hold them. */
  List<RowLayout> outputs() {
    return batcher.outputs();
  }

  /** Queues one record's rows; see {@link RecordBatcher#submit}. */
  CompletableFuture<Prediction> submit(Object[] rows) {
    return batcher.submit(rows);
  }

  /** Fails the records still queued, then frees the batcher, the predictor and the lease. */
  @Override
  public void close() {
    try {
      batcher.close();
    } finally {
      try {
        predictor.close();
      } finally {
        lease.close();
      }
    }
  }
}
