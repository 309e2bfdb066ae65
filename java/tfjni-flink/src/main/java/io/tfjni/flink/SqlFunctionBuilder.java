package io.tfjni.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds the SQL functions over a SavedModel: each signature input is fed by one argument of the
 * call, in the order given, and the settings every function takes ({@link FunctionBuilder}).
 */
public final class SqlFunctionBuilder extends FunctionBuilder<SqlFunctionBuilder> {
  /** The invalid-row policies a scalar function takes: it cannot leave a row out. */
  private static final List<InvalidRecords> SCALAR_POLICIES =
      List.of(InvalidRecords.ERROR, InvalidRecords.KEEP);
  /** Each signature input's key, in argument order. */
  private final List<String> inputKeys = new ArrayList<>();
  /** Each argument's column, for messages. */
  private final List<String> columns = new ArrayList<>();

  private SqlFunctionBuilder(String modelPath) {
    super(modelPath);
  }

  /**
   * A builder of SQL functions over a SavedModel.
   *
   * @param modelPath the SavedModel's directory, as the client (which reads the signature to
   *     type the calls) and the TaskManagers see it
   * @return a builder with the defaults
   */
  public static SqlFunctionBuilder model(String modelPath) {
    return new SqlFunctionBuilder(modelPath);
  }

  @Override
  SqlFunctionBuilder self() {
    return this;
  }

  /**
   * Feeds signature input {@code inputKey} from the call's next argument, a column named
   * {@code column} in messages. Every input of the signature must be fed.
   *
   * @param inputKey the signature input's key
   * @param column the argument's column, for messages
   * @return this builder
   */
  public SqlFunctionBuilder input(String inputKey, String column) {
    inputKeys.add(Objects.requireNonNull(inputKey, "inputKey"));
    columns.add(Objects.requireNonNull(column, "column"));
    return this;
  }

  /**
   * A scalar function: the prediction of one output as its SQL value, or of several as a ROW.
   * It takes {@link InvalidRecords#ERROR} and {@link InvalidRecords#KEEP} (a null result).
   *
   * @return the function, to register with the table environment
   * @throws IllegalStateException if no input was given
   */
  public SavedModelScalarFunction scalarFunction() {
    return new SavedModelScalarFunction(predictions(SCALAR_POLICIES, "SavedModelScalarFunction"));
  }

  /**
   * A table function: one row per call, a column per output. It takes every policy:
   * {@link InvalidRecords#SKIP} gives an invalid call no row, {@link InvalidRecords#KEEP} a row
   * of nulls.
   *
   * @return the function, to register with the table environment
   * @throws IllegalStateException if no input was given
   */
  public SavedModelTableFunction tableFunction() {
    return new SavedModelTableFunction(predictions(List.of(InvalidRecords.values()),
        "SavedModelTableFunction"));
  }

  private SqlPredictions predictions(List<InvalidRecords> policiesTaken, String function) {
    if (inputKeys.isEmpty()) {
      throw new IllegalStateException("no input: give each signature input with input(...)");
    }
    return new SqlPredictions(settings(inputKeys, policiesTaken, function),
        List.copyOf(columns), 0, "invalidRecords", policiesTaken);
  }

  /**
   * The scalar function's predictions fed by every input of the signature, in the order of their
   * keys, from the call's arguments after its first (the model's path).
   */
  SqlPredictions everyInputAfterThePath(String function) {
    return new SqlPredictions(settings(List.of(), SCALAR_POLICIES, function), List.of(), 1,
        "the job parameter '" + SavedModelPredict.INVALID_RECORDS_PARAMETER + "'",
        SCALAR_POLICIES);
  }

  /**
   * Predictions fed by the inputs given, in their order (every input of the signature, in the
   * order of their keys, if none was given), as a model provider makes them: it takes every
   * invalid-row policy, set by {@code policyOption}.
   */
  SqlPredictions modelPredictions(String function, String policyOption) {
    List<InvalidRecords> every = List.of(InvalidRecords.values());
    return new SqlPredictions(settings(inputKeys, every, function), List.copyOf(columns), 0,
        policyOption, every);
  }
}
