package io.tfjni.djl;

import ai.djl.MalformedModelException;
import io.tfjni.Predictor;
import io.tfjni.Signature;
import io.tfjni.batching.BatchingPredictor;
import io.tfjni.serving.ServingBatchingPredictor;
import io.tfjni.serving.VersionedModel;
import java.time.Duration;
import java.util.Map;

/**
 * The {@code Criteria} / {@code Model.load} options that make a model batch across callers:
 * {@code BatchMaxSize} (rows per run, an Integer or its text) turns it on, and
 * {@code BatchMaxDelayMicros} (default 0: a batch runs as soon as the model is free, so batches
 * grow only while it is busy) is how long the oldest waiting row may wait for batch-mates. With them, each {@code Predictor.predict} (from any number of threads, each with
 * its own predictor) queues its rows and waits; rows of concurrent calls run as one TensorFlow
 * run (tfjni's {@link BatchingPredictor}, with its defaults otherwise).
 */
final class ModelBatching {
  static final String MAX_SIZE = "BatchMaxSize";
  static final String MAX_DELAY_MICROS = "BatchMaxDelayMicros";

  private final int maxSize;
  private final Duration maxDelay;

  private ModelBatching(int maxSize, Duration maxDelay) {
    this.maxSize = maxSize;
    this.maxDelay = maxDelay;
  }

  /** The options' batching, or null when {@code BatchMaxSize} is not given. */
  static ModelBatching of(Map<String, ?> options) throws MalformedModelException {
    Object size = options.get(MAX_SIZE);
    Object delay = options.get(MAX_DELAY_MICROS);
    if (size == null) {
      if (delay != null) {
        throw new MalformedModelException(MAX_DELAY_MICROS + " needs " + MAX_SIZE
            + ", which turns batching on");
      }
      return null;
    }
    long rows = integer(MAX_SIZE, size);
    long micros = delay == null ? 0 : integer(MAX_DELAY_MICROS, delay);
    if (rows < 1 || rows > Integer.MAX_VALUE || micros < 0) {
      throw new MalformedModelException(MAX_SIZE + " must be 1 to " + Integer.MAX_VALUE + " and "
          + MAX_DELAY_MICROS + " at least 0, got " + size + " and " + micros);
    }
    return new ModelBatching((int) rows, Duration.ofNanos(Math.multiplyExact(micros, 1000)));
  }

  /**
   * A batching predictor over {@code predictor}, running the batch sizes of {@code bySize}
   * through their own predictors (LiteRT's).
   *
   * @throws MalformedModelException if its signature cannot be batched (which input or output)
   */
  BatchingPredictor over(Predictor predictor, Map<Integer, Predictor> bySize)
      throws MalformedModelException {
    try {
      return configure(BatchingPredictor.builder(predictor)).predictorsBySize(bySize).build();
    } catch (IllegalArgumentException e) {
      throw cannotBatch(e);
    }
  }

  /**
   * A batching predictor over a versioned model's signature, following its swaps.
   *
   * @throws MalformedModelException if the signature cannot be batched (which input or output)
   */
  ServingBatchingPredictor over(VersionedModel model, Signature signature)
      throws MalformedModelException {
    try {
      return model.batchingPredictor(signature.key(), signature.inputKeys(),
          signature.outputKeys(), this::configure);
    } catch (IllegalArgumentException e) {
      throw cannotBatch(e);
    }
  }

  /** The options' settings on a batching predictor's builder. */
  private BatchingPredictor.Builder configure(BatchingPredictor.Builder builder) {
    return builder.maxBatchSize(maxSize).maxDelay(maxDelay).queueCapacity(Math.max(1024, maxSize));
  }

  private static MalformedModelException cannotBatch(IllegalArgumentException e) {
    return new MalformedModelException(MAX_SIZE + " is set, but this model cannot be batched: "
        + e.getMessage(), e);
  }

  private static long integer(String option, Object value) throws MalformedModelException {
    if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    try {
      return Long.parseLong(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new MalformedModelException(option + " must be an integer, got '" + value + "'", e);
    }
  }
}
