package io.tfjni.flink;

import io.tfjni.DataType;
import io.tfjni.InvalidRowException;
import io.tfjni.RowSpec;
import java.util.ArrayList;
import java.util.Arrays;
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
  /** The invalid-record policies the function takes. */
  private static final List<InvalidRecords> POLICIES =
      List.of(InvalidRecords.ERROR, InvalidRecords.SKIP);

  /** What the function runs and how. */
  private final ModelSettings settings;
  /** Each signature input and the field that feeds it, in the order of the settings' inputs. */
  private final List<InputField<IN>> inputs;
  /** Makes each output from a record and its prediction. */
  private final PredictionMapper<IN, OUT> mapper;

  private transient SubtaskModel model;
  private transient long recordNumber;
  private transient int subtask;

  private SavedModelAsyncFunction(ModelSettings settings, List<InputField<IN>> inputs,
      PredictionMapper<IN, OUT> mapper) {
    this.settings = settings;
    this.inputs = inputs;
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
    model = SubtaskModel.open(settings,
        "tfjni-batching " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks());
  }

  @Override
  public void asyncInvoke(IN record, ResultFuture<OUT> resultFuture) {
    long number = recordNumber++;
    Object[] rows = new Object[inputs.size()];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = record == null ? null : inputs.get(i).reader().read(record);
    }
    // The core checks the rows, once, as it queues them: a row that does not fit fails the future.
    Completions.relay(model.submit(rows), prediction ->
        resultFuture.complete(Collections.singletonList(mapper.map(record, prediction))),
        failure -> {
          if (!(failure instanceof InvalidRowException refused)) {
            resultFuture.completeExceptionally(failure);
          } else if (settings.invalidRecords() == InvalidRecords.SKIP) {
            resultFuture.complete(Collections.emptyList());
          } else {
            resultFuture.completeExceptionally(error(record, number, refused));
          }
        });
  }

  /** The exception of a record under ERROR, naming the field, the record and the setting. */
  private IllegalArgumentException error(IN record, long number, InvalidRowException refused) {
    int i = 0;
    while (!inputs.get(i).inputKey().equals(refused.inputKey())) {
      i++;
    }
    RowSpec row = model.inputs().get(i);
    String array = row.dataType() == DataType.STRING ? "String[] or byte[][]"
        : row.dataType().javaComponent().arrayType().getSimpleName();
    String expected = array + " of " + row.arrayLength() + " elements (" + row.dataType() + " "
        + Arrays.toString(row.shape()) + " per record)";
    return InvalidRecordError.of("field '" + inputs.get(i).name() + "'", refused.inputKey(),
        "record", number, subtask, String.valueOf(record),
        record == null ? "belongs to a null record" : refused.problem(), expected,
        "invalidRecords", POLICIES);
  }

  @Override
  public void close() {
    if (model != null) {
      model.close();
      model = null;
    }
  }

  /** One signature input and the record field that feeds it. */
  record InputField<IN>(String inputKey, String name, FieldReader<IN> reader)
      implements java.io.Serializable {}

  /**
   * The function's settings: each signature input's field, and those every function of this
   * module takes ({@link FunctionBuilder}). It takes {@link InvalidRecords#ERROR} and
   * {@link InvalidRecords#SKIP}.
   *
   * @param <IN> the records' type
   */
  public static final class Builder<IN> extends FunctionBuilder<Builder<IN>> {
    /** Each signature input and the field that feeds it. */
    private final List<InputField<IN>> inputs = new ArrayList<>();

    private Builder(String modelPath) {
      super(modelPath);
    }

    @Override
    Builder<IN> self() {
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
     * The function, making each output with {@code mapper}; later changes to this builder do not
     * change it.
     *
     * @param <OUT> the outputs' type
     * @param mapper makes each output from a record and its prediction
     * @return the function, for {@code AsyncDataStream}
     * @throws IllegalStateException if no input was given
     * @throws IllegalArgumentException if the invalid-record policy is {@code KEEP}
     */
    public <OUT> SavedModelAsyncFunction<IN, OUT> build(PredictionMapper<IN, OUT> mapper) {
      if (inputs.isEmpty()) {
        throw new IllegalStateException("no input: give each signature input with input(...)");
      }
      ModelSettings settings = settings(inputs.stream().map(InputField::inputKey).toList(),
          POLICIES, "SavedModelAsyncFunction");
      return new SavedModelAsyncFunction<>(settings, List.copyOf(inputs),
          Objects.requireNonNull(mapper, "mapper"));
    }
  }
}
