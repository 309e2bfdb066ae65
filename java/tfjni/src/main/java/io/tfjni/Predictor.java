package io.tfjni;

import io.tfjni.internal.NativeResource;
import io.tfjni.internal.SpecDecoder;
import java.util.List;
import java.util.Objects;

/**
 * A prepared run of a model: feeds and fetches are resolved once, then {@link #run(Tensor[],
 * RunResult)} passes every handle to native code in one crossing and, with a reused {@link
 * RunResult}, allocates nothing on the Java heap.
 *
 * <p>Run options (a timeout, a trace level) belong to a predictor: {@link
 * #withOptions(RunOptions)} makes a predictor whose every run uses them, encoded once, so its
 * runs allocate nothing either. {@link #runWithMetadata} also returns TensorFlow's report of the
 * run (step statistics when a trace level is set).
 *
 * <p>A predictor of a {@link LiteRtModel} runs LiteRT the same way; it has no run options or
 * run metadata (those are TensorFlow's: {@link #withOptions} and {@link #runWithMetadata} throw
 * {@link TensorFlowException} with code UNIMPLEMENTED).
 *
 * <p>Thread safety: a predictor may be run from many threads at once, each with its own
 * RunResult (a LiteRT model's runs take turns). Closing it (or its model) rejects new runs and
 * waits for runs in flight.
 */
// Its base lives in io.tfjni.internal, which is not exported: users see its public methods only.
@SuppressWarnings("exports")
public final class Predictor extends NativeResource {
  private final Model model;
  private final List<TensorSpec> inputs;
  private final List<TensorSpec> outputs;
  private final RunOptions options;
  /** The serialized RunOptions every run passes; null when none is set (the plain run). */
  private final byte[] encodedOptions;

  private Predictor(Model model, long handle, RunOptions options) {
    super(handle);
    this.model = model;
    SpecDecoder endpoints = new SpecDecoder(nativeEndpoints(handle));
    this.inputs = List.copyOf(endpoints.readSpecs());
    this.outputs = List.copyOf(endpoints.readSpecs());
    this.options = options;
    this.encodedOptions = encode(options);
  }

  private static byte[] encode(RunOptions options) {
    return options.isDefault() ? null : options.encoded();
  }

  static Predictor forSignature(SavedModel model, String signatureKey, List<String> inputKeys,
      List<String> outputKeys) {
    long m = NativeResource.acquire(model);
    try {
      long handle = nativeForSignature(m, signatureKey, inputKeys.toArray(new String[0]),
          outputKeys.toArray(new String[0]));
      return model.register(create(model, handle));
    } finally {
      NativeResource.release(model);
    }
  }

  static Predictor forTensors(GraphModel model, List<String> inputNames,
      List<String> outputNames) {
    long m = NativeResource.acquire(model);
    try {
      long handle = nativeForTensors(m, inputNames.toArray(new String[0]),
          outputNames.toArray(new String[0]));
      return model.register(create(model, handle));
    } finally {
      NativeResource.release(model);
    }
  }

  static Predictor forLiteRt(LiteRtModel model, String signatureKey) {
    long m = NativeResource.acquire(model);
    try {
      return model.register(create(model, LiteRtModel.nativePredictor(m, signatureKey)));
    } finally {
      NativeResource.release(model);
    }
  }

  private static Predictor create(Model model, long handle) {
    return create(model, handle, RunOptions.defaults());
  }

  private static Predictor create(Model model, long handle, RunOptions options) {
    try {
      return new Predictor(model, handle, options);
    } catch (RuntimeException | Error e) {
      nativeDelete(handle);
      throw e;
    }
  }

  /**
   * A predictor with the same inputs and outputs whose every run uses {@code options} (encoded
   * here, once). It belongs to the same model and is closed with it; this predictor keeps its own
   * options. {@code RunOptions.defaults()} gives a plain predictor.
   *
   * @throws TensorFlowException (INVALID_ARGUMENT) if the options cannot be encoded (raw bytes
   *     that are not whole protobuf fields), or set a timeout on a model whose session runs ops on
   *     the calling thread ({@link SessionOptions#runOnCallerThread()}), where TensorFlow never
   *     enforces it
   * @param options the options of every run of the new predictor
   * @return the new predictor, owned by the model (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if this predictor or its model is closed
   */
  public Predictor withOptions(RunOptions options) {
    Objects.requireNonNull(options, "options");
    encode(options);  // refuse bad options before making anything
    NativeResource.acquire(model);
    try {
      long self = acquire();
      try {
        nativeCheckOptions(self, options.timeoutMillis().orElse(0));
        return model.register(create(model, nativeCopy(self), options));
      } finally {
        release();
      }
    } finally {
      NativeResource.release(model);
    }
  }

