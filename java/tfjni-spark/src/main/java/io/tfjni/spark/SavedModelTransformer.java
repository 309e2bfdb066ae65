package io.tfjni.spark;

import io.tfjni.InvalidRows;
import io.tfjni.ModelCache;
import io.tfjni.Signature;
import io.tfjni.TensorSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;
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
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
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

  /** The stage's unique id (Spark ML's {@code uid}). */
  private final String uid;
  /** The param of {@link #modelPath()}. */
  private final Param<String> modelPath;
  /** The param of {@link #tags()}. */
  private final StringArrayParam tags;
  /** The param of {@link #signatureKey()}. */
  private final Param<String> signatureKey;
  /** The param of {@link #inputCols()}. */
  private final StringArrayParam inputCols;
  /** The param of {@link #inputKeys()}. */
  private final StringArrayParam inputKeys;
  /** The param of {@link #outputKeys()}. */
  private final StringArrayParam outputKeys;
  /** The param of {@link #outputCols()}. */
  private final StringArrayParam outputCols;
  /** The param of {@link #batchSize()}. */
  private final IntParam batchSize;
  /** The param of {@link #intraOpThreads()}. */
  private final IntParam intraOpThreads;
  /** The param of {@link #interOpThreads()}. */
  private final IntParam interOpThreads;
  /** The param of {@link #preferLiteRt()}. */
  private final IntParam preferLiteRt;
  /** The param of {@link #handleInvalid()}. */
  private final Param<String> handleInvalid;
  /** The param of {@link #stringsAsBinary()}. */
  private final BooleanParam stringsAsBinary;

  /** A transformer with a random uid and the params' defaults; set the model path and inputs. */
  public SavedModelTransformer() {
    this(Identifiable$.MODULE$.randomUID("tfjniSavedModel"));
  }

  /**
   * A transformer with this uid (what Spark's reader calls) and the params' defaults.
   *
   * @param uid the stage's unique id
   */
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
    preferLiteRt = new IntParam(this, "preferLiteRt",
        "threads of each LiteRT model converted beside the SavedModel (tfjni convert): a batch"
            + " of a converted size, or a shorter one padded up to it, runs on LiteRT (0:"
            + " TensorFlow only)",
        ParamValidators.gtEq(0));
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
    setDefault(preferLiteRt, 0);
    setDefault(handleInvalid, "error");
    setDefault(stringsAsBinary, false);
  }

  @Override
  public String uid() {
    return uid;
  }

  /**
   * Reads a transformer saved with {@code write().save(path)}; what PipelineModel.load calls.
   *
   * @return Spark's params reader for this class
   */
  public static MLReader<SavedModelTransformer> read() {
    return new DefaultParamsReader<>();
  }

  /**
   * Loads a transformer saved with {@code write().save(path)}.
   *
   * @param path where it was saved
   * @return the transformer, with the saved params
   */
  public static SavedModelTransformer load(String path) {
    return read().load(path);
  }

  // Spark finds params through public methods returning them.
  /**
   * The modelPath param: the SavedModel: a directory on every executor (local or shared), the name
   * of a file shipped with addFile/--files, or a zip of one.
   *
   * @return the param
   */
  public Param<String> modelPath() {
    return modelPath;
  }

  /**
   * The tags param: the MetaGraph's tags (default: {@code serve}).
   *
   * @return the param
   */
  public StringArrayParam tags() {
    return tags;
  }

  /**
   * The signatureKey param: the signature to run (default: {@code serving_default}).
   *
   * @return the param
   */
  public Param<String> signatureKey() {
    return signatureKey;
  }

  /**
   * The inputCols param: the DataFrame columns fed to the model.
   *
   * @return the param
   */
  public StringArrayParam inputCols() {
    return inputCols;
  }

  /**
   * The inputKeys param: the signature inputs the columns feed, in the same order (default: the
   * column names).
   *
   * @return the param
   */
  public StringArrayParam inputKeys() {
    return inputKeys;
  }

  /**
   * The outputKeys param: the signature outputs to add (default: all, in key order).
   *
   * @return the param
   */
  public StringArrayParam outputKeys() {
    return outputKeys;
  }

  /**
   * The outputCols param: the names of the new columns, in the order of outputKeys (default: the
   * output keys).
   *
   * @return the param
   */
  public StringArrayParam outputCols() {
    return outputCols;
  }

  /**
   * The batchSize param: rows per model call, more than 0 (default: 64).
   *
   * @return the param
   */
  public IntParam batchSize() {
    return batchSize;
  }

  /**
   * The intraOpThreads param: threads one op may use, per executor JVM (default 0: TensorFlow's).
   *
   * @return the param
   */
  public IntParam intraOpThreads() {
    return intraOpThreads;
  }

  /**
   * The interOpThreads param: threads running independent ops at once, per executor JVM (default 0:
   * TensorFlow's; -1: every op on the task's own thread).
   *
   * @return the param
   */
  public IntParam interOpThreads() {
    return interOpThreads;
  }

  /**
   * The preferLiteRt param: the CPU threads of each LiteRT model {@code tfjni convert} wrote
   * beside the SavedModel; a batch runs on LiteRT at the smallest converted size up to {@code
   * batchSize} that holds it, padded with rows of zeros if it is shorter (a partition's last
   * batch; the padding's outputs are dropped), if the transform feeds every input and fetches
   * every output in key order ({@link io.tfjni.SavedModel#liteRtPredictors}); any other batch on
   * TensorFlow (default 0: TensorFlow only). docs/LITERT.md has more.
   *
   * @return the param
   */
  public IntParam preferLiteRt() {
    return preferLiteRt;
  }

  /**
   * The handleInvalid param: what a row that cannot feed the model does: {@code error} (the
   * default) fails the task naming the column and row, {@code skip} drops the row, {@code keep}
   * keeps it with null outputs.
   *
   * @return the param
   */
  public Param<String> handleInvalid() {
    return handleInvalid;
  }

  /**
   * The stringsAsBinary param: string outputs as binary columns (raw bytes) rather than UTF-8
   * string columns (default: false).
   *
   * @return the param
   */
  public BooleanParam stringsAsBinary() {
    return stringsAsBinary;
  }

  /**
   * The {@link #modelPath()} param's value.
   *
   * @return the value set, else the default
   */
  public String getModelPath() {
    return $(modelPath);
  }

  /**
   * The {@link #tags()} param's value.
   *
   * @return the value set, else the default
   */
  public String[] getTags() {
    return $(tags);
  }

  /**
   * The {@link #signatureKey()} param's value.
   *
   * @return the value set, else the default
   */
  public String getSignatureKey() {
    return $(signatureKey);
  }

  /**
   * The {@link #inputCols()} param's value.
   *
   * @return the value set, else the default
   */
  public String[] getInputCols() {
    return $(inputCols);
  }

  /**
   * The {@link #inputKeys()} param's value.
   *
   * @return the value set, else the default
   */
  public String[] getInputKeys() {
    return $(inputKeys);
  }

  /**
   * The {@link #outputKeys()} param's value.
   *
   * @return the value set, else the default
   */
  public String[] getOutputKeys() {
    return $(outputKeys);
  }

  /**
   * The {@link #outputCols()} param's value.
   *
   * @return the value set, else the default
   */
  public String[] getOutputCols() {
    return $(outputCols);
  }

  /**
   * The {@link #batchSize()} param's value.
   *
   * @return the value set, else the default
   */
  public int getBatchSize() {
    return (Integer) $(batchSize);
  }

  /**
   * The {@link #intraOpThreads()} param's value.
   *
   * @return the value set, else the default
   */
  public int getIntraOpThreads() {
    return (Integer) $(intraOpThreads);
  }

  /**
   * The {@link #interOpThreads()} param's value.
   *
   * @return the value set, else the default
   */
  public int getInterOpThreads() {
    return (Integer) $(interOpThreads);
  }

  /**
   * The {@link #preferLiteRt()} param's value.
   *
   * @return the value set, else the default
   */
  public int getPreferLiteRt() {
    return (Integer) $(preferLiteRt);
  }

  /**
   * The {@link #handleInvalid()} param's value.
   *
   * @return the value set, else the default
   */
  public String getHandleInvalid() {
    return $(handleInvalid);
  }

  /**
   * The {@link #stringsAsBinary()} param's value.
   *
   * @return the value set, else the default
   */
  public boolean getStringsAsBinary() {
    return (Boolean) $(stringsAsBinary);
  }

  /**
   * Sets {@link #modelPath()}.
   *
   * @param value the model's location
   * @return this transformer
   */
  public SavedModelTransformer setModelPath(String value) {
    set(modelPath, value);
    return this;
  }

  /**
   * Sets {@link #tags()}.
   *
   * @param value the tags
   * @return this transformer
   */
  public SavedModelTransformer setTags(String... value) {
    set(tags, value);
    return this;
  }

  /**
   * Sets {@link #signatureKey()}.
   *
   * @param value the signature's key
   * @return this transformer
   */
  public SavedModelTransformer setSignatureKey(String value) {
    set(signatureKey, value);
    return this;
  }

  /**
   * Sets {@link #inputCols()}.
   *
   * @param value the column names
   * @return this transformer
   */
  public SavedModelTransformer setInputCols(String... value) {
    set(inputCols, value);
    return this;
  }

  /**
   * Sets {@link #inputKeys()}.
   *
   * @param value the input keys
   * @return this transformer
   */
  public SavedModelTransformer setInputKeys(String... value) {
    set(inputKeys, value);
    return this;
  }

  /**
   * Sets {@link #outputKeys()}.
   *
   * @param value the output keys
   * @return this transformer
   */
  public SavedModelTransformer setOutputKeys(String... value) {
    set(outputKeys, value);
    return this;
  }

  /**
   * Sets {@link #outputCols()}.
   *
   * @param value the column names
   * @return this transformer
   */
  public SavedModelTransformer setOutputCols(String... value) {
    set(outputCols, value);
    return this;
  }

  /**
   * Sets {@link #batchSize()}.
   *
   * @param value the row count
   * @return this transformer
   */
  public SavedModelTransformer setBatchSize(int value) {
    set(batchSize, value);
    return this;
  }

  /**
   * Sets {@link #intraOpThreads()}.
   *
   * @param value the thread count, 0 or more
   * @return this transformer
   */
  public SavedModelTransformer setIntraOpThreads(int value) {
    set(intraOpThreads, value);
    return this;
  }

  /**
   * Sets {@link #interOpThreads()}.
   *
   * @param value the thread count, 0 or more, or -1
   * @return this transformer
   */
  public SavedModelTransformer setInterOpThreads(int value) {
    set(interOpThreads, value);
    return this;
  }

  /**
   * Sets {@link #preferLiteRt()}.
   *
   * @param value the LiteRT thread count, or 0 for TensorFlow only
   * @return this transformer
   */
  public SavedModelTransformer setPreferLiteRt(int value) {
    set(preferLiteRt, value);
    return this;
  }

  /**
   * Sets {@link #handleInvalid()}.
   *
   * @param value {@code error}, {@code skip} or {@code keep}
   * @return this transformer
   */
  public SavedModelTransformer setHandleInvalid(String value) {
    set(handleInvalid, value);
    return this;
  }

  /**
   * Sets {@link #stringsAsBinary()}.
   *
   * @param value true for binary columns
   * @return this transformer
   */
  public SavedModelTransformer setStringsAsBinary(boolean value) {
    set(stringsAsBinary, value);
    return this;
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return outputSchema(schema, plan(schema));
  }

  /**
   * A batch DataFrame of this JVM's Spark runs over its internal rows (the query engine's own,
   * unboxed), so the input is planned here, like {@code Dataset.rdd}: with adaptive execution,
   * the stages before it (a shuffle) run now rather than at the first action. A streaming
   * DataFrame, or one of a Spark Connect client, goes through the public API instead
   * ({@link #transformRows}).
   */
  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    if (dataset.isStreaming()
        || !(dataset.toDF() instanceof org.apache.spark.sql.classic.Dataset<Row> frame)) {
      return transformRows(dataset);
    }
    InferencePlan plan = plan(dataset.schema());
    JavaRDD<InternalRow> rows = frame.queryExecution().toRdd().toJavaRDD();
    return frame.sparkSession().internalCreateDataFrame(
        rows.mapPartitions(new PartitionInference(plan), true).rdd(),
        outputSchema(dataset.schema(), plan), false);
  }

  /** The same rows as {@link #transform}, planned through the public API's mapPartitions. */
  Dataset<Row> transformRows(Dataset<?> dataset) {
    InferencePlan plan = plan(dataset.schema());
    StructType output = outputSchema(dataset.schema(), plan);
    return dataset.toDF().mapPartitions(new RowInference(plan, dataset.schema(), output),
        Encoders.row(output));
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
    int intra = getIntraOpThreads();
    int inter = getInterOpThreads();
    int liteRt = getPreferLiteRt();
    String location = $(modelPath);
    Signature signature;
    try (ModelCache.Lease lease = ExecutorModels.CACHE.acquire(new ModelCache.Key(
        ModelLocation.resolve(location), tagList, intra, inter, liteRt))) {
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
    InvalidRows invalid = InvalidRows.valueOf(getHandleInvalid().toUpperCase(Locale.ROOT));
    return new InferencePlan(location, tagList, signature.key(), intra, inter, liteRt,
        getBatchSize(), invalid, getStringsAsBinary(), List.copyOf(inputs), indexes, List.copyOf(columnTypes),
        List.copyOf(outputs));
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
