package io.tfjni.batching;

import io.tfjni.Tensor;
import java.util.List;

/**
 * One caller's outputs from a {@link BatchingPredictor}: its own rows of every output, in the
 * predictor's output order, as tensors of its own (copied out of the batch's outputs, or the
 * outputs themselves of a run that held the caller's rows alone: read them, do not write them).
 * The caller owns them: closing this result frees every one, and nothing else does.
 *
 * <p>Thread safety: reading from several threads is safe; close it once nobody reads it.
 */
public final class BatchedResult implements AutoCloseable {
  private final List<String> keys;
  private final Tensor[] outputs;

  BatchedResult(List<String> keys, Tensor[] outputs) {
    this.keys = keys;
    this.outputs = outputs;
  }

  /**
   * How many outputs there are.
   *
   * @return the predictor's output count
   */
  public int size() {
    return outputs.length;
  }

  /**
   * The output keys, in order.
   *
   * @return the keys, as the predictor fetches them
   */
  public List<String> keys() {
    return keys;
  }

  /**
   * This caller's rows of one output.
   *
   * @param index the output's position in {@link #keys()}
   * @return the tensor, owned by this result
   */
  public Tensor get(int index) {
    return outputs[index];
  }

  /**
   * This caller's rows of one output.
   *
   * @param key the output's key
   * @return the tensor, owned by this result
   * @throws IllegalArgumentException if no output has that key
   */
  public Tensor get(String key) {
    int index = keys.indexOf(key);
    if (index < 0) {
      throw new IllegalArgumentException("no output '" + key + "'; outputs are " + keys);
    }
    return outputs[index];
  }

  /** The outputs themselves, for handing them on (see {@link BatchingPredictor#predict(Tensor[], io.tfjni.RunResult)}). */
  Tensor[] outputs() {
    return outputs;
  }

  /** Frees every output; idempotent. */
  @Override
  public void close() {
    for (Tensor output : outputs) {
      if (output != null) {
        output.close();
      }
    }
  }
}
