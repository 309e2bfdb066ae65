package io.tfjni;

import io.tfjni.internal.NativeLibrary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A TensorFlow SavedModel loaded into a session. Variables are restored and init ops (lookup
 * tables, ...) run once, at load.
 *
 * <p>Thread safety: run it, and its predictors, from any number of threads. {@link #close()}
 * rejects new runs with {@link IllegalStateException}, waits for the runs in flight to finish,
 * closes the model's predictors and frees the session.
 */
public final class SavedModel extends SessionModel {
  /** The tag of the meta graph TensorFlow Serving and {@link #load(Path)} load. */
  public static final String DEFAULT_TAG = "serve";
  /** The signature {@code tf.saved_model.save} exports a model's call as. */
  public static final String DEFAULT_SIGNATURE = "serving_default";

  private final List<Signature> signatures;
  /** Set once at load, before the model is handed out; {@link PreferredLiteRt#none()} if unused. */
  private PreferredLiteRt liteRt = PreferredLiteRt.none();
  private final Object mapApiLock = new Object();
  /** Predictors of the map API; replaced as a whole under mapApiLock, read without a lock. */
  private volatile MapApiPredictor[] mapApiPredictors = new MapApiPredictor[0];

  private SavedModel(long handle) {
    super(handle);
    this.signatures = Signature.decodeAll(nativeSignatures(handle));
  }

  /**
   * Loads the meta graph tagged {@value #DEFAULT_TAG} with TensorFlow's default session settings.
   *
   * @param exportDir the SavedModel directory (holding {@code saved_model.pb})
   * @return the model, owned by the caller: close it, which closes its predictors
   * @throws NullPointerException if an argument is null
   * @throws TensorFlowException TensorFlow's error if the directory holds no loadable SavedModel
   *     with those tags ({@code NOT_FOUND} for a missing directory or meta graph)
   */
  public static SavedModel load(Path exportDir) {
    return load(exportDir, SessionOptions.defaults(), DEFAULT_TAG);
  }

  /**
   * Loads the meta graph with exactly these tags.
   *
   * <p>With {@link SessionOptions#preferLiteRt(int)}, it also loads the LiteRT models converted
   * from it ({@link LiteRtConversions}: {@code DIR/litert/}) that belong to its signatures, for
   * {@link #predictor(String, int)}; a model that cannot be loaded, or does not take and give
   * what its signature does, fails the load (the message names the file).
   *
   * @param exportDir the SavedModel directory (holding {@code saved_model.pb})
   * @param options the session's settings (threads, devices, a ConfigProto, LiteRT)
   * @param tags the meta graph's tags, at least one
   * @return the model, owned by the caller: close it, which closes its predictors
   * @throws IllegalArgumentException if no tag is given, or the LiteRT manifest is malformed
   * @throws NullPointerException if an argument is null
   * @throws IllegalStateException if LiteRT is preferred, a converted model exists and LiteRT's
   *     runtime library is not configured
   * @throws TensorFlowException TensorFlow's error if the directory holds no loadable SavedModel
   *     with those tags ({@code NOT_FOUND} for a missing directory or meta graph); LiteRT's for a
   *     converted model it cannot load; {@code INVALID_ARGUMENT} for one that does not fit
   */
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
    ThreadPools.started(options);
    long handle = nativeLoad(exportDir.toString(), tags.clone(), options.scalars(),
        options.visibleDevices(), options.rawConfig(), options.poolThreads(), options.poolNames());
    SavedModel model;
    try {
      model = new SavedModel(handle);
    } catch (RuntimeException | Error e) {
      nativeDelete(handle);
      throw e;
    }
    if (options.liteRtThreads() > 0) {
      try {
        model.liteRt = PreferredLiteRt.load(exportDir, model.signatures, options.liteRtThreads());
      } catch (RuntimeException | Error e) {
        model.close();
        throw e;
      }
    }
    return model;
  }

  /**
   * Every SignatureDef of the loaded meta graph.
   *
   * @return the signatures, sorted by key
   */
  public List<Signature> signatures() {
    return signatures;
  }

  /**
   * One SignatureDef.
   *
   * @param key the signature's key, e.g. {@value #DEFAULT_SIGNATURE}
   * @return the signature
   * @throws IllegalArgumentException if there is no such signature (the message lists them)
   */
  public Signature signature(String key) {
    return Signature.byKey(signatures, key);
  }

  /**
   * A predictor feeding every input and fetching every output of a signature, in key order.
   *
   * @param signatureKey the signature's key
   * @return the predictor, owned by this model (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the signature, an input or an output does not exist
   * @throws IllegalStateException if the model is closed
   */
  public Predictor predictor(String signatureKey) {
    return predictor(signatureKey, signature(signatureKey).inputKeys(), List.of());
  }

  /**
   * A predictor for runs of one batch size: LiteRT's, if the model was loaded with {@link
   * SessionOptions#preferLiteRt(int)} and the signature was converted at this size ({@link
   * #liteRtBatchSizes(String)}; choosing it is logged to the {@code System.Logger} "io.tfjni", at
   * INFO the first time for each signature and size of this model, at DEBUG after), else TensorFlow's, as {@link #predictor(String)}. Either feeds every input and
   * fetches every output in key order; LiteRT's takes exactly this batch size (its specs are
   * static), TensorFlow's any. Run options and run metadata are TensorFlow's only.
   *
   * @param signatureKey the signature's key
   * @param batchSize the leading dimension of the inputs the predictor will be given
   * @return the predictor, owned by this model (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the signature does not exist or {@code batchSize} is
   *     below 1
   * @throws IllegalStateException if the model is closed
   */
  public Predictor predictor(String signatureKey, int batchSize) {
    signature(signatureKey);
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
    }
    if (isClosed()) {
      throw new IllegalStateException("SavedModel is closed");
    }
    Predictor liteRtPredictor = liteRt.predictor(signatureKey, batchSize);
    return liteRtPredictor != null ? liteRtPredictor : predictor(signatureKey);
  }

  /**
   * The batch sizes at which {@link #predictor(String, int)} runs a signature with LiteRT.
   *
   * @param signatureKey the signature's key
   * @return the sizes, ascending; empty unless the model was loaded with {@link
   *     SessionOptions#preferLiteRt(int)} and the signature was converted ({@code tfjni convert})
   * @throws IllegalArgumentException if the signature does not exist
   */
  public List<Integer> liteRtBatchSizes(String signatureKey) {
    signature(signatureKey);
    return liteRt.batchSizes(signatureKey);
  }

  /**
   * LiteRT predictors to run beside a predictor of {@link #predictor(String, List, List)}: one per
   * batch size at which {@link #predictor(String, int)} runs the signature with LiteRT, if
   * {@code inputKeys} and {@code outputKeys} are the signature's every input and output in key
   * order (what a LiteRT predictor feeds and fetches; an empty {@code outputKeys} is every
   * output), so that each takes and gives what that predictor does at its size. For any other
   * keys, or without {@link SessionOptions#preferLiteRt(int)}, none. Each predictor made is
   * logged as {@link #predictor(String, int)} logs it.
   *
   * @param signatureKey the signature's key
   * @param inputKeys the inputs the TensorFlow predictor feeds, in order
   * @param outputKeys the outputs it fetches, in order; empty for all
   * @return the predictors by batch size, ascending; owned by this model (closed with it)
   * @throws IllegalArgumentException if the signature does not exist
   * @throws IllegalStateException if the model is closed
   */
  public Map<Integer, Predictor> liteRtPredictors(String signatureKey, List<String> inputKeys,
      List<String> outputKeys) {
    Map<Integer, Predictor> predictors = new TreeMap<>();
    if (liteRtRunsBeside(signature(signatureKey), inputKeys, outputKeys)) {
      for (int size : liteRtBatchSizes(signatureKey)) {
        predictors.put(size, predictor(signatureKey, size));
      }
    }
    return Collections.unmodifiableMap(predictors);
  }

  /**
   * The LiteRT predictor of one batch size to run beside a predictor of these keys, under the
   * rule of {@link #liteRtPredictors}.
   *
   * @param signatureKey the signature's key
   * @param inputKeys the inputs the TensorFlow predictor feeds, in order
   * @param outputKeys the outputs it fetches, in order; empty for all
   * @param batchSize the batch size
   * @return the predictor, owned by this model (closed with it); empty if there is none
   * @throws IllegalArgumentException if the signature does not exist
   * @throws IllegalStateException if the model is closed
   */
  public Optional<Predictor> liteRtPredictor(String signatureKey, List<String> inputKeys,
      List<String> outputKeys, int batchSize) {
    if (!liteRtRunsBeside(signature(signatureKey), inputKeys, outputKeys)
        || !liteRtBatchSizes(signatureKey).contains(batchSize)) {
      return Optional.empty();
    }
    return Optional.of(predictor(signatureKey, batchSize));
  }

  /** Whether a predictor of these keys feeds and fetches what a LiteRT predictor does. */
  private static boolean liteRtRunsBeside(Signature signature, List<String> inputKeys,
      List<String> outputKeys) {
    return inputKeys.equals(signature.inputKeys())
        && (outputKeys.isEmpty() || outputKeys.equals(signature.outputKeys()));
  }

  /**
   * A predictor feeding {@code inputKeys} in that order and fetching {@code outputKeys} (every
   * output, in key order, if empty). {@code inputKeys} must hold every input of the signature, as
   * a call of the signature in TensorFlow Python must: one left out is an {@link
   * IllegalArgumentException} naming it (see {@link #partialPredictor} to feed only some).
   *
   * @param signatureKey the signature's key
   * @param inputKeys the inputs, in the order the predictor's runs take them
   * @param outputKeys the outputs to fetch, in order; empty for all
   * @return the predictor, owned by this model (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the signature, an input or an output does not exist
   * @throws IllegalStateException if the model is closed
   */
  public Predictor predictor(String signatureKey, List<String> inputKeys,
      List<String> outputKeys) {
    return prepare(signatureKey, inputKeys, outputKeys, false);
  }

  /**
   * As {@link #predictor(String, List, List)}, but {@code inputKeys} may leave out inputs of the
   * signature: the run feeds only these, as a TensorFlow 1 {@code session.run} with a partial feed
   * dict does. Meant for inputs the graph does not need for the outputs fetched, or that have a
   * default ({@code tf.compat.v1.placeholder_with_default}). An input the outputs do need and
   * that has no default fails at run time with TensorFlow's own error, which names the graph's
   * placeholder rather than the signature's input.
   *
   * @param signatureKey the signature's key
   * @param inputKeys the inputs fed, in the order the predictor's runs take them
   * @param outputKeys the outputs to fetch, in order; empty for all
   * @return the predictor, owned by this model (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if the signature, an input or an output does not exist
   * @throws IllegalStateException if the model is closed
   */
  public Predictor partialPredictor(String signatureKey, List<String> inputKeys,
      List<String> outputKeys) {
    return prepare(signatureKey, inputKeys, outputKeys, true);
  }

  private Predictor prepare(String signatureKey, List<String> inputKeys, List<String> outputKeys,
      boolean partialFeed) {
    Objects.requireNonNull(inputKeys, "inputKeys");
    Objects.requireNonNull(outputKeys, "outputKeys");
    Signature signature = signature(signatureKey);
    inputKeys.forEach(signature::input);
    outputKeys.forEach(signature::output);
    if (!partialFeed) {
      requireEveryInput(signature, inputKeys);
    }
    return Predictor.forSignature(this, signatureKey, inputKeys, outputKeys);
  }

  /** Refuses a feed that leaves out inputs of the signature, naming them. */
  private static void requireEveryInput(Signature signature, List<String> inputKeys) {
    List<String> missing = new ArrayList<>();
    for (TensorSpec input : signature.inputs()) {
      if (!inputKeys.contains(input.key())) {
        missing.add("'" + input.key() + "'");
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("signature '" + signature.key() + "' was not given input"
          + (missing.size() > 1 ? "s " : " ") + String.join(", ", missing) + "; its inputs are "
          + signature.inputKeys() + " (SavedModel.partialPredictor feeds only some on purpose)");
    }
  }

  /**
   * Runs {@value #DEFAULT_SIGNATURE}; see {@link #run(String, Map)}.
   *
   * @param inputs every input of the signature by key (not closed: they stay the caller's)
   * @return every output of the signature, owned by the caller: close it
   * @throws IllegalArgumentException if an input is missing or unknown, or does not match the
   *     signature's dtype or shape
   * @throws IllegalStateException if the model is closed
   * @throws TensorFlowException TensorFlow's error if the run fails
   */
  public RunResult run(Map<String, Tensor> inputs) {
    return run(DEFAULT_SIGNATURE, inputs);
  }

  /**
   * Runs a signature with inputs by key and returns every output (close the result). The map
   * must hold every input of the signature; one left out is an {@link IllegalArgumentException}
   * naming it. The predictor for each set of input keys is prepared (and checked) once and
   * reused; finding it again allocates nothing, so a call allocates only the result it returns
   * and the array of inputs in order.
   *
   * @param signatureKey the signature's key
   * @param inputs every input of the signature by key (not closed: they stay the caller's)
   * @return every output of the signature, owned by the caller: close it
   * @throws IllegalArgumentException if an input is missing or unknown, or does not match the
   *     signature's dtype or shape
   * @throws IllegalStateException if the model is closed
   * @throws TensorFlowException TensorFlow's error if the run fails
   */
  public RunResult run(String signatureKey, Map<String, Tensor> inputs) {
    Objects.requireNonNull(signatureKey, "signatureKey");
    Objects.requireNonNull(inputs, "inputs");
    MapApiPredictor prepared = mapApiPredictor(signatureKey, inputs);
    return prepared.predictor().run(prepared.inOrder(inputs));
  }

  /**
   * Runs {@value #DEFAULT_SIGNATURE} with run options; see {@link #run(String, Map, RunOptions)}.
   *
   * @param inputs every input of the signature by key (not closed: they stay the caller's)
   * @param options this call's options
   * @return every output of the signature, owned by the caller: close it
   * @throws IllegalArgumentException if an input is missing or unknown, or does not match the
   *     signature's dtype or shape
   * @throws IllegalStateException if the model is closed
   * @throws TensorFlowException TensorFlow's error if the run fails ({@code DEADLINE_EXCEEDED}
   *     past the timeout)
   */
  public RunResult run(Map<String, Tensor> inputs, RunOptions options) {
    return run(DEFAULT_SIGNATURE, inputs, options);
  }

  /**
   * As {@link #run(String, Map)}, with run options for this call (a timeout, say: a run that
   * exceeds it throws {@link TensorFlowException} with code DEADLINE_EXCEEDED and the model
   * stays usable). The options are encoded once per {@code RunOptions} object; reuse it, or for
   * a hot loop prepare a predictor with {@link Predictor#withOptions}. For run metadata, use a
   * predictor's {@link Predictor#runWithMetadata}.
   *
   * @param signatureKey the signature's key
   * @param inputs every input of the signature by key (not closed: they stay the caller's)
   * @param options this call's options
   * @return every output of the signature, owned by the caller: close it
   * @throws IllegalArgumentException if an input is missing or unknown, or does not match the
   *     signature's dtype or shape
   * @throws IllegalStateException if the model is closed
   * @throws TensorFlowException TensorFlow's error if the run fails ({@code DEADLINE_EXCEEDED}
   *     past the timeout)
   */
  public RunResult run(String signatureKey, Map<String, Tensor> inputs, RunOptions options) {
    Objects.requireNonNull(signatureKey, "signatureKey");
    Objects.requireNonNull(inputs, "inputs");
    Objects.requireNonNull(options, "options");
    MapApiPredictor prepared = mapApiPredictor(signatureKey, inputs);
    return prepared.predictor().run(options, prepared.inOrder(inputs));
  }

  /** The map API's predictor for these input keys, prepared on first use. */
  private MapApiPredictor mapApiPredictor(String signatureKey, Map<String, Tensor> inputs) {
    MapApiPredictor prepared = findMapApiPredictor(signatureKey, inputs);
    return prepared != null ? prepared : prepareMapApiPredictor(signatureKey, inputs);
  }

  /** The prepared predictor whose input keys are exactly the map's keys, or null. */
  private MapApiPredictor findMapApiPredictor(String signatureKey, Map<String, Tensor> inputs) {
    for (MapApiPredictor candidate : mapApiPredictors) {
      if (candidate.matches(signatureKey, inputs)) {
        return candidate;
      }
    }
    return null;
  }

  /** Prepares (once per signature and set of keys) the predictor for these inputs. */
  private MapApiPredictor prepareMapApiPredictor(String signatureKey, Map<String, Tensor> inputs) {
    String[] keys = inputs.keySet().toArray(new String[0]);
    for (String key : keys) {
      if (key == null) {
        throw new NullPointerException("an input key is null; inputs of signature '"
            + signatureKey + "' are " + signature(signatureKey).inputKeys());
      }
    }
    Arrays.sort(keys);
    synchronized (mapApiLock) {
      MapApiPredictor[] current = mapApiPredictors;
      int slot = current.length;
      for (int i = 0; i < current.length; i++) {
        if (current[i].signatureKey().equals(signatureKey)
            && Arrays.equals(current[i].inputKeys(), keys)) {
          if (!current[i].predictor().isClosed()) {
            return current[i];
          }
          slot = i;
        }
      }
      MapApiPredictor prepared = new MapApiPredictor(signatureKey, keys,
          predictor(signatureKey, List.of(keys), List.of()));
      MapApiPredictor[] next = Arrays.copyOf(current, Math.max(current.length, slot + 1));
      next[slot] = prepared;
      mapApiPredictors = next;
      return prepared;
    }
  }

  /** A map-API predictor: a signature fed by these input keys, sorted. */
  private record MapApiPredictor(String signatureKey, String[] inputKeys, Predictor predictor) {
    /** The map's tensors in the predictor's input order. */
    Tensor[] inOrder(Map<String, Tensor> inputs) {
      Tensor[] ordered = new Tensor[inputKeys.length];
      for (int i = 0; i < inputKeys.length; i++) {
        ordered[i] = inputs.get(inputKeys[i]);
      }
      return ordered;
    }

    /** Whether the map's keys are exactly these; allocates nothing (no key set, no iterator). */
    boolean matches(String signature, Map<String, Tensor> inputs) {
      if (inputKeys.length != inputs.size() || !signatureKey.equals(signature)
          || predictor.isClosed()) {
        return false;
      }
      for (String key : inputKeys) {
        if (!inputs.containsKey(key)) {
          return false;
        }
      }
      return true;
    }
  }

  @Override
  void freeModel(long handle) {
    mapApiPredictors = new MapApiPredictor[0];
    liteRt.close();
    nativeDelete(handle);
  }

  private static native long nativeLoad(String exportDir, String[] tags, long[] scalars,
      String visibleDevices, byte[] rawConfig, int[] poolThreads, String[] poolNames);

  private static native byte[] nativeSignatures(long handle);

  private static native void nativeDelete(long handle);

  @Override
  byte[] encodedDevices(long handle) {
    return nativeDevices(handle);
  }

  private static native byte[] nativeDevices(long handle);
}
