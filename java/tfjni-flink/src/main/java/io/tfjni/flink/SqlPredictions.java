package io.tfjni.flink;

import io.tfjni.InvalidRowException;
import io.tfjni.RowSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.ArgumentCount;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.ConstantArgumentCount;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.inference.Signature;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * What the SQL functions (and ML_PREDICT's) do: type their calls from the signature when the
 * planner asks, and at run time turn a call's arguments into a record's rows, queue them on the
 * subtask's model and turn the prediction's outputs into SQL values.
 */
final class SqlPredictions implements Serializable {
  private static final long serialVersionUID = 1;

  private final ModelSettings settings;
  /**
   * The column each argument is, for messages, in the order of the settings' inputs; empty when
   * the inputs are the signature's every input, named then by their argument's position.
   */
  private final List<String> columns;
  /** The position (from 0) of the call's first argument that feeds an input. */
  private final int firstInput;
  /** The setting that changes what an invalid row does, as the function's user names it. */
  private final String policyOption;
  /** The invalid-row policies the function takes. */
  private final List<InvalidRecords> policies;

  /** The signature's layouts, read once on the client for the planner. */
  private transient List<RowSpec> plannedInputs;
  private transient List<RowSpec> plannedOutputs;

  private transient SubtaskModel model;
  private transient long rowNumber;
  private transient int subtask;

  SqlPredictions(ModelSettings settings, List<String> columns, int firstInput,
      String policyOption, List<InvalidRecords> policies) {
    this.settings = settings;
    this.columns = columns;
    this.firstInput = firstInput;
    this.policyOption = policyOption;
    this.policies = List.copyOf(policies);
  }

  ModelSettings settings() {
    return settings;
  }

  /**
   * The calls' type inference: one argument per input, each a number or a string, or an ARRAY
   * of them, as its input's row needs ({@link SqlTypes}); the result {@code resultType} makes
   * from the outputs' layouts.
   */
  TypeInference typeInference(Function<List<RowSpec>, DataType> resultType) {
    return TypeInference.newBuilder().inputTypeStrategy(new Arguments())
        .outputTypeStrategy(call -> Optional.of(resultType.apply(plannedOutputs()))).build();
  }

  /**
   * Checks that the call's arguments from {@link #firstInput} on are one per input, each of a
   * type that can feed it, and gives every argument's type unchanged; or fails the call, naming
   * the argument.
   */
  Optional<List<DataType>> checkInputs(CallContext call, boolean throwOnFailure) {
    List<DataType> arguments = call.getArgumentDataTypes();
    List<RowSpec> inputs = plannedInputs();
    // Only SavedModelPredict's count can differ (its path comes first): the builder's
    // functions declare theirs.
    if (arguments.size() - firstInput != inputs.size()) {
      return call.fail(throwOnFailure, "%s takes %d arguments after the model's path, one per "
          + "input of signature '%s' (%s), got %d", call.getName(), inputs.size(),
          settings.signatureKey(), inputs.stream().map(RowSpec::key).toList(),
          arguments.size() - firstInput);
    }
    for (int i = 0; i < inputs.size(); i++) {
      LogicalType type = arguments.get(firstInput + i).getLogicalType();
      String problem = SqlTypes.whyNot(type, inputs.get(i));
      if (problem != null) {
        String column = columns.isEmpty() ? "" : "column '" + columns.get(i) + "', ";
        return call.fail(throwOnFailure, "argument %d of %s (%sinput '%s'): %s",
            firstInput + i + 1, call.getName(), column, inputs.get(i).key(), problem);
      }
    }
    return Optional.of(arguments);
  }

  /** The argument feeding input {@code i}, for messages: its column, or its position. */
  private String argument(int i) {
    return columns.isEmpty() ? "argument " + (firstInput + i + 1)
        : "column '" + columns.get(i) + "'";
  }

  /** The layout of each output's row, read from the model on the client for the planner. */
  synchronized List<RowSpec> plannedOutputs() {
    readSignature();
    return plannedOutputs;
  }

  /** Opens the model on the TaskManager (one per JVM, shared by every subtask's function). */
  void open(FunctionContext context) {
    // From the metric scope, as Flink 1.20's FunctionContext has no getTaskInfo() (2.x's has).
    Map<String, String> scope = context.getMetricGroup().getAllVariables();
    String index = scope.get("<subtask_index>");
    subtask = index == null ? -1 : Integer.parseInt(index);
    model = SubtaskModel.open(settings,
        "tfjni-batching " + scope.get("<task_name>") + " (subtask " + subtask + ")");
  }

  /**
   * Queues one call: {@code result} completes with {@code answer} of the SQL values of its
   * outputs (in the order of the outputs), with {@code invalid} for an invalid row under
   * {@code SKIP} or {@code KEEP}, or fails with the row's exception under {@code ERROR} (naming
   * the column, the row and what was expected) or with its batch's.
   *
   * @param varargs the arguments as an {@code eval(future, Object... arguments)} receives them
   */
  <T> void predict(Object[] varargs, CompletableFuture<T> result, T invalid,
      Function<Object[], T> answer) {
    long number = rowNumber++;
    Object[] arguments = arguments(varargs);
    CompletableFuture<Prediction> prediction;
    try {
      prediction = model.submit(rows(arguments));  // the core checks the rows: once
    } catch (InvalidRowException e) {  // a number the conversion refused
      prediction = CompletableFuture.failedFuture(e);
    }
    Completions.relay(prediction, p -> result.complete(answer.apply(values(p))), failure -> {
      if (!(failure instanceof InvalidRowException refused)) {
        result.completeExceptionally(failure);
      } else if (settings.invalidRecords() == InvalidRecords.ERROR) {
        result.completeExceptionally(error(refused, arguments, number));
      } else {
        result.complete(invalid);
      }
    });
  }

  /**
   * Queues one call whose answer is a row of its outputs, as a table function's: {@code result}
   * completes with the one row, with none for an invalid row under {@code SKIP}, with a row of
   * nulls under {@code KEEP}, or fails as {@link #predict} says.
   *
   * @param arguments the call's arguments, one per input
   */
  void predictRow(Object[] arguments, CompletableFuture<Collection<RowData>> result) {
    Collection<RowData> invalid = settings.invalidRecords() == InvalidRecords.KEEP
        ? List.of(new GenericRowData(outputCount())) : List.of();
    predict(arguments, result, invalid, values -> List.of(GenericRowData.of(values)));
  }

  /** The record's rows of one call, its numbers converted to their inputs' dtypes. */
  private Object[] rows(Object[] arguments) {
    Object[] rows = new Object[arguments.length];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = SqlValues.toRow(arguments[i], model.inputs().get(i));
    }
    return rows;
  }

  /** The exception of a row under ERROR, naming the argument, the row and the setting. */
  private IllegalArgumentException error(InvalidRowException refused, Object[] arguments,
      long number) {
    List<RowSpec> inputs = model.inputs();
    int i = inputs.stream().map(RowSpec::key).toList().indexOf(refused.inputKey());
    return InvalidRecordError.of(argument(i), refused.inputKey(), "row", number, subtask,
        Arrays.deepToString(arguments), refused.problem(), SqlTypes.describe(inputs.get(i)),
        policyOption, policies);
  }

  /**
   * The call's arguments from an {@code eval(future, Object... arguments)}: Flink's generated
   * code calls it with the arguments' own classes, and Java hands a lone array argument (an
   * ARRAY is a {@code Float[]}, an {@code Integer[]}, ...) over as the varargs array itself, or a
   * lone null array as a null array. The array Java builds for the arguments is an
   * {@code Object[]}, and no argument's class is.
   */
  private static Object[] arguments(Object[] varargs) {
    return varargs != null && varargs.getClass() == Object[].class ? varargs
        : new Object[] {varargs};
  }

  /** How many outputs a prediction has. */
  int outputCount() {
    return model.outputs().size();
  }

  /** The SQL value of each output, in the order of the outputs. */
  private Object[] values(Prediction prediction) {
    List<RowSpec> outputs = model.outputs();
    Object[] values = new Object[outputs.size()];
    for (int o = 0; o < values.length; o++) {
      RowSpec output = outputs.get(o);
      values[o] = SqlValues.toSql(prediction.get(output.key()), output);
    }
    return values;
  }

  void close() {
    if (model != null) {
      model.close();
      model = null;
    }
  }

  /** The layout of each input's row, read from the model on the client for the planner. */
  synchronized List<RowSpec> plannedInputs() {
    readSignature();
    return plannedInputs;
  }

  /** Opens the model as a TaskManager would (the same checks), reads the layouts, closes it. */
  private void readSignature() {
    if (plannedInputs == null) {
      try (SubtaskModel signature = SubtaskModel.open(settings, "tfjni-batching planning")) {
        plannedInputs = signature.inputs();
        plannedOutputs = signature.outputs();
      }
    }
  }

  /** One argument per signature input, each of a type that can feed it, passed on unchanged. */
  private final class Arguments implements InputTypeStrategy {
    @Override
    public ArgumentCount getArgumentCount() {
      return ConstantArgumentCount.of(columns.size());
    }

    @Override
    public Optional<List<DataType>> inferInputTypes(CallContext call, boolean throwOnFailure) {
      return checkInputs(call, throwOnFailure);
    }

    @Override
    public List<Signature> getExpectedSignatures(FunctionDefinition definition) {
      List<Signature.Argument> arguments = new ArrayList<>();
      List<RowSpec> inputs = plannedInputs();
      for (int i = 0; i < columns.size(); i++) {
        arguments.add(Signature.Argument.of(columns.get(i), SqlTypes.describe(inputs.get(i))));
      }
      return List.of(Signature.of(arguments));
    }
  }
}
