package io.tfjni;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The converted LiteRT models a SavedModel runs instead of TensorFlow ({@link
 * SessionOptions#preferLiteRt(int)}): every converted signature and batch size of its manifest,
 * loaded and checked against the SavedModel's signature when the SavedModel loads.
 */
final class PreferredLiteRt implements AutoCloseable {
  private static final Logger LOG = System.getLogger("io.tfjni");
  private static final PreferredLiteRt NONE = new PreferredLiteRt(Map.of());

  /** Loaded models by signature key, then batch size. */
  private final Map<String, Map<Integer, Loaded>> models;

  /** A loaded model, and whether a predictor of it has been made (and logged at INFO). */
  private record Loaded(LiteRtConversions.Conversion conversion, LiteRtModel model,
      AtomicBoolean announced) {}

  private PreferredLiteRt(Map<String, Map<Integer, Loaded>> models) {
    this.models = models;
  }

  /** Nothing preferred: every predictor is TensorFlow's. */
  static PreferredLiteRt none() {
    return NONE;
  }

  /**
   * Loads every converted model of the SavedModel's manifest that belongs to one of its
   * signatures.
   *
   * @throws TensorFlowException LiteRT's error for a file it cannot load (naming the file), or
   *     {@code INVALID_ARGUMENT} for a model whose inputs or outputs are not the signature's
   */
  static PreferredLiteRt load(Path exportDir, List<Signature> signatures, int threads) {
    LiteRtConversions conversions = LiteRtConversions.read(exportDir);
    Map<String, Map<Integer, Loaded>> models = new HashMap<>();
    List<LiteRtModel> opened = new ArrayList<>();
    try {
      for (LiteRtConversions.Conversion conversion : conversions.all()) {
        Signature signature = find(signatures, conversion.signatureKey());
        if (!conversion.converted() || signature == null) {
          continue;
        }
        LiteRtModel model = open(conversion, threads);
        opened.add(model);
        requireSameSpecs(conversion, signature, model);
        models.computeIfAbsent(conversion.signatureKey(), k -> new HashMap<>())
            .put(conversion.batchSize(), new Loaded(conversion, model, new AtomicBoolean()));
      }
    } catch (RuntimeException | Error e) {
      opened.forEach(LiteRtModel::close);
      throw e;
    }
    LOG.log(Level.DEBUG, () -> "LiteRT models for " + exportDir + ": " + opened.size()
        + " (manifest " + conversions.manifest() + ")");
    return new PreferredLiteRt(models);
  }

  private static Signature find(List<Signature> signatures, String key) {
    for (Signature signature : signatures) {
      if (signature.key().equals(key)) {
        return signature;
      }
    }
    return null;
  }

  private static LiteRtModel open(LiteRtConversions.Conversion conversion, int threads) {
    try {
      return LiteRtModel.load(conversion.file(), threads);
    } catch (TensorFlowException e) {
      throw new TensorFlowException(e.code(), "cannot load the LiteRT model of signature '"
          + conversion.signatureKey() + "' at batch " + conversion.batchSize() + " ("
          + conversion.file() + "): " + e.tensorFlowMessage());
    }
  }

  /** The converted model must take and give what the SavedModel's predictor does, in order. */
  private static void requireSameSpecs(LiteRtConversions.Conversion conversion,
      Signature savedModel, LiteRtModel model) {
    Signature liteRt = find(model.signatures(), savedModel.key());
    String problem = liteRt == null ? "it has signatures " + model.signatures().stream()
        .map(Signature::key).toList() : differences("input", savedModel.inputs(), liteRt.inputs(),
        conversion.batchSize());
    if (problem == null) {
      problem = differences("output", savedModel.outputs(), liteRt.outputs(),
          conversion.batchSize());
    }
    if (problem != null) {
      throw new TensorFlowException(TensorFlowException.Code.INVALID_ARGUMENT, "the LiteRT model "
          + conversion.file() + " does not fit signature '" + savedModel.key() + "' at batch "
          + conversion.batchSize() + ": " + problem);
    }
  }

  private static String differences(String what, List<TensorSpec> savedModel,
      List<TensorSpec> liteRt, int batch) {
    List<String> expectedKeys = savedModel.stream().map(TensorSpec::key).toList();
    List<String> keys = liteRt.stream().map(TensorSpec::key).toList();
    if (!keys.equals(expectedKeys)) {
      return what + "s " + keys + ", the SavedModel's " + expectedKeys;
    }
    for (int i = 0; i < keys.size(); i++) {
      TensorSpec expected = savedModel.get(i);
      TensorSpec actual = liteRt.get(i);
      long[] shape = actual.shape();
      boolean batched = shape != null && shape.length > 0 && shape[0] == batch;
      if (actual.dataType() != expected.dataType() || shape == null || !expected.accepts(shape)
          || (shape.length > 0 && !batched)) {
        return what + " " + actual + " where the SavedModel has " + expected;
      }
    }
    return null;
  }

  /** The batch sizes of a signature that run with LiteRT, ascending. */
  List<Integer> batchSizes(String signatureKey) {
    return models.getOrDefault(signatureKey, Map.of()).keySet().stream().sorted().toList();
  }

  /**
   * A LiteRT predictor for the signature at this batch size, or null if it has no model. The
   * first one made of each model is logged at INFO, later ones at DEBUG: a model loaded once per
   * process (a Spark executor's, a Flink TaskManager's) says once that it serves, however many
   * partitions or subtasks make a predictor of it.
   */
  Predictor predictor(String signatureKey, int batchSize) {
    Loaded loaded = models.getOrDefault(signatureKey, Map.of()).get(batchSize);
    if (loaded == null) {
      return null;
    }
    Level level = loaded.announced().compareAndSet(false, true) ? Level.INFO : Level.DEBUG;
    LOG.log(level, () -> "signature '" + signatureKey + "' at batch " + batchSize
        + " runs on LiteRT: " + loaded.conversion().file() + " (largest recorded |TensorFlow -"
        + " LiteRT| " + loaded.conversion().largestDifference() + ", converted by TensorFlow "
        + loaded.conversion().tensorFlowVersion() + ")");
    return loaded.model().predictor(signatureKey);
  }

  @Override
  public void close() {
    for (Map<Integer, Loaded> sizes : models.values()) {
      for (Loaded loaded : sizes.values()) {
        loaded.model().close();
      }
    }
  }
}
