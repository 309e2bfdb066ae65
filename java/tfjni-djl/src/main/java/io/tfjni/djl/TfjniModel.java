package io.tfjni.djl;

import ai.djl.BaseModel;
import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.inference.Predictor;
import ai.djl.nn.Block;
import ai.djl.translate.Translator;
import io.tfjni.GraphModel;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Signature;
import io.tfjni.TensorFlowException;
import io.tfjni.serving.VersionedModel;
import java.io.FileNotFoundException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A SavedModel, or a frozen GraphDef ({@code NAME.pb} with the options {@code Inputs} and
 * {@code Outputs}: graph tensor names such as "x:0", as String[] or comma-separated String),
 * loaded through DJL ({@code Criteria} / {@code Model.load}). Options, as DJL's
 * TensorFlow engine reads them: {@code Tags} (String[] or comma-separated String, default
 * "serve"), {@code SignatureDefKey} (default "serving_default"; an unknown key is an error that
 * lists the model's keys) and {@code ConfigProto} (serialized bytes, their Base64 text, or any
 * object with a {@code toByteArray()} method such as a protobuf ConfigProto) and
 * {@code InterOpThreads} and {@code IntraOpThreads} (see {@link ModelThreads}). tfjni's own:
 * {@code PreferLiteRt} runs the batch sizes converted to LiteRT on LiteRT (see {@link
 * ModelThreads});
 * {@code BatchMaxSize} and {@code BatchMaxDelayMicros} batch concurrent predicts (see {@link
 * ModelBatching}). The init ops run once, at load. Without a ConfigProto the session's thread
 * counts come from the system properties {@code ai.djl.tensorflow.num_interop_threads} /
 * {@code num_intraop_threads}.
 *
 * <p>A model path in TensorFlow Serving's layout, a base directory of numbered version
 * directories ({@code base/1}, {@code base/2}, ...), is served through a {@link VersionedModel}:
 * the newest version serves, new versions are polled for and swapped in while the model serves,
 * and its predictors follow the swaps (see {@link VersionedBasePath}; option {@code
 * VersionPollInterval}).
 */
public class TfjniModel extends BaseModel {
  private static final String DEFAULT_SIGNATURE = "serving_default";

  private SavedModel savedModel;
  private GraphModel graphModel;
  private VersionedModel versionedModel;

  TfjniModel(String name, Device device, TfjniEngine engine) {
    super(name);
    this.manager = engine.newBaseManager(device);
    this.manager.setName("tfjniModel");
  }

  @Override
  public void load(Path modelPath, String prefix, Map<String, ?> options)
      throws FileNotFoundException, MalformedModelException {
    if (block != null) {
      throw new IllegalStateException("the model is loaded already");
    }
    String name = prefix == null ? modelName : prefix;
    if (Files.isRegularFile(modelPath)) {
      // Model.load(path/to/graph.pb): the file names the model.
      name = modelPath.getFileName().toString();
      modelPath = modelPath.toAbsolutePath().getParent();
    }
    // DJL's model directory steps into a lone subdirectory (base/1 of a base path of one version).
    Path asGiven = modelPath.toAbsolutePath();
    setModelDir(modelPath);
    wasLoaded = true;
    String[] tags = {SavedModel.DEFAULT_TAG};
    String signatureKey = DEFAULT_SIGNATURE;
    SessionOptions sessionOptions = SessionOptions.defaults();
    List<String> graphInputs = null;
    List<String> graphOutputs = null;
    Map<String, ?> given = options == null ? Map.of() : options;
    Object tagOption = given.get("Tags");
    if (tagOption != null) {
      tags = names(tagOption);
    }
    Object key = given.get("SignatureDefKey");
    if (key != null) {
      signatureKey = key.toString();
    }
    Object config = given.get("ConfigProto");
    if (config != null) {
      // As in DJL's engine, a ConfigProto replaces the thread system properties.
      sessionOptions.rawConfigProto(configBytes(config));
    } else {
      TfjniEngine.threadOptions(sessionOptions);
    }
    ModelThreads.apply(given, sessionOptions);
    ModelBatching batching = ModelBatching.of(given);
    if (given.get("Inputs") != null) {
      graphInputs = Arrays.asList(names(given.get("Inputs")));
    }
    if (given.get("Outputs") != null) {
      graphOutputs = Arrays.asList(names(given.get("Outputs")));
    }
    Path graphDef = findGraphDef(name);
    if (graphDef != null) {
      loadGraphDef(graphDef, sessionOptions, graphInputs, graphOutputs, batching);
      return;
    }
    Path exportDir = findExportDir(name);
    if (tags.length == 0) {
      throw new MalformedModelException("tfjni loads a SavedModel's meta graph by its tags;"
          + " the option Tags is empty");
    }
    if (VersionedBasePath.isBasePath(asGiven, exportDir, given)) {
      versionedModel = VersionedBasePath.open(asGiven, sessionOptions, tags, given);
      try {
        block = new VersionedSymbolBlock(versionedModel, signatureKey, batching);
      } catch (RuntimeException | MalformedModelException e) {
        versionedModel.close();
        versionedModel = null;
        throw e;
      }
      return;
    }
    SavedModel loaded;
    try {
      loaded = SavedModel.load(exportDir, sessionOptions, tags);
    } catch (TensorFlowException e) {
      throw new MalformedModelException("cannot load the SavedModel in " + exportDir
          + " with tags " + String.join(",", tags) + ": " + e.getMessage(), e);
    }
    try {
      Signature signature = findSignature(loaded, signatureKey);
      TfjniSymbolBlock signatureBlock = new TfjniSymbolBlock(loaded, signature);
      if (batching != null) {
        signatureBlock.batchAcrossCallers(batching);
      }
      block = signatureBlock;
      savedModel = loaded;
    } catch (RuntimeException | MalformedModelException e) {
      loaded.close();
      throw e;
    }
  }

