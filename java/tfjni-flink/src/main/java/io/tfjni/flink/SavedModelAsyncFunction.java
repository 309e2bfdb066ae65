package io.tfjni.flink;

import io.tfjni.ModelCache;
import io.tfjni.Predictor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * Maps records to predictions of a SavedModel signature, for {@code AsyncDataStream}: the records
 * in flight (up to the async operator's capacity) are batched into shared runs. Every operator of
 * a TaskManager JVM shares one loaded model, closed with the last operator that uses it.
 *
 * <pre>{@code
 * DataStream<Scored> scored = AsyncDataStream.unorderedWait(digits,
 *     SavedModelAsyncFunction.<Digit>builder("/models/digits")
 *         .input("images", "pixels", Digit::pixels)
 *         .build((digit, prediction) -> new Scored(digit.id, prediction.floats("output_0"))),
 *     30, TimeUnit.SECONDS, 64).returns(Scored.class);
 * }</pre>
 */
public final class SavedModelAsyncFunction<IN, OUT> extends RichAsyncFunction<IN, OUT> {
  private static final long serialVersionUID = 1;
  /** A record shown in a message is cut to this many characters. */
  private static final int RECORD_CHARS = 200;

  /** The models of this JVM's operators: the last operator using a model closes it. */
  static final ModelCache MODELS = new ModelCache("tfjni-flink", Duration.ZERO);

  /** What the function runs and how. */
  private final Builder<IN> settings;
  /** Makes each output from a record and its prediction. */
  private final PredictionMapper<IN, OUT> mapper;

  private transient ModelCache.Lease lease;
  private transient Predictor predictor;
  private transient List<RowLayout> inputLayouts;
  private transient RecordBatcher batcher;
  private transient long recordNumber;
  private transient int subtask;

  private SavedModelAsyncFunction(Builder<IN> settings, PredictionMapper<IN, OUT> mapper) {
    this.settings = settings;
    this.mapper = mapper;
  }

  /**
   * A builder of a function over a SavedModel.
   *
   * @param <IN> the records' type
   * @param modelPath the SavedModel's directory, as the TaskManagers see it
   * @return a builder with the defaults
   */
  public static <IN> Builder<IN> builder(String modelPath) {
    return new Builder<>(modelPath);
  }

  @Override
  public void open(OpenContext context) {
    subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    lease = MODELS.acquire(new ModelCache.Key(Path.of(settings.modelPath), settings.tags,
        settings.intraOpThreads, settings.interOpThreads));
    try {
      List<String> inputKeys = settings.inputs.stream().map(InputField::inputKey).toList();
      predictor = lease.model().predictor(settings.signatureKey, inputKeys, settings.outputKeys);
      OperatorBatcher operatorBatcher = new OperatorBatcher(predictor, settings.maxBatchSize,
          settings.maxDelay, "tfjni-batching " + getRuntimeContext().getTaskInfo()
              .getTaskNameWithSubtasks());
      batcher = operatorBatcher;
      inputLayouts = operatorBatcher.inputs();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public void asyncInvoke(IN record, ResultFuture<OUT> resultFuture) {
    long number = recordNumber++;
    Object[] rows = new Object[settings.inputs.size()];
    for (int i = 0; i < rows.length; i++) {
      InputField<IN> field = settings.inputs.get(i);
      Object value = record == null ? null : field.reader().read(record);
      String problem = record == null ? "belongs to a null record"
          : inputLayouts.get(i).problemWith(value);
      if (problem != null) {
        if (settings.invalidRecords == InvalidRecords.SKIP) {
          resultFuture.complete(Collections.emptyList());
        } else {
          resultFuture.completeExceptionally(invalid(field, i, number, record, problem));
        }
        return;
      }
      rows[i] = value;
    }
    batcher.submit(rows).whenComplete((prediction, failure) -> {
      if (failure != null) {
        resultFuture.completeExceptionally(failure);
        return;
      }
      try {
        resultFuture.complete(Collections.singletonList(mapper.map(record, prediction)));
      } catch (RuntimeException e) {
        resultFuture.completeExceptionally(e);
      }
    });
  }

  private IllegalArgumentException invalid(InputField<IN> field, int input, long number,
      IN record, String problem) {
    String shown = String.valueOf(record);
    if (shown.length() > RECORD_CHARS) {
      shown = shown.substring(0, RECORD_CHARS) + "...";
    }
    return new IllegalArgumentException("tfjni-flink: field '" + field.name() + "' (input '"
        + field.inputKey() + "') of record " + number + " of subtask " + subtask + " (" + shown
        + ") " + problem + "; expected " + inputLayouts.get(input).describe()
        + ". Set invalidRecords to SKIP to drop such records");
  }

  @Override
  public void close() {
    if (batcher != null) {
      batcher.close();
      batcher = null;
    }
    if (predictor != null) {
      predictor.close();
      predictor = null;
    }
    if (lease != null) {
      lease.close();
      lease = null;
    }
  }

  /** One signature input and the record field that feeds it. */
  record InputField<IN>(String inputKey, String name, FieldReader<IN> reader)
      implements java.io.Serializable {}

  /** The function's settings; serializable, as Flink ships the function to its TaskManagers. */
  public static final class Builder<IN> implements java.io.Serializable {
    private static final long serialVersionUID = 1;

    /** The SavedModel's directory. */
    private final String modelPath;
    /** The MetaGraph's tags. */
    private List<String> tags = List.of("serve");
    /** The signature to run. */
    private String signatureKey = "serving_default";
    /** Each signature input and the field that feeds it. */
    private final List<InputField<IN>> inputs = new ArrayList<>();
    /** The outputs to compute; empty for all. */
    private List<String> outputKeys = List.of();
    /** The most records one run takes. */
    private int maxBatchSize = 32;
    /** How long the oldest queued record waits for more. */
    private Duration maxDelay = Duration.ofMillis(5);
    /** The model's intra-op threads. */
    private int intraOpThreads;
    /** The model's inter-op threads. */
    private int interOpThreads;
    /** What an invalid record does. */
    private InvalidRecords invalidRecords = InvalidRecords.ERROR;

    private Builder(String modelPath) {
      this.modelPath = Objects.requireNonNull(modelPath, "modelPath");
    }

    /**
     * The MetaGraph's tags; {@code serve} if not given.
     *
     * @param tags the tags
     * @return this builder
     */
    public Builder<IN> tags(String... tags) {
      this.tags = List.of(tags);
      return this;
    }

    /**
     * The signature to run; {@code serving_default} if not given.
     *
     * @param key the signature's key
     * @return this builder
     */
    public Builder<IN> signatureKey(String key) {
      this.signatureKey = Objects.requireNonNull(key, "key");
      return this;
    }

    /**
     * Feeds signature input {@code inputKey} from the record field {@code name} (the name is for
     * messages), read by {@code reader}. Every input of the signature must be fed.
     *
     * @param inputKey the signature input's key
     * @param name the record field's name, for messages
     * @param reader reads the field's row from a record
     * @return this builder
     */
    public Builder<IN> input(String inputKey, String name, FieldReader<IN> reader) {
      inputs.add(new InputField<>(Objects.requireNonNull(inputKey, "inputKey"),
          Objects.requireNonNull(name, "name"), Objects.requireNonNull(reader, "reader")));
      return this;
    }

    /**
     * The outputs to compute; every output of the signature if not given.
     *
     * @param keys the outputs' keys
     * @return this builder
     */
    public Builder<IN> outputs(String... keys) {
      this.outputKeys = List.of(keys);
      return this;
    }

    /**
     * The most records one model run takes; 32 if not given.
     *
     * @param records 1 or more
     * @return this builder
     */
    public Builder<IN> maxBatchSize(int records) {
      if (records < 1) {
        throw new IllegalArgumentException("the batch size must be positive, got " + records);
      }
      this.maxBatchSize = records;
      return this;
    }

    /**
     * How long the oldest queued record waits for more before its batch runs; 5 ms if not given.
     *
     * @param delay zero or more
     * @return this builder
     */
    public Builder<IN> maxDelay(Duration delay) {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("the delay cannot be negative, got " + delay);
      }
      this.maxDelay = delay;
      return this;
    }

    /**
     * The model's intra-op threads, under the core's {@code ThreadPools} rule; 0 if not given.
     *
     * @param threads 0 or more
     * @return this builder
     */
    public Builder<IN> intraOpThreads(int threads) {
      this.intraOpThreads = threads;
      return this;
    }

    /**
     * The model's inter-op threads, under the core's {@code ThreadPools} rule: -1 runs every op
     * on the batcher's thread, N &gt; 0 gives the model a pool of its own; 0 if not given.
     *
     * @param threads -1, 0 or more
     * @return this builder
     */
    public Builder<IN> interOpThreads(int threads) {
      this.interOpThreads = threads;
      return this;
    }

    /**
     * What a record that cannot feed the model does; {@link InvalidRecords#ERROR} if not given.
     *
     * @param policy fail the job, or skip the record
     * @return this builder
     */
    public Builder<IN> invalidRecords(InvalidRecords policy) {
      this.invalidRecords = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * The function, making each output with {@code mapper}.
     *
     * @param <OUT> the outputs' type
     * @param mapper makes each output from a record and its prediction
     * @return the function, for {@code AsyncDataStream}
     * @throws IllegalStateException if no input was given
     */
    public <OUT> SavedModelAsyncFunction<IN, OUT> build(PredictionMapper<IN, OUT> mapper) {
      if (inputs.isEmpty()) {
        throw new IllegalStateException("no input: give each signature input with input(...)");
      }
      return new SavedModelAsyncFunction<>(copy(), Objects.requireNonNull(mapper, "mapper"));
    }

    /** A copy, so that changing the builder later does not change a built function. */
    private Builder<IN> copy() {
      Builder<IN> copy = new Builder<>(modelPath);
      copy.tags = tags;
      copy.signatureKey = signatureKey;
      copy.inputs.addAll(inputs);
      copy.outputKeys = outputKeys;
      copy.maxBatchSize = maxBatchSize;
      copy.maxDelay = maxDelay;
      copy.intraOpThreads = intraOpThreads;
      copy.interOpThreads = interOpThreads;
      copy.invalidRecords = invalidRecords;
      return copy;
    }
  }
}
