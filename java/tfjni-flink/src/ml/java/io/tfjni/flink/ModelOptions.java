package io.tfjni.flink;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The options of {@code CREATE MODEL ... WITH ('provider' = 'tensorflow', ...)}, and the
 * builder settings they stand for (the defaults are {@link FunctionBuilder}'s).
 */
final class ModelOptions {
  static final ConfigOption<String> PATH = ConfigOptions.key("path").stringType()
      .noDefaultValue().withDescription("The SavedModel's directory, as the client and the "
          + "TaskManagers see it.");
  static final ConfigOption<String> SIGNATURE = ConfigOptions.key("signature").stringType()
      .defaultValue("serving_default").withDescription("The signature to run.");
  static final ConfigOption<List<String>> TAGS = ConfigOptions.key("tags").stringType().asList()
      .defaultValues("serve").withDescription("The MetaGraph's tags, separated by ';'.");
  static final ConfigOption<List<String>> INPUTS = ConfigOptions.key("inputs").stringType()
      .asList().noDefaultValue().withDescription("The signature input each INPUT column feeds, "
          + "in the columns' order, separated by ';'; the columns' names if not given.");
  static final ConfigOption<List<String>> OUTPUTS = ConfigOptions.key("outputs").stringType()
      .asList().noDefaultValue().withDescription("The signature output each OUTPUT column is, "
          + "in the columns' order, separated by ';'; the columns' names if not given.");
  static final ConfigOption<Integer> BATCH_SIZE = ConfigOptions.key("batch-size").intType()
      .defaultValue(32).withDescription("The most rows one model run takes (async only).");
  static final ConfigOption<Duration> BATCH_DELAY = ConfigOptions.key("batch-delay")
      .durationType().defaultValue(Duration.ofMillis(5)).withDescription("How long the oldest "
          + "queued row waits for more before its batch runs (async only).");
  static final ConfigOption<Integer> INTRA_OP_THREADS = ConfigOptions.key("intra-op-threads")
      .intType().defaultValue(0).withDescription("The model's intra-op threads.");
  static final ConfigOption<Integer> INTER_OP_THREADS = ConfigOptions.key("inter-op-threads")
      .intType().defaultValue(0).withDescription("The model's inter-op threads.");
  static final ConfigOption<Integer> LITERT_THREADS = ConfigOptions.key("litert-threads")
      .intType().defaultValue(0).withDescription("Each LiteRT model converted beside the "
          + "SavedModel (tfjni convert) runs on this many CPU threads, and a batch of a "
          + "converted size runs on it; 0: TensorFlow only.");
  static final ConfigOption<InvalidRecords> INVALID_RECORDS = ConfigOptions
      .key("invalid-records").enumType(InvalidRecords.class).defaultValue(InvalidRecords.ERROR)
      .withDescription("A row that cannot feed the model: ERROR fails the job, SKIP gives it "
          + "no output row, KEEP gives it NULL outputs.");

  static final ConfigOption<String> VERSIONS = ConfigOptions.key("versions").stringType()
      .noDefaultValue().withDescription("'latest': the path is a base directory of numbered "
          + "version directories, and the newest complete version serves, new ones swapped in "
          + "as they appear. Not given: the path is the SavedModel.");
  static final ConfigOption<Duration> VERSION_POLL_INTERVAL = ConfigOptions
      .key("version-poll-interval").durationType().defaultValue(Duration.ofSeconds(1))
      .withDescription("How often the base directory is polled for new versions.");

  /** The options a model must have. */
  static final Set<ConfigOption<?>> REQUIRED = Set.of(PATH);
  /** The options a model may have. */
  static final Set<ConfigOption<?>> OPTIONAL = Set.of(SIGNATURE, TAGS, INPUTS, OUTPUTS,
      BATCH_SIZE, BATCH_DELAY, INTRA_OP_THREADS, INTER_OP_THREADS, LITERT_THREADS,
      INVALID_RECORDS, VERSIONS, VERSION_POLL_INTERVAL);

  private ModelOptions() {}

  /**
   * A builder with the model's settings but its inputs and outputs: over every input and output
   * of the signature until they are given.
   *
   * @throws IllegalArgumentException for a batch size below 1, a negative delay or versions other
   *     than 'latest'
   */
  static SqlFunctionBuilder builder(ReadableConfig options) {
    SqlFunctionBuilder builder = SqlFunctionBuilder.model(options.get(PATH));
    options.getOptional(VERSIONS).ifPresent(versions -> {
      if (!versions.equals("latest")) {
        throw new IllegalArgumentException("the option 'versions' is '" + versions
            + "': it takes 'latest' (or is left out for a path that is the SavedModel)");
      }
      builder.latestVersion(options.get(VERSION_POLL_INTERVAL));
    });
    return builder
        .tags(options.get(TAGS).toArray(new String[0]))
        .signatureKey(options.get(SIGNATURE))
        .maxBatchSize(options.get(BATCH_SIZE))
        .maxDelay(options.get(BATCH_DELAY))
        .intraOpThreads(options.get(INTRA_OP_THREADS))
        .interOpThreads(options.get(INTER_OP_THREADS))
        .preferLiteRt(options.get(LITERT_THREADS))
        .invalidRecords(options.get(INVALID_RECORDS));
  }
}