  /**
   * The options every run of this predictor uses.
   *
   * @return the options; {@link RunOptions#defaults()} for a predictor made without any
   */
  public RunOptions options() {
    return options;
  }

  /**
   * What each input must look like.
   *
   * @return the inputs' specs, in the order {@code run} takes them
   */
  public List<TensorSpec> inputs() {
    return inputs;
  }

  /**
   * The outputs fetched.
   *
   * @return the outputs' specs, in the order a {@link RunResult} holds them
   */
  public List<TensorSpec> outputs() {
    return outputs;
  }

  /**
   * A result holder to pass to {@link #run(Tensor[], RunResult)} again and again.
   *
   * @return an empty result, owned by the caller: close it to free the outputs it holds
   */
  public RunResult newResult() {
    return new RunResult(this);
  }

  /**
   * Runs once into a new result.
   *
   * @param inputTensors the inputs, as {@link #inputs()} (not closed: they stay the caller's)
   * @return the outputs, owned by the caller: close it
   * @throws IllegalArgumentException if the inputs do not match {@link #inputs()} in number,
   *     dtype or shape
   * @throws IllegalStateException if the predictor or its model is closed
   * @throws TensorFlowException TensorFlow's error if the run fails ({@code DEADLINE_EXCEEDED}
   *     past the options' timeout)
   */
  public RunResult run(Tensor... inputTensors) {
    RunResult result = newResult();
    try {
      return run(inputTensors, result);
    } catch (RuntimeException | Error e) {
      result.close();
      throw e;
    }
  }

  /**
   * Runs with a single input into a reused result.
   *
   * @param input the one input (not closed: it stays the caller's)
   * @param into the result to refill (see {@link #run(Tensor[], RunResult)})
   * @return {@code into}
   * @throws IllegalArgumentException if the inputs do not match {@link #inputs()} in number,
   *     dtype or shape
   * @throws IllegalStateException if the predictor or its model is closed
   * @throws TensorFlowException TensorFlow's error if the run fails ({@code DEADLINE_EXCEEDED}
   *     past the options' timeout)
   */
  public RunResult run(Tensor input, RunResult into) {
    Objects.requireNonNull(into, "into");
    Tensor[] single = into.singleInput();
    single[0] = input;
    try {
      return run(single, into);
    } finally {
      single[0] = null;
    }
  }

  /**
   * Runs into a reused result: the tensors it held are freed and replaced by this run's outputs.
   * Inputs must match {@link #inputs()} in number, order, dtype and shape. A run that exceeds
   * the options' timeout throws {@link TensorFlowException} with code DEADLINE_EXCEEDED, and the
   * predictor stays usable.
   *
   * @param inputTensors the inputs, as {@link #inputs()} (not closed: they stay the caller's)
   * @param into a result of this predictor's {@link #newResult()}, refilled
   * @return {@code into}
   * @throws IllegalArgumentException if the inputs do not match {@link #inputs()} in number,
   *     dtype or shape
   * @throws IllegalStateException if the predictor or its model is closed
   * @throws TensorFlowException TensorFlow's error if the run fails ({@code DEADLINE_EXCEEDED}
   *     past the options' timeout)
   */
  public RunResult run(Tensor[] inputTensors, RunResult into) {
    execute(inputTensors, into, encodedOptions, false);
    return into;
  }

  /**
   * Runs into a reused result, as {@link #run(Tensor[], RunResult)}, and returns TensorFlow's
   * report of the run. Its step statistics are empty unless this predictor's options set a trace
   * level (see {@link #withOptions}). Meant for diagnosis: it allocates the metadata.
   *
   * @param inputTensors the inputs, as {@link #inputs()} (not closed: they stay the caller's)
   * @param into a result of this predictor's {@link #newResult()}, refilled
   * @return TensorFlow's report of the run
   * @throws IllegalArgumentException if the inputs do not match {@link #inputs()} in number,
   *     dtype or shape
   * @throws IllegalStateException if the predictor or its model is closed
   * @throws TensorFlowException TensorFlow's error if the run fails ({@code DEADLINE_EXCEEDED}
   *     past the options' timeout)
   */
  public RunMetadata runWithMetadata(Tensor[] inputTensors, RunResult into) {
    return RunMetadata.decode(execute(inputTensors, into, encodedOptions, true));
  }

