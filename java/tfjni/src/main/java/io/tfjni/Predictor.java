package io.tfjni;

import io.tfjni.internal.SpecDecoder;
import java.util.List;
import java.util.Objects;

/**
 * A prepared run of a model: feeds and fetches are resolved once, then {@link #run(Tensor[],
 * RunResult)} passes every handle to native code in one crossing and, with a reused {@link
 * RunResult}, allocates nothing on the Java heap.
 *
 * <p>Thread safety: a predictor may be run from many threads at once, each with its own
 * RunResult. Closing it (or its model) rejects new runs and waits for runs in flight.
 */
public final class Predictor extends NativeResource {
  private final Model model;
  private final List<TensorSpec> inputs;
  private final List<TensorSpec> outputs;

  private Predictor(Model model, long handle) {
    super(handle);
    this.model = model;
    SpecDecoder endpoints = new SpecDecoder(nativeEndpoints(handle));
    this.inputs = List.copyOf(endpoints.readSpecs());
    this.outputs = List.copyOf(endpoints.readSpecs());
  }

  static Predictor forSignature(SavedModel model, String signatureKey, List<String> inputKeys,
      List<String> outputKeys) {
    long m = model.acquire();
    try {
      long handle = nativeForSignature(m, signatureKey, inputKeys.toArray(new String[0]),
          outputKeys.toArray(new String[0]));
      return model.register(create(model, handle));
    } finally {
      model.release();
    }
  }

  static Predictor forTensors(GraphModel model, List<String> inputNames,
      List<String> outputNames) {
    long m = model.acquire();
    try {
      long handle = nativeForTensors(m, inputNames.toArray(new String[0]),
          outputNames.toArray(new String[0]));
      return model.register(create(model, handle));
    } finally {
      model.release();
    }
  }

  private static Predictor create(Model model, long handle) {
    try {
      return new Predictor(model, handle);
    } catch (RuntimeException | Error e) {
      nativeDelete(handle);
      throw e;
    }
  }

  /** What each input must look like, in the order {@code run} takes them. */
  public List<TensorSpec> inputs() {
    return inputs;
  }

  /** The outputs, in the order a {@link RunResult} holds them. */
  public List<TensorSpec> outputs() {
    return outputs;
  }

  /** A result holder to pass to {@link #run(Tensor[], RunResult)} again and again. */
  public RunResult newResult() {
    return new RunResult(this);
  }

  /** Runs once and returns a new result (close it). */
  public RunResult run(Tensor... inputTensors) {
    RunResult result = newResult();
    try {
      return run(inputTensors, result);
    } catch (RuntimeException | Error e) {
      result.close();
      throw e;
    }
  }

  /** Runs with a single input into a reused result. */
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
   * Inputs must match {@link #inputs()} in number, order, dtype and shape.
   */
  public RunResult run(Tensor[] inputTensors, RunResult into) {
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
          handles[acquired] = input.acquire();
        }
        into.detachOutputs();
        try {
          if (inputTensors.length == 1 && handles.length == 2) {
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
          inputTensors[i].release();
        }
      }
    } finally {
      release();
    }
    return into;
  }

  @Override
  void free(long handle) {
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
}
