package io.tfjni;

import java.util.List;

/**
 * The outputs of one run, in the predictor's output order. Reused across runs, it holds the same
 * {@link Tensor} objects and refills them: a tensor read from it is valid until the next run into
 * it or until it is closed. Closing it frees every output. Not for use by several threads at once.
 */
public final class RunResult implements AutoCloseable {
  private final Predictor owner;
  private final List<TensorSpec> specs;
  private final Tensor[] outputs;
  /** One run's native handles: the inputs', then the outputs' (see {@link Predictor}). */
  private final long[] handles;
  private final int firstOutput;
  /** Made on first use: only {@link Predictor#run(Tensor, RunResult)} needs it. */
  private Tensor[] singleInput;
  private boolean closed;
  private boolean filled;

  RunResult(Predictor owner) {
    this.owner = owner;
    this.specs = owner.outputs();
    this.outputs = new Tensor[specs.size()];
    for (int i = 0; i < outputs.length; i++) {
      outputs[i] = Tensor.outputHolder(specs.get(i).dataType());
    }
    this.firstOutput = owner.inputs().size();
    this.handles = new long[firstOutput + outputs.length];
  }

  /**
   * The number of outputs.
   *
   * @return the predictor's output count
   */
  public int size() {
    return outputs.length;
  }

  /**
   * The outputs' keys.
   *
   * @return the signature output keys, or graph tensor names, in output order
   */
  public List<String> keys() {
    return specs.stream().map(TensorSpec::key).toList();
  }

  /**
   * One output of the last run, owned by this result: valid until the next run into it or until
   * it is closed (do not close it).
   *
   * @param index the output's position
   * @return the output tensor
   * @throws IndexOutOfBoundsException if there is no output at {@code index}
   * @throws IllegalStateException if the result is closed or holds no successful run's outputs
   */
  public Tensor get(int index) {
    checkReadable();
    return outputs[index];
  }

  /**
   * One output of the last run, by key, owned by this result as for {@link #get(int)}.
   *
   * @param key the output's key (see {@link #keys()})
   * @return the output tensor
   * @throws IllegalArgumentException if there is no such output (the message lists them)
   * @throws IllegalStateException if the result is closed or holds no successful run's outputs
   */
  public Tensor get(String key) {
    checkReadable();
    for (int i = 0; i < outputs.length; i++) {
      if (specs.get(i).key().equals(key)) {
        return outputs[i];
      }
    }
    throw new IllegalArgumentException("no output '" + key + "'; outputs are " + keys());
  }

  /** Frees every output; idempotent. */
  @Override
  public void close() {
    closed = true;
    for (Tensor output : outputs) {
      output.close();
    }
  }

  Predictor owner() {
    if (closed) {
      throw new IllegalStateException("RunResult is closed");
    }
    return owner;
  }

  /** The inputs' handles (filled by the caller), then the outputs' (see detach and attach). */
  long[] handles() {
    return handles;
  }

  /** True if {@code tensor} is one of this result's output holders. */
  boolean holds(Tensor tensor) {
    for (Tensor output : outputs) {
      if (output == tensor) {
        return true;
      }
    }
    return false;
  }

  Tensor[] singleInput() {
    Tensor[] single = singleInput;
    if (single == null) {
      single = new Tensor[1];
      singleInput = single;
    }
    return single;
  }

  /** Hands the previous outputs to native code, which frees them before the run. */
  void detachOutputs() {
    filled = false;
    for (int i = 0; i < outputs.length; i++) {
      handles[firstOutput + i] = outputs[i].takeHandle();
    }
  }

  /**
   * Takes other tensors' native tensors as this result's outputs (a batcher's answer to a caller
   * that reuses its result), freeing the ones held; {@code sources} are left empty.
   */
  void refill(Tensor[] sources) {
    owner();  // not closed
    filled = false;
    for (int i = 0; i < outputs.length; i++) {
      if (sources[i].dataType() != specs.get(i).dataType()) {
        throw new IllegalArgumentException("output " + i + " is " + sources[i].dataType()
            + ", the result holds " + specs.get(i).dataType());
      }
    }
    for (int i = 0; i < outputs.length; i++) {
      outputs[i].close();
      outputs[i].attach(sources[i].takeHandle());
    }
    filled = true;
  }

  /** Takes this run's outputs (or, after a failed run, whatever native code left). */
  void attachOutputs() {
    boolean all = true;
    for (int i = 0; i < outputs.length; i++) {
      long handle = handles[firstOutput + i];
      if (handle != 0) {
        outputs[i].attach(handle);
        handles[firstOutput + i] = 0;
      } else {
        all = false;
      }
    }
    filled = all;
  }

  private void checkReadable() {
    if (closed) {
      throw new IllegalStateException("RunResult is closed");
    }
    if (!filled) {
      throw new IllegalStateException("RunResult holds no outputs: no successful run into it yet");
    }
  }
}
