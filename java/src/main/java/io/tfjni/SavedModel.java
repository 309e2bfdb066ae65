package io.tfjni;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TensorFlow SavedModel loaded into a session. Variables are restored and init ops (lookup
 * tables, ...) run once, at load.
 *
 * <p>Thread safety: run it, and its predictors, from any number of threads. {@link #close()}
 * rejects new runs with {@link IllegalStateException}, waits for the runs in flight to finish,
 * closes the model's predictors and frees the session.
 */
public final class SavedModel extends Model {
  public static final String DEFAULT_TAG = "serve";
  public static final String DEFAULT_SIGNATURE = "serving_default";

  private final List<Signature> signatures;
  private final Map<String, Predictor> mapApiPredictors = new ConcurrentHashMap<>();

  private SavedModel(long handle) {
    super(handle);
    this.signatures = decodeSignatures(nativeSignatures(handle));
  }

  /** Loads the meta graph tagged "serve" with TensorFlow's default session settings. */
  public static SavedModel load(Path exportDir) {
    return load(exportDir, SessionOptions.defaults(), DEFAULT_TAG);
  }

  /** Loads the meta graph with exactly these tags. */
  public static SavedModel load(Path exportDir, SessionOptions options, String... tags) {
    Objects.requireNonNull(exportDir, "exportDir");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(tags, "tags");
    if (tags.length == 0) {
      throw new IllegalArgumentException("at least one tag is needed, e.g. \"serve\"");
    }
    for (String tag : tags) {
      Objects.requireNonNull(tag, "tag");
    }
    NativeLibrary.ensureLoaded();
    long handle = nativeLoad(exportDir.toString(), tags.clone(), options.scalars(),
        options.visibleDevices(), options.rawConfig(), options.poolThreads(), options.poolNames());
    try {
      return new SavedModel(handle);
    } catch (RuntimeException | Error e) {
      nativeDelete(handle);
      throw e;
    }
  }

  /** Every SignatureDef, sorted by key. */
  public List<Signature> signatures() {
    return signatures;
  }

  public Signature signature(String key) {
    Objects.requireNonNull(key, "key");
    for (Signature signature : signatures) {
      if (signature.key().equals(key)) {
        return signature;
      }
    }
    throw new IllegalArgumentException("no signature '" + key + "'; signatures are "
        + signatures.stream().map(Signature::key).toList());
  }

  /** A predictor feeding every input and fetching every output of a signature, in key order. */
  public Predictor predictor(String signatureKey) {
    return predictor(signatureKey, signature(signatureKey).inputKeys(), List.of());
  }

  /**
   * A predictor feeding {@code inputKeys} in that order and fetching {@code outputKeys} (every
   * output, in key order, if empty).
   */
  public Predictor predictor(String signatureKey, List<String> inputKeys,
      List<String> outputKeys) {
    Objects.requireNonNull(inputKeys, "inputKeys");
    Objects.requireNonNull(outputKeys, "outputKeys");
    Signature signature = signature(signatureKey);
    inputKeys.forEach(signature::input);
    outputKeys.forEach(signature::output);
    return Predictor.forSignature(this, signatureKey, inputKeys, outputKeys);
  }

  /** Runs {@value #DEFAULT_SIGNATURE}; see {@link #run(String, Map)}. */
  public RunResult run(Map<String, Tensor> inputs) {
    return run(DEFAULT_SIGNATURE, inputs);
  }

  /**
   * Runs a signature with inputs by key and returns every output (close the result). The
   * predictor for each set of input keys is prepared once and reused.
   */
  public RunResult run(String signatureKey, Map<String, Tensor> inputs) {
    Objects.requireNonNull(signatureKey, "signatureKey");
    Objects.requireNonNull(inputs, "inputs");
    String[] keys = inputs.keySet().toArray(new String[0]);
    for (String key : keys) {
      if (key == null) {
        throw new NullPointerException("an input key is null; inputs of signature '"
            + signatureKey + "' are " + signature(signatureKey).inputKeys());
      }
    }
    Arrays.sort(keys);
    String cacheKey = signatureKey + '\n' + String.join("\n", keys);
    Predictor predictor = mapApiPredictors.get(cacheKey);
    if (predictor == null || predictor.isClosed()) {
      predictor = predictor(signatureKey, List.of(keys), List.of());
      Predictor raced = mapApiPredictors.putIfAbsent(cacheKey, predictor);
      if (raced != null && !raced.isClosed()) {
        predictor.close();
        predictor = raced;
      } else if (raced != null) {
        mapApiPredictors.put(cacheKey, predictor);
      }
    }
    Tensor[] ordered = new Tensor[keys.length];
    for (int i = 0; i < keys.length; i++) {
      ordered[i] = inputs.get(keys[i]);
    }
    return predictor.run(ordered);
  }

  @Override
  void freeModel(long handle) {
    mapApiPredictors.clear();
    nativeDelete(handle);
  }

  private static List<Signature> decodeSignatures(byte[] encoded) {
    SpecDecoder in = new SpecDecoder(encoded);
    int count = in.readInt();
    List<Signature> result = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String key = in.readString();
      String method = in.readString();
      List<TensorSpec> inputs = in.readSpecs();
      List<TensorSpec> outputs = in.readSpecs();
      result.add(new Signature(key, method, inputs, outputs));
    }
    return List.copyOf(result);
  }

  private static native long nativeLoad(String exportDir, String[] tags, long[] scalars,
      String visibleDevices, byte[] rawConfig, int[] poolThreads, String[] poolNames);

  private static native byte[] nativeSignatures(long handle);

  private static native void nativeDelete(long handle);
}
