package io.tfjni.flink;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The settings every function of this module takes: the model's tags, the signature, the outputs,
 * the batching, the thread counts and what an invalid record does.
 *
 * @param <B> the builder's own type, which every setter returns
 */
public abstract class FunctionBuilder<B extends FunctionBuilder<B>> {
  private final String modelPath;
  private List<String> tags = List.of("serve");
  private String signatureKey = "serving_default";
  /** The outputs to compute; empty for all. */
  private List<String> outputKeys = List.of();
  private int maxBatchSize = 32;
  private Duration maxDelay = Duration.ofMillis(5);
  private int intraOpThreads;
  private int interOpThreads;
  private int liteRtThreads;
  private InvalidRecords invalidRecords = InvalidRecords.ERROR;
  /** How often the base directory of versions is polled; null when the path is the model. */
  private Duration versionPollInterval;

  FunctionBuilder(String modelPath) {
    this.modelPath = Objects.requireNonNull(modelPath, "modelPath");
  }

  /** This builder, as its own type. */
  abstract B self();

  /**
   * The MetaGraph's tags; {@code serve} if not given.
   *
   * @param tags the tags
   * @return this builder
   */
  public B tags(String... tags) {
    this.tags = List.of(tags);
    return self();
  }

  /**
   * The signature to run; {@code serving_default} if not given.
   *
   * @param key the signature's key
   * @return this builder
   */
  public B signatureKey(String key) {
    this.signatureKey = Objects.requireNonNull(key, "key");
    return self();
  }

  /**
   * The outputs to compute; every output of the signature if not given.
   *
   * @param keys the outputs' keys
   * @return this builder
   */
  public B outputs(String... keys) {
    this.outputKeys = List.of(keys);
    return self();
  }

  /**
   * The most records one model run takes; 32 if not given.
   *
   * @param records 1 or more
   * @return this builder
   */
  public B maxBatchSize(int records) {
    if (records < 1) {
      throw new IllegalArgumentException("the batch size must be positive, got " + records);
    }
    this.maxBatchSize = records;
    return self();
  }

  /**
   * How long the oldest queued record waits for more before its batch runs; 5 ms if not given.
   *
   * @param delay zero or more
   * @return this builder
   */
  public B maxDelay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("the delay cannot be negative, got " + delay);
    }
    this.maxDelay = delay;
    return self();
  }

  /**
   * The model's intra-op threads, under the core's {@code ThreadPools} rule; 0 if not given.
   *
   * @param threads 0 or more
   * @return this builder
   */
  public B intraOpThreads(int threads) {
    this.intraOpThreads = threads;
    return self();
  }

  /**
   * The model's inter-op threads, under the core's {@code ThreadPools} rule: -1 runs every op
   * on the batcher's thread, N &gt; 0 gives the model a pool of its own; 0 if not given.
   *
   * @param threads -1, 0 or more
   * @return this builder
   */
  public B interOpThreads(int threads) {
    this.interOpThreads = threads;
    return self();
  }

  /**
   * Runs the LiteRT models {@code tfjni convert} wrote beside the SavedModel, each on this many
   * CPU threads: a batch of a converted size runs on LiteRT, as does a smaller one, padded with
   * rows of zeros up to the next converted size; any other on TensorFlow (the core's
   * {@code SessionOptions.preferLiteRt} and {@code SavedModel.liteRtPredictors}; LiteRT serves
   * when the function feeds every input and computes every output in key order, its default).
   * 0, if not given: TensorFlow only. docs/LITERT.md has more.
   *
   * @param threads 0 or more
   * @return this builder
   * @throws IllegalArgumentException if {@code threads} is negative
   */
  public B preferLiteRt(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("LiteRT thread count must be >= 1, or 0 for TensorFlow"
          + " only, got " + threads);
    }
    this.liteRtThreads = threads;
    return self();
  }

  /**
   * What a record that cannot feed the model does; {@link InvalidRecords#ERROR} if not given.
   * Each function says which policies it takes.
   *
   * @param policy fail the job, skip the record, or keep it with a null prediction
   * @return this builder
   */
  public B invalidRecords(InvalidRecords policy) {
    this.invalidRecords = Objects.requireNonNull(policy, "policy");
    return self();
  }

  /**
   * Serves the newest complete version under the path, a base directory of numbered version
   * directories, polled every {@code interval} for new ones (a model provider's option).
   */
  B latestVersion(Duration interval) {
    this.versionPollInterval = Objects.requireNonNull(interval, "interval");
    return self();
  }

  /**
   * The settings given, with these inputs.
   *
   * @throws IllegalArgumentException if the function does not take the invalid-record policy
   */
  ModelSettings settings(List<String> inputKeys, List<InvalidRecords> policiesTaken,
      String function) {
    if (!policiesTaken.contains(invalidRecords)) {
      throw new IllegalArgumentException(function + " takes invalidRecords " + policiesTaken
          + ", not " + invalidRecords);
    }
    return new ModelSettings(modelPath, tags, signatureKey, List.copyOf(inputKeys), outputKeys,
        maxBatchSize, maxDelay, intraOpThreads, interOpThreads, liteRtThreads, invalidRecords,
        versionPollInterval);
  }
}
