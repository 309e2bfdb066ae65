package io.tfjni.djl;

import ai.djl.MalformedModelException;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractSymbolBlock;
import ai.djl.nn.ParameterList;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.tfjni.GraphModel;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Signature;
import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import io.tfjni.batching.BatchedResult;
import io.tfjni.batching.BatchingPredictor;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A SavedModel signature, or named tensors of a frozen GraphDef, as a DJL block. Its forward pass is one tfjni {@link Predictor} run
 * (feeds and fetches resolved once at load, one JNI crossing per call). As in DJL's TensorFlow
 * engine, inputs and outputs are in the order of their sorted signature keys; an input is taken
 * from the NDArray of the same name if the list has one, else by position; outputs are named by
 * their keys and belong to the first input's manager. A frozen graph's keys are its tensor names
 * ("x:0"), in the order given.
 *
 * <p>A SavedModel loaded with the option {@code PreferLiteRt} (see {@link ModelThreads}) runs a
 * forward pass whose first input has a batch size {@code tfjni convert} converted on LiteRT
 * ({@link SavedModel#liteRtPredictors}), any other on TensorFlow; so does a batch of callers'
 * rows.
 */
public class TfjniSymbolBlock extends AbstractSymbolBlock implements AutoCloseable {
  private final Signature signature;
  private final String what;
  private final Predictor predictor;
  /** The batch sizes run on LiteRT, ascending, and their predictors: empty unless preferred. */
  private final Map<Integer, Predictor> liteRt;
  private final int[] liteRtSizes;
  private final Predictor[] liteRtPredictors;
  private final List<String> inputKeys;
  private final List<String> outputKeys;
  private final List<TensorSpec> inputSpecs;
  private final List<TensorSpec> outputSpecs;
  /** Set when the model's options ask for batching across callers; runs every forward pass. */
  private BatchingPredictor batcher;

  TfjniSymbolBlock(SavedModel model, Signature signature) {
    // Signature lists inputs and outputs sorted by key.
    this(signature, "signature " + signature.key(), model.predictor(signature.key(),
        signature.inputKeys(), signature.outputKeys()), signature.inputKeys(),
        signature.outputKeys(), signature.inputs(), signature.outputs(),
        model.liteRtPredictors(signature.key(), signature.inputKeys(), signature.outputKeys()));
  }

  TfjniSymbolBlock(GraphModel model, List<String> inputNames, List<String> outputNames) {
    this(null, "the frozen graph", model.predictor(inputNames, outputNames),
        List.copyOf(inputNames), List.copyOf(outputNames), null, null, Map.of());
  }

  private TfjniSymbolBlock(Signature signature, String what, Predictor predictor,
      List<String> inputKeys, List<String> outputKeys, List<TensorSpec> inputSpecs,
      List<TensorSpec> outputSpecs, Map<Integer, Predictor> liteRt) {
    this.signature = signature;
    this.what = what;
    this.predictor = predictor;
    this.liteRt = liteRt;
    this.liteRtSizes = liteRt.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
    this.liteRtPredictors = new Predictor[liteRtSizes.length];
    for (int i = 0; i < liteRtSizes.length; i++) {
      liteRtPredictors[i] = liteRt.get(liteRtSizes[i]);
    }
    this.inputKeys = inputKeys;
    this.outputKeys = outputKeys;
    this.inputSpecs = inputSpecs == null ? predictor.inputs() : inputSpecs;
    this.outputSpecs = outputSpecs == null ? predictor.outputs() : outputSpecs;
  }

  /**
   * The predictor a forward pass of this batch size runs: LiteRT's if the size was converted,
   * else TensorFlow's.
   */
  Predictor predictorFor(long batchSize) {
    for (int i = 0; i < liteRtSizes.length; i++) {
      if (liteRtSizes[i] == batchSize) {
        return liteRtPredictors[i];
      }
    }
    return predictor;
  }

  /** Runs every forward pass through a batching predictor over this block's predictor. */
  void batchAcrossCallers(ModelBatching batching) throws MalformedModelException {
    batcher = batching.over(predictor, liteRt);
  }

  /** The batching predictor of every forward pass, or null when the model does not batch. */
  BatchingPredictor batcher() {
    return batcher;
  }

  /**
   * A signature's block whose subclass runs the forward pass (it has no predictor of its own,
   * and closes what it owns itself).
   */
  TfjniSymbolBlock(Signature signature) {
    this(signature, "signature " + signature.key(), null, signature.inputKeys(),
        signature.outputKeys(), signature.inputs(), signature.outputs(), Map.of());
  }

  /**
   * The signature this block runs.
   *
   * @return the signature's name and tensors; null for a frozen graph
   */
  public Signature getSignature() {
    return signature;
  }

  @Override
  protected final NDList forwardInternal(ParameterStore parameterStore, NDList inputs,
      boolean training, PairList<String, Object> params) {
    Tensor[] feeds = feeds(inputs);
    return forward(feeds, (TfjniNDManager) inputs.head().getManager());
  }

  /**
   * Runs {@code feeds} once, through the batching predictor when the model batches across
   * callers; the outputs as arrays of {@code manager}.
   */
  NDList forward(Tensor[] feeds, TfjniNDManager manager) {
    if (batcher != null) {
      return asArrays(manager, batcher.predict(feeds));
    }
    Tensor first = feeds.length == 0 ? null : feeds[0];
    long batchSize = first == null || first.rank() == 0 ? -1 : first.dimension(0);
    return asArrays(manager, predictorFor(batchSize).run(feeds));
  }

  /**
   * The tensors a forward pass feeds for {@code inputs}, in the order of the input keys: the
   * arrays' own tensors (no eager round trip), which stay the arrays'.
   */
  private Tensor[] feeds(NDList inputs) {
    if (inputs.size() < inputKeys.size()) {
      throw new IllegalArgumentException(what + " needs "
          + inputKeys.size() + " inputs " + inputKeys + ", got " + inputs.size());
    }
    TfjniNDManager manager = (TfjniNDManager) inputs.head().getManager();
    Tensor[] feeds = new Tensor[inputKeys.size()];
    for (int i = 0; i < feeds.length; i++) {
      feeds[i] = manager.from(pick(inputs, i)).tensor();
    }
    return feeds;
  }

  /**
   * A run's outputs as arrays of {@code manager}. A result per call: its tensors become the
   * arrays' own (each freed by its array or its manager), so it is not closed after a successful
   * run, and not shared between threads.
   */
  NDList asArrays(TfjniNDManager manager, RunResult result) {
    return asArrays(manager, result::get, result::close);
  }

  /**
   * This caller's rows of a batched run as arrays of {@code manager}: tensors of the caller's
   * own, which become the arrays'.
   */
  NDList asArrays(TfjniNDManager manager, BatchedResult result) {
    return asArrays(manager, result::get, result::close);
  }

  /** The outputs as arrays of {@code manager}, named by key; on failure, all of them freed. */
  private NDList asArrays(TfjniNDManager manager, IntFunction<Tensor> output,
      Runnable freeAll) {
    NDList out = new NDList(outputKeys.size());
    try {
      for (int i = 0; i < outputKeys.size(); i++) {
        TfjniNDArray array = manager.wrap(output.apply(i));
        array.setName(outputKeys.get(i));
        out.add(array);
      }
      return out;
    } catch (RuntimeException | Error e) {
      out.close();
      freeAll.run();
      throw e;
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
    throw new IllegalStateException("a TensorFlow SymbolBlock is initialized by its model");
  }

  @Override
  public boolean isInitialized() {
    return true;
  }

  @Override
  public PairList<String, Shape> describeInput() {
    return describe(inputKeys, inputSpecs);
  }

  @Override
  public PairList<String, Shape> describeOutput() {
    return describe(outputKeys, outputSpecs);
  }

  private static PairList<String, Shape> describe(List<String> keys, List<TensorSpec> specs) {
    PairList<String, Shape> out = new PairList<>();
    for (int i = 0; i < keys.size(); i++) {
      TensorSpec spec = specs.get(i);
      out.add(keys.get(i), spec.hasUnknownRank() ? new Shape() : new Shape(spec.shape()));
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
    throw new UnsupportedOperationException("a TensorFlow model's graph cannot be cut");
  }

  @Override
  public void close() {
    if (batcher != null) {
      batcher.close();
    }
    for (Predictor liteRt : liteRtPredictors) {
      liteRt.close();
    }
    predictor.close();
  }
}
