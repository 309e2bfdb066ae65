package io.tfjni.flink;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.AsyncScalarFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.ArgumentCount;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.ConstantArgumentCount;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.inference.Signature;
import org.apache.flink.table.types.inference.TypeInference;

/**
 * The scalar function of {@link SavedModelScalarFunction} for pure SQL:
 * {@code CREATE FUNCTION predict AS 'io.tfjni.flink.SavedModelPredict'}, then
 * {@code SELECT predict('/models/digits', pixels) FROM events}. A call's first argument is the
 * SavedModel's directory, a literal string, from which the planner reads the
 * {@code serving_default} signature to type the call; the arguments after it feed the
 * signature's inputs, one each, in the order of the inputs' keys. Every other setting is
 * {@link SqlFunctionBuilder}'s default: tag {@code serve}, every output, batches of up to 32
 * calls waiting up to 5 ms and TensorFlow's thread defaults. A row that cannot feed the model
 * fails the job, or gives a NULL result when the job parameter {@value #INVALID_RECORDS_PARAMETER}
 * is {@code KEEP}. Each model a query names is leased from the JVM's shared models on its own.
 */
public final class SavedModelPredict extends AsyncScalarFunction {
  private static final long serialVersionUID = 1;

  /** The job parameter that sets what a row that cannot feed the model does. */
  public static final String INVALID_RECORDS_PARAMETER = "tfjni.invalid-records";

  /**
   * The predictions of each model path this instance has typed or runs. Flink gives every call
   * site its own instance, but keying by path keeps two models apart even in one instance.
   */
  private transient Map<String, SqlPredictions> byPath;
  private transient FunctionContext context;
  /** What a row that cannot feed the model does, from the job's parameters. */
  private transient InvalidRecords invalidRecords;

  /** The function, for {@code CREATE FUNCTION}; the calls name their model. */
  public SavedModelPredict() {}

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return TypeInference.newBuilder().inputTypeStrategy(new Arguments())
        .outputTypeStrategy(call -> Optional.of(SavedModelScalarFunction.resultType(
            predictions(call.getArgumentValue(0, String.class).orElseThrow())
                .plannedOutputs())))
        .build();
  }

  @Override
  public void open(FunctionContext context) {
    this.context = context;
    String policy = context.getJobParameter(INVALID_RECORDS_PARAMETER, "ERROR");
    try {
      invalidRecords = InvalidRecords.valueOf(policy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("job parameter " + INVALID_RECORDS_PARAMETER + " is '"
          + policy + "'; SavedModelPredict takes ERROR or KEEP", e);
    }
    byPath = new HashMap<>();
  }

  /**
   * Queues one call's inputs on the model of its path; {@code result} completes with its
   * prediction.
   *
   * @param result completed by the batch that runs the call
   * @param arguments the model's path, then one argument per signature input, in key order
   */
  public void eval(CompletableFuture<Object> result, Object... arguments) {
    SqlPredictions predictions = byPath.computeIfAbsent((String) arguments[0], path -> {
      SqlPredictions opened = over(path, invalidRecords);
      opened.open(context);
      return opened;
    });
    predictions.predict(Arrays.copyOfRange(arguments, 1, arguments.length), result, null,
        SavedModelScalarFunction::result);
  }

  @Override
  public void close() {
    if (byPath != null) {
      byPath.values().forEach(SqlPredictions::close);
      byPath.clear();
    }
  }

  /** The planner's predictions over the model at {@code path}, made once per path. */
  private synchronized SqlPredictions predictions(String path) {
    if (byPath == null) {
      byPath = new HashMap<>();
    }
    // The policy does not change the types: a result is nullable either way.
    return byPath.computeIfAbsent(path, p -> over(p, InvalidRecords.ERROR));
  }

  /** Predictions over the model at {@code path}, with the defaults but the policy, not opened. */
  private static SqlPredictions over(String path, InvalidRecords invalidRecords) {
    return SqlFunctionBuilder.model(path).invalidRecords(invalidRecords)
        .everyInputAfterThePath("SavedModelPredict");
  }

  /** The model's path, a literal string, then one argument per input of its signature. */
  private final class Arguments implements InputTypeStrategy {
    @Override
    public ArgumentCount getArgumentCount() {
      return ConstantArgumentCount.from(2);
    }

    @Override
    public Optional<List<DataType>> inferInputTypes(CallContext call, boolean throwOnFailure) {
      // Empty for anything but a literal string, which the planner holds.
      Optional<String> path = call.getArgumentValue(0, String.class);
      if (path.isEmpty()) {
        return call.fail(throwOnFailure, "argument 1 of %s must be the SavedModel's directory "
            + "as a literal string, such as '/models/digits': the planner reads the model's "
            + "signature from it", call.getName());
      }
      SqlPredictions planned;
      try {
        planned = predictions(path.get());
        planned.plannedOutputs();
      } catch (RuntimeException e) {
        return call.fail(throwOnFailure, "argument 1 of %s: the SavedModel at '%s' cannot "
            + "serve: %s", call.getName(), path.get(), e.getMessage());
      }
      return planned.checkInputs(call, throwOnFailure);
    }

    @Override
    public List<Signature> getExpectedSignatures(FunctionDefinition definition) {
      return List.of(Signature.of(Signature.Argument.of("model_path", "STRING literal"),
          Signature.Argument.of("inputs", "one per signature input, in key order")));
    }
  }
}