  /** One run with these options (the map API's, per call) into a new result (close it). */
  RunResult run(RunOptions callOptions, Tensor[] inputTensors) {
    if (callOptions.timeoutMillis().orElse(0) > 0) {
      long self = acquire();
      try {
        nativeCheckOptions(self, callOptions.timeoutMillis().getAsLong());
      } finally {
        release();
      }
    }
    RunResult result = newResult();
    try {
      execute(inputTensors, result, encode(callOptions), false);
      return result;
    } catch (RuntimeException | Error e) {
      result.close();
      throw e;
    }
  }

  /**
   * Runs; {@code runOptions} null runs without options. Returns the encoded run metadata if
   * asked for, else null.
   */
  private byte[] execute(Tensor[] inputTensors, RunResult into, byte[] runOptions,
      boolean withMetadata) {
    Objects.requireNonNull(inputTensors, "inputs");
    Objects.requireNonNull(into, "into");
    if (into.owner() != this) {
      throw new IllegalArgumentException("the result holder belongs to another predictor");
    }
    if (inputTensors.length != inputs.size()) {
      throw new IllegalArgumentException("expected " + inputs.size() + " inputs "
          + inputs.stream().map(TensorSpec::key).toList() + ", got " + inputTensors.length);
    }
    long[] handles = into.handles();
    byte[] metadata = null;
    // Only the predictor is held, not its model too: closing the model closes its predictors
    // first, and that waits for this run. One shared counter per run instead of two, which the
    // cores of concurrent callers would otherwise pass back and forth.
    long self = acquire();
    try {
      int acquired = 0;
      try {
        for (; acquired < inputTensors.length; acquired++) {
          Tensor input = inputTensors[acquired];
          if (input == null) {
            throw new NullPointerException("input '" + inputs.get(acquired).key() + "' is null");
          }
          if (into.holds(input)) {
            // Refilling the result frees its tensors: this one would be freed while fed (and
            // closing it while this thread holds it would wait forever).
            throw new IllegalArgumentException("input '" + inputs.get(acquired).key()
                + "' is an output of the RunResult this run refills; copy it or run into"
                + " another RunResult");
          }
          handles[acquired] = NativeResource.acquire(input);
        }
        into.detachOutputs();
        try {
          if (runOptions != null || withMetadata) {
            metadata = nativeRunWithOptions(self, handles, runOptions, withMetadata);
          } else if (inputTensors.length == 1 && handles.length == 2) {
            // One input, one output: handles in and out as plain arguments, no array access
            // from native code. The previous output is freed there, so it is no longer ours.
            long previous = handles[1];
            handles[1] = 0;
            handles[1] = nativeRunOne(self, handles[0], previous);
          } else {
            nativeRun(self, handles);
          }
        } finally {
          into.attachOutputs();
        }
      } finally {
        for (int i = 0; i < acquired; i++) {
          NativeResource.release(inputTensors[i]);
        }
      }
    } finally {
      release();
    }
    return metadata;
  }

  @Override
  protected void free(long handle) {
    model.unregister(this);
    nativeDelete(handle);
  }

  private static native long nativeForSignature(long model, String signatureKey,
      String[] inputKeys, String[] outputKeys);

  private static native long nativeForTensors(long model, String[] inputNames,
      String[] outputNames);

  private static native byte[] nativeEndpoints(long handle);

  /**
   * {@code handles}: the inputs' handles, then the previous outputs' handles, which native code
   * frees before the run and replaces with the new outputs' (zero where there is none). One array,
   * so the run reads and writes it once.
   */
  private static native void nativeRun(long handle, long[] handles);

  /**
   * {@link #nativeRun} for one input and one output: frees {@code previousOutput} (if not 0)
   * before the run and returns the new output's handle.
   */
  private static native long nativeRunOne(long handle, long input, long previousOutput);

  private static native void nativeDelete(long handle);

  /** Refuses options the session would ignore (a timeout with caller-thread execution). */
  private static native void nativeCheckOptions(long handle, long timeoutMillis);

  /** A new native predictor with the same feeds and fetches. */
  private static native long nativeCopy(long handle);

  /**
   * As {@link #nativeRun}, with a serialized RunOptions (null: none). With {@code withMetadata},
   * returns the run metadata (raw bytes, then the parsed step statistics), else null.
   */
  private static native byte[] nativeRunWithOptions(long handle, long[] handles,
      byte[] runOptions, boolean withMetadata);
}