  private void loadGraphDef(Path graphDef, SessionOptions sessionOptions, List<String> inputs,
      List<String> outputs, ModelBatching batching) throws MalformedModelException {
    if (inputs == null || outputs == null || inputs.isEmpty() || outputs.isEmpty()) {
      throw new MalformedModelException("a frozen GraphDef (" + graphDef + ") has no signature:"
          + " name its input and output tensors with the options Inputs and Outputs, e.g."
          + " Criteria.builder().optOption(\"Inputs\", \"x:0\").optOption(\"Outputs\","
          + " \"Identity:0\")");
    }
    GraphModel loaded;
    try {
      loaded = GraphModel.load(graphDef, sessionOptions);
    } catch (TensorFlowException e) {
      throw new MalformedModelException("cannot load the GraphDef " + graphDef + ": "
          + e.getMessage(), e);
    }
    try {
      TfjniSymbolBlock graphBlock = new TfjniSymbolBlock(loaded, inputs, outputs);
      if (batching != null) {
        graphBlock.batchAcrossCallers(batching);
      }
      block = graphBlock;
      graphModel = loaded;
    } catch (TensorFlowException e) {
      loaded.close();
      throw new MalformedModelException("the GraphDef " + graphDef + " has no tensors "
          + inputs + " -> " + outputs + ": " + e.getMessage(), e);
    } catch (RuntimeException | MalformedModelException e) {
      loaded.close();
      throw e;
    }
  }

  /** A String[] or a comma-separated String option, as DJL's TensorFlow engine reads Tags. */
  private static String[] names(Object option) {
    if (option instanceof String[]) {
      return ((String[]) option).clone();
    }
    String text = option.toString();
    return text.isEmpty() ? new String[0] : text.split(",");
  }

  /** modelDir/NAME.pb (or modelDir/NAME if it names a .pb file), unless it is a SavedModel. */
  private Path findGraphDef(String name) {
    for (Path candidate : new Path[] {modelDir.resolve(name + ".pb"), modelDir.resolve(name)}) {
      if (Files.isRegularFile(candidate) && candidate.getFileName().toString().endsWith(".pb")
          && !candidate.getFileName().toString().equals("saved_model.pb")) {
        return candidate;
      }
    }
    return null;
  }

  static Signature findSignature(SavedModel model, String key)
      throws MalformedModelException {
    for (Signature s : model.signatures()) {
      if (s.key().equals(key)) {
        return s;
      }
    }
    throw new MalformedModelException("the SavedModel has no signature '" + key
        + "'; its signatures are " + model.signatures().stream().map(Signature::key)
            .collect(Collectors.joining(", ", "[", "]"))
        + " (choose one with Criteria.builder().optOption(\"SignatureDefKey\", ...))");
  }

  private static byte[] configBytes(Object config) throws MalformedModelException {
    if (config instanceof byte[]) {
      return ((byte[]) config).clone();
    }
    if (config instanceof String) {
      try {
        return Base64.getDecoder().decode((String) config);
      } catch (IllegalArgumentException e) {
        throw new MalformedModelException("ConfigProto is not Base64: " + config, e);
      }
    }
    try {
      Method toByteArray = config.getClass().getMethod("toByteArray");
      return (byte[]) toByteArray.invoke(config);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new MalformedModelException("ConfigProto must be bytes, Base64 text or a protobuf"
          + " message, got " + config.getClass().getName(), e);
    }
  }

  /**
   * The SavedModel directory: modelDir/prefix if it holds saved_model.pb, else modelDir if it
   * does, else null.
   */
  private Path findExportDir(String prefix) {
    Path candidate = modelDir.resolve(prefix);
    if (Files.isRegularFile(candidate.resolve("saved_model.pb"))) {
      return candidate;
    }
    if (Files.isRegularFile(modelDir.resolve("saved_model.pb"))) {
      return modelDir;
    }
    return null;
  }

  /**
   * The tfjni SavedModel behind this model.
   *
   * @return the model, owned by this model (closed by {@code close()}); null before load or for
   *     a frozen graph
   */
  public SavedModel getSavedModel() {
    return savedModel;
  }

  /**
   * The tfjni GraphModel behind this model.
   *
   * @return the graph, owned by this model (closed by {@code close()}); null before load or for
   *     a SavedModel
   */
  public GraphModel getGraphModel() {
    return graphModel;
  }

  /**
   * The versioned model behind this model, when its path is a base directory of numbered
   * versions.
   *
   * @return the model, owned by this model (closed by {@code close()}): {@link
   *     VersionedModel#refresh()} polls for new versions now, {@link VersionedModel#status()}
   *     and {@link VersionedModel#metrics()} tell what it serves; null before load or for a
   *     single SavedModel or frozen graph
   */
  public VersionedModel getVersionedModel() {
    return versionedModel;
  }

  /** A predictor that keeps one translator context instead of making one per call. */
  @Override
  public <I, O> Predictor<I, O> newPredictor(Translator<I, O> translator, Device device) {
    return new TfjniPredictor<>(this, translator, device);
  }

  @Override
  public void setBlock(Block block) {
    throw new UnsupportedOperationException("a TensorFlow model's block is its SavedModel");
  }

  @Override
  public void close() {
    if (block != null) {
      ((TfjniSymbolBlock) block).close();
      block = null;
    }
    if (savedModel != null) {
      savedModel.close();
      savedModel = null;
    }
    if (graphModel != null) {
      graphModel.close();
      graphModel = null;
    }
    if (versionedModel != null) {
      versionedModel.close();
      versionedModel = null;
    }
    super.close();
  }
}
