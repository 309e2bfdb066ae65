package io.tfjni.spark;

import io.tfjni.ModelCache;
import io.tfjni.Signature;
import io.tfjni.TensorSpec;
import io.tfjni.spark.InferencePlan.InvalidRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Spark ML {@link Transformer} that runs a TensorFlow SavedModel's signature over a DataFrame
 * through tfjni: the columns in {@code inputCols} feed the signature inputs {@code inputKeys}
 * (default: the same names), and the outputs {@code outputKeys} (default: all) become the new
 * columns {@code outputCols} (default: the same names).
 *
 * <pre>{@code
 * Dataset<Row> scored = new SavedModelTransformer()
 *     .setModelPath("/models/digits")
 *     .setInputCols("pixels").setInputKeys("images")
 *     .setOutputKeys("output_0").setOutputCols("probabilities")
 *     .setBatchSize(64)
 *     .transform(images);
 * }</pre>
 *
 * <p>The output schema comes from the SignatureDef when the plan is built ({@link
 * #transformSchema}), so a bad mapping fails before any data moves. Each executor JVM loads the
 * model once and shares it between its tasks and threads; rows are fed in batches of {@code
 * batchSize} through one prepared predictor call each.
 *
 * <p>Its params can be saved and loaded like any Spark ML stage ({@link #write()}, {@link
 * #load(String)}), alone or inside a fitted {@code PipelineModel}: the model path is saved as
 * it was given, not the model.
 */
public final class SavedModelTransformer extends Transformer implements DefaultParamsWritable {
  private static final long serialVersionUID = 1;

  private final String uid;
  private final Param<String> modelPath;
  private final StringArrayParam tags;
  private final Param<String> signatureKey;
  private final StringArrayParam inputCols;
  private final StringArrayParam inputKeys;
  private final StringArrayParam outputKeys;
  private final StringArrayParam outputCols;
  private final IntParam batchSize;
  private final IntParam intraOpThreads;
  private final IntParam interOpThreads;
  private final Param<String> handleInvalid;
  private final BooleanParam stringsAsBinary;

  public SavedModelTransformer() {
    this(Identifiable$.MODULE$.randomUID("tfjniSavedModel"));
  }

  public SavedModelTransformer(String uid) {
    this.uid = uid;
    modelPath = new Param<>(this, "modelPath", "the SavedModel: a directory on every executor"
        + " (local or shared), the name of a file shipped with addFile/--files, or a zip of one");
    tags = new StringArrayParam(this, "tags", "the MetaGraph's tags");
    signatureKey = new Param<>(this, "signatureKey", "the signature to run");
    inputCols = new StringArrayParam(this, "inputCols", "the DataFrame columns fed to the model");
    inputKeys = new StringArrayParam(this, "inputKeys",
        "the signature inputs they feed, in the same order (default: the column names)");
    outputKeys = new StringArrayParam(this, "outputKeys",
        "the signature outputs to add (default: all, in key order)");
    outputCols = new StringArrayParam(this, "outputCols",
        "the names of the new columns, in the order of outputKeys (default: the output keys)");
    batchSize = new IntParam(this, "batchSize", "rows per model call (> 0)",
        ParamValidators.gt(0));
    intraOpThreads = new IntParam(this, "intraOpThreads",
        "threads one op may use: TensorFlow's one pool per JVM, sized by the JVM's first model"
            + " (0: the pool as it is; another count than the pool's fails, see ThreadPools)",
        ParamValidators.gtEq(0));
    interOpThreads = new IntParam(this, "interOpThreads",
        "threads running independent ops at once (0: the JVM's shared pool; N > 0: a pool of"
            + " N of the model's own; -1: every op on the task's own thread)",
        ParamValidators.gtEq(-1));
    handleInvalid = new Param<>(this, "handleInvalid", "a row that cannot feed the model:"
        + " 'error' fails the task naming the column and row, 'skip' drops the row, 'keep'"
        + " keeps it with null outputs", ParamValidators.inArray(new String[] {"error", "skip",
            "keep"}));
    stringsAsBinary = new BooleanParam(this, "stringsAsBinary",
        "string outputs as binary columns (raw bytes) rather than UTF-8 string columns");
    setDefault(tags, new String[] {"serve"});
    setDefault(signatureKey, "serving_default");
    setDefault(batchSize, 64);
    setDefault(intraOpThreads, 0);
    setDefault(interOpThreads, 0);
    setDefault(handleInvalid, "error");
    setDefault(stringsAsBinary, false);
  }

  @Override
  public String uid() {
    return uid;
  }

  /** Reads a transformer saved with {@code write().save(path)}; what PipelineModel.load calls. */
  public static MLReader<SavedModelTransformer> read() {
    return new DefaultParamsReader<>();
  }

  public static SavedModelTransformer load(String path) {
    return read().load(path);
  }

  // Spark finds params through public methods returning them.
  public Param<String> modelPath() {
    return modelPath;
  }

  public StringArrayParam tags() {
    return tags;
  }

  public Param<String> signatureKey() {
    return signatureKey;
  }

  public StringArrayParam inputCols() {
    return inputCols;
  }

  public StringArrayParam inputKeys() {
    return inputKeys;
  }

  public StringArrayParam outputKeys() {
    return outputKeys;
  }

  public StringArrayParam outputCols() {
    return outputCols;
  }

  public IntParam batchSize() {
    return batchSize;
  }

  public IntParam intraOpThreads() {
    return intraOpThreads;
  }

  public IntParam interOpThreads() {
    return interOpThreads;
  }

  public Param<String> handleInvalid() {
    return handleInvalid;
  }

  public BooleanParam stringsAsBinary() {
    return stringsAsBinary;
  }

  public SavedModelTransformer setModelPath(String value) {
    set(modelPath, value);
    return this;
  }

  public SavedModelTransformer setTags(String... value) {
    set(tags, value);
    return this;
  }

  public SavedModelTransformer setSignatureKey(String value) {
    set(signatureKey, value);
    return this;
  }

  public SavedModelTransformer setInputCols(String... value) {
    set(inputCols, value);
    return this;
  }

  public SavedModelTransformer setInputKeys(String... value) {
    set(inputKeys, value);
    return this;
  }

  public SavedModelTransformer setOutputKeys(String... value) {
    set(outputKeys, value);
    return this;
  }

  public SavedModelTransformer setOutputCols(String... value) {
    set(outputCols, value);
    return this;
  }

  public SavedModelTransformer setBatchSize(int value) {
    set(batchSize, value);
    return this;
  }

  public SavedModelTransformer setIntraOpThreads(int value) {
    set(intraOpThreads, value);
    return this;
  }

  public SavedModelTransformer setInterOpThreads(int value) {
    set(interOpThreads, value);
    return this;
  }

  public SavedModelTransformer setHandleInvalid(String value) {
    set(handleInvalid, value);
    return this;
  }

  public SavedModelTransformer setStringsAsBinary(boolean value) {
    set(stringsAsBinary, value);
    return this;
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return outputSchema(schema, plan(schema));
  }

  /**
   * Runs over the dataset's internal rows (the query engine's own, unboxed), so the input is
   * planned here, like {@code Dataset.rdd}: with adaptive execution, the stages before it (a
   * shuffle) run now rather than at the first action.
   */
  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    if (dataset.isStreaming()) {
      throw new UnsupportedOperationException("SavedModelTransformer transforms batch DataFrames;"
          + " for a stream, call it in foreachBatch");
    }
    InferencePlan plan = plan(dataset.schema());
    org.apache.spark.sql.classic.Dataset<Row> frame =
        (org.apache.spark.sql.classic.Dataset<Row>) dataset.toDF();
    JavaRDD<InternalRow> rows = frame.queryExecution().toRdd().toJavaRDD();
    return frame.sparkSession().internalCreateDataFrame(
        rows.mapPartitions(new PartitionInference(plan), true).rdd(),
        outputSchema(dataset.schema(), plan), false);
  }

  /** The input columns, then one column per output. */
  private static StructType outputSchema(StructType schema, InferencePlan plan) {
    List<StructField> fields = new ArrayList<>(Arrays.asList(schema.fields()));
    for (ColumnSpec output : plan.outputs()) {
      fields.add(new StructField(output.column(), SparkTypes.output(output,
          plan.stringsAsBinary()), true, Metadata.empty()));
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  @Override
  public SavedModelTransformer copy(ParamMap extra) {
    return (SavedModelTransformer) defaultCopy(extra);
  }

  /** Checks the params against the signature and the schema; the plan the executors run. */
  InferencePlan plan(StructType schema) {
    if (!isDefined(modelPath)) {
      throw new IllegalArgumentException("set modelPath to the SavedModel to run");
    }
    if (!isDefined(inputCols)) {
      throw new IllegalArgumentException("set inputCols: the DataFrame columns to feed");
    }
    List<String> tagList = List.of($(tags));
    int intra = (Integer) $(intraOpThreads);
    int inter = (Integer) $(interOpThreads);
    String location = $(modelPath);
    Signature signature;
    try (ModelCache.Lease lease = ExecutorModels.CACHE.acquire(new ModelCache.Key(
        ModelLocation.resolve(location), tagList, intra, inter))) {
      signature = lease.model().signature($(signatureKey));
    }
    String[] columns = $(inputCols);
    String[] keys = isDefined(inputKeys) ? $(inputKeys) : columns;
    if (keys.length != columns.length) {
      throw new IllegalArgumentException("inputCols has " + columns.length + " names but"
          + " inputKeys " + keys.length + ": give one input key per column");
    }
    List<ColumnSpec> inputs = new ArrayList<>();
    List<org.apache.spark.sql.types.DataType> columnTypes = new ArrayList<>();
    int[] indexes = new int[columns.length];
    Set<String> fed = new HashSet<>();
    for (int i = 0; i < columns.length; i++) {
      TensorSpec spec = find(signature.inputs(), keys[i], "input", signature);
      if (!fed.add(keys[i])) {
        throw new IllegalArgumentException("input '" + keys[i] + "' is fed twice");
      }
      if (!Arrays.asList(schema.fieldNames()).contains(columns[i])) {
        throw new IllegalArgumentException("no column '" + columns[i] + "' in the DataFrame;"
            + " its columns are " + Arrays.toString(schema.fieldNames()));
      }
      ColumnSpec column = ColumnSpec.of(columns[i], spec, "input");
      SparkTypes.element(column.dataType(), false);  // throws for a dtype with no column type
      String why = SparkTypes.whyNot(schema.apply(columns[i]).dataType(), column);
      if (why != null) {
        throw new IllegalArgumentException("column '" + columns[i] + "' for input '" + keys[i]
            + "': " + why);
      }
      inputs.add(column);
      columnTypes.add(schema.apply(columns[i]).dataType());
      indexes[i] = schema.fieldIndex(columns[i]);
    }
    List<String> missing = new ArrayList<>(signature.inputKeys());
    missing.removeAll(fed);
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("signature '" + signature.key() + "' needs inputs "
          + missing + " too: map a column to each of " + signature.inputKeys());
    }
    String[] outKeys = isDefined(outputKeys) ? $(outputKeys)
        : signature.outputKeys().stream().sorted().toArray(String[]::new);
    String[] outColumns = isDefined(outputCols) ? $(outputCols) : outKeys;
    if (outColumns.length != outKeys.length) {
      throw new IllegalArgumentException("outputKeys has " + outKeys.length + " names but"
          + " outputCols " + outColumns.length + ": give one column name per output");
    }
    List<ColumnSpec> outputs = new ArrayList<>();
    Set<String> names = new HashSet<>(Arrays.asList(schema.fieldNames()));
    for (int i = 0; i < outKeys.length; i++) {
      TensorSpec spec = find(signature.outputs(), outKeys[i], "output", signature);
      if (!names.add(outColumns[i])) {
        throw new IllegalArgumentException("output column '" + outColumns[i] + "' already"
            + " exists: choose another name in outputCols");
      }
      ColumnSpec column = ColumnSpec.of(outColumns[i], spec, "output");
      SparkTypes.element(column.dataType(), false);  // throws for a dtype with no column type
      outputs.add(column);
    }
    InvalidRows invalid = InvalidRows.valueOf($(handleInvalid).toUpperCase(Locale.ROOT));
    return new InferencePlan(location, tagList, signature.key(), intra, inter, (Integer)
        $(batchSize), invalid, (Boolean) $(stringsAsBinary), List.copyOf(inputs), indexes,
        List.copyOf(columnTypes), List.copyOf(outputs));
  }

  private static TensorSpec find(List<TensorSpec> specs, String key, String role,
      Signature signature) {
    for (TensorSpec spec : specs) {
      if (spec.key().equals(key)) {
        return spec;
      }
    }
    List<String> keys = specs.stream().map(TensorSpec::key).toList();
    throw new IllegalArgumentException("signature '" + signature.key() + "' has no " + role
        + " '" + key + "'; its " + role + "s are " + keys);
  }
}
