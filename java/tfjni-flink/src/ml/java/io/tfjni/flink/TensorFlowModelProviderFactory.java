package io.tfjni.flink;

import io.tfjni.RowSpec;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogModel;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.ModelProviderFactory;
import org.apache.flink.table.ml.ModelProvider;
import org.apache.flink.table.types.DataType;

/**
 * The model provider {@code tensorflow}, for Flink SQL's models:
 * {@code CREATE MODEL m INPUT (images ARRAY<FLOAT>) OUTPUT (output_0 ARRAY<FLOAT>) WITH
 * ('provider' = 'tensorflow', 'path' = '/models/digits')}, then
 * {@code SELECT * FROM ML_PREDICT(TABLE events, MODEL m, DESCRIPTOR(pixels))}. Each INPUT column
 * feeds the signature input of its name (or the one the option {@code inputs} gives it) and each
 * OUTPUT column is the output of its name (or {@code outputs}); the planner loads the model to
 * check them against the signature, and refuses the query naming the column and the input that
 * do not fit. With {@code 'versions' = 'latest'} the path is a base directory of numbered
 * versions, the newest of which serves, new ones swapped in as they appear. Found by Flink
 * through {@code META-INF/services}.
 */
public final class TensorFlowModelProviderFactory implements ModelProviderFactory {
  /** The value of the option {@code provider} that names this provider. */
  public static final String IDENTIFIER = "tensorflow";

  /** The provider, for Flink's service loader. */
  public TensorFlowModelProviderFactory() {}

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return ModelOptions.REQUIRED;
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return ModelOptions.OPTIONAL;
  }

  /**
   * Checks the model's options, and its INPUT and OUTPUT columns against the signature (loading
   * the model, as the TaskManagers will), and gives its provider.
   *
   * @param context the model, as the catalog resolved it
   * @return a provider of a synchronous and an asynchronous function
   * @throws ValidationException for an unknown or invalid option, a model that cannot serve, or
   *     a column that does not fit the signature, named
   */
  @Override
  public ModelProvider createModelProvider(Context context) {
    FactoryUtil.ModelProviderFactoryHelper helper =
        FactoryUtil.createModelProviderFactoryHelper(this, context);
    helper.validate();
    ReadableConfig options = helper.getOptions();
    ResolvedCatalogModel model = context.getCatalogModel();
    String function = "model " + context.getObjectIdentifier().asSummaryString();
    String signature = options.get(ModelOptions.SIGNATURE);
    SqlFunctionBuilder builder;
    try {
      builder = ModelOptions.builder(options);
    } catch (IllegalArgumentException e) {
      throw new ValidationException(e.getMessage(), e);
    }
    String policyOption = "the model option '" + ModelOptions.INVALID_RECORDS.key() + "'";
    SqlPredictions everyInputAndOutput = builder.modelPredictions(function, policyOption);
    List<RowSpec> inputs;
    List<RowSpec> outputs;
    try {
      inputs = everyInputAndOutput.plannedInputs();
      outputs = everyInputAndOutput.plannedOutputs();
    } catch (RuntimeException e) {
      throw new ValidationException("the SavedModel at '" + options.get(ModelOptions.PATH)
          + "' cannot serve signature '" + signature + "': " + e.getMessage(), e);
    }
    List<String> inputKeys = ModelSchema.inputKeys(model.getResolvedInputSchema(),
        options.getOptional(ModelOptions.INPUTS), inputs, signature);
    List<String> outputKeys = ModelSchema.outputKeys(model.getResolvedOutputSchema(),
        options.getOptional(ModelOptions.OUTPUTS), outputs, signature);
    List<String> columns = model.getResolvedInputSchema().getColumnNames();
    for (int c = 0; c < columns.size(); c++) {
      builder.input(inputKeys.get(c), columns.get(c));
    }
    builder.outputs(outputKeys.toArray(new String[0]));
    List<org.apache.flink.table.types.logical.LogicalType> types = model
        .getResolvedInputSchema().getColumnDataTypes().stream().map(DataType::getLogicalType)
        .toList();
    ModelCall async = new ModelCall(builder.modelPredictions(function, policyOption), types);
    // The synchronous operator hands over one row at a time: its batcher must not wait for more.
    ModelCall sync = new ModelCall(builder.maxDelay(Duration.ZERO).modelPredictions(function,
        policyOption), types);
    return new TensorFlowModelProvider(sync, async);
  }
}
