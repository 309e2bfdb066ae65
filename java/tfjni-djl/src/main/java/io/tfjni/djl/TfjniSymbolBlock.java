package io.tfjni.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractSymbolBlock;
import ai.djl.nn.ParameterList;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Signature;
import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import java.util.List;

/**
 * A SavedModel signature as a DJL block. Its forward pass is one tfjni {@link Predictor} run
 * (feeds and fetches resolved once at load, one JNI crossing per call). As in DJL's TensorFlow
 * engine, inputs and outputs are in the order of their sorted signature keys; an input is taken
 * from the NDArray of the same name if the list has one, else by position; outputs are named by
 * their keys and belong to the first input's manager.
 */
public class TfjniSymbolBlock extends AbstractSymbolBlock implements AutoCloseable {
  private final Signature signature;
  private final Predictor predictor;
  private final List<String> inputKeys;
  private final List<String> outputKeys;

  TfjniSymbolBlock(SavedModel model, Signature signature) {
    this.signature = signature;
    // Signature lists inputs and outputs sorted by key.
    this.inputKeys = signature.inputKeys();
    this.outputKeys = signature.outputKeys();
    this.predictor = model.predictor(signature.key(), inputKeys, outputKeys);
  }

  /** The signature this block runs. */
  public Signature getSignature() {
    return signature;
  }

  @Override
  protected NDList forwardInternal(ParameterStore parameterStore, NDList inputs,
      boolean training, PairList<String, Object> params) {
    if (inputs.size() < inputKeys.size()) {
      throw new IllegalArgumentException("signature " + signature.key() + " needs "
          + inputKeys.size() + " inputs " + inputKeys + ", got " + inputs.size());
    }
    TfjniNDManager manager = (TfjniNDManager) inputs.head().getManager();
    Tensor[] feeds = new Tensor[inputKeys.size()];
    try {
      for (int i = 0; i < feeds.length; i++) {
        NDArray array = pick(inputs, i);
        feeds[i] = ((TfjniNDArray) manager.from(array)).tfArray().toTensor();
      }
      try (RunResult result = predictor.run(feeds)) {
        NDList out = new NDList(outputKeys.size());
        for (int i = 0; i < outputKeys.size(); i++) {
          TfjniNDArray array = manager.wrap(manager.tf().from(result.get(i)));
          array.setName(outputKeys.get(i));
          out.add(array);
        }
        return out;
      }
    } finally {
      for (Tensor t : feeds) {
        if (t != null) {
          t.close();
        }
      }
    }
  }

  /** The array named like input i, else the i-th. */
  private NDArray pick(NDList inputs, int i) {
    String key = inputKeys.get(i);
    NDArray positional = inputs.get(i);
    String name = positional.getName();
    if (name == null || name.isEmpty() || name.equals(key)) {
      return positional;
    }
    for (NDArray array : inputs) {
      if (key.equals(array.getName())) {
        return array;
      }
    }
    return positional;
  }

  @Override
  public void initialize(NDManager manager, DataType dataType, Shape... inputShapes) {
    throw new IllegalStateException("a TensorFlow SymbolBlock is initialized by its SavedModel");
  }

  @Override
  public boolean isInitialized() {
    return true;
  }

  @Override
  public PairList<String, Shape> describeInput() {
    return describe(signature.inputs());
  }

  @Override
  public PairList<String, Shape> describeOutput() {
    return describe(signature.outputs());
  }

  private static PairList<String, Shape> describe(List<TensorSpec> specs) {
    PairList<String, Shape> out = new PairList<>();
    for (TensorSpec spec : specs) {
      out.add(spec.key(), spec.hasUnknownRank() ? new Shape() : new Shape(spec.shape()));
    }
    return out;
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[0];
  }

  @Override
  public ParameterList getDirectParameters() {
    return new ParameterList();
  }

  @Override
  public void removeLastBlock() {
    throw new UnsupportedOperationException("a SavedModel's graph cannot be cut");
  }

  @Override
  public void close() {
    predictor.close();
  }
}
