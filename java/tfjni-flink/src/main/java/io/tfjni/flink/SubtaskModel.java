package io.tfjni.flink;

import io.tfjni.ModelCache;
import io.tfjni.Predictor;
import io.tfjni.RowSpec;
import io.tfjni.TensorSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One operator's hold on its model and the batcher its records go through: a lease on the JVM's
 * shared model, a predictor of the signature and a batcher of its own; or, for a base directory
 * of versions, a hold on the JVM's shared versioned model and its batching predictor. Every
 * function of this module opens one per subtask; the last one closed in the JVM closes the model.
 */
final class SubtaskModel implements AutoCloseable {
  /** The models of this JVM's operators: the last operator using a model closes it. */
  static final ModelCache MODELS = new ModelCache("tfjni-flink", Duration.ZERO);

  private final RecordBatcher batcher;
  private final List<RowSpec> inputs;
  private final List<RowSpec> outputs;
  /** Frees what the batcher runs on: the predictor and the lease, or the versioned model. */
  private final Runnable release;

  private SubtaskModel(RecordBatcher batcher, List<RowSpec> inputs, List<RowSpec> outputs,
      Runnable release) {
    this.batcher = batcher;
    this.inputs = inputs;
    this.outputs = outputs;
    this.release = release;
  }

  /**
   * Leases the model (loading it if no operator of this JVM has it), prepares the signature and
   * starts a batcher whose thread is named {@code threadName}; or holds the versioned model of a
   * base directory of versions, shared by the JVM's subtasks with its batcher.
   *
   * @throws RuntimeException the core's, if the model, the signature or its inputs and outputs
   *     cannot serve; nothing is left open then
   */
  static SubtaskModel open(ModelSettings settings, String threadName) {
    if (settings.versionPollInterval() != null) {
      SharedVersions.Held held = SharedVersions.acquire(settings);
      return new SubtaskModel(new VersionedBatcher(held.batcher, held.outputs),
          held.inputs, held.outputs, () -> SharedVersions.release(settings));
    }
    ModelCache.Lease lease = MODELS.acquire(settings.cacheKey());
    Predictor predictor = null;
    Map<Integer, Predictor> liteRt = Map.of();
    try {
      // No input keys given: every input of the signature, in the order of their keys.
      List<String> inputKeys = settings.inputKeys().isEmpty()
          ? lease.model().signature(settings.signatureKey()).inputKeys() : settings.inputKeys();
      predictor = lease.model().predictor(settings.signatureKey(), inputKeys,
          settings.outputKeys());
      // Batches of a converted size run on LiteRT (none unless the settings prefer it).
      liteRt = lease.model().liteRtPredictors(settings.signatureKey(), inputKeys,
          settings.outputKeys());
      OperatorBatcher batcher = new OperatorBatcher(predictor, liteRt, settings.maxBatchSize(),
          settings.maxDelay(), threadName);
      Predictor prepared = predictor;
      Map<Integer, Predictor> preparedLiteRt = liteRt;
      return new SubtaskModel(batcher, batcher.inputs(), batcher.outputs(), () -> {
        try {
          prepared.close();
          preparedLiteRt.values().forEach(Predictor::close);
        } finally {
          lease.close();
        }
      });
    } catch (RuntimeException e) {
      if (predictor != null) {
        predictor.close();
      }
      liteRt.values().forEach(Predictor::close);
      lease.close();
      throw e;
    }
  }

  /**
   * The rows of a signature's inputs or outputs, in their order, as this module passes them: a
   * record's row is a flattened array, so only the batch dimension may be unknown.
   *
   * @throws IllegalArgumentException naming the first that is not batch-major or has another
   *     unknown dimension (the core's row rule)
   */
  static List<RowSpec> arrayRows(List<TensorSpec> specs, String role) {
    List<RowSpec> rows = specs.stream().map(spec -> RowSpec.of(spec, role)).toList();
    rows.forEach(RowSpec::arrayLength);
    return rows;
  }

  /** The row of each input, in the order of the settings' input keys. */
  List<RowSpec> inputs() {
    return inputs;
  }

  /** The layout of each output's row, in the order the predictions hold them. */
  List<RowSpec> outputs() {
    return outputs;
  }

  /** Queues one record's rows; see {@link RecordBatcher#submit}. */
  CompletableFuture<Prediction> submit(Object[] rows) {
    return batcher.submit(rows);
  }

  /** Fails the records still queued, then frees the batcher and what it runs on. */
  @Override
  public void close() {
    try {
      batcher.close();
    } finally {
      release.run();
    }
  }
}
