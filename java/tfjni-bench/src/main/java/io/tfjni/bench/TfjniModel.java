package io.tfjni.bench;

import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.batching.BatchingPredictor;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * tfjni's side of {@link ModelBench}: one SavedModel per fork, shared by every caller thread, and
 * per-thread callers for the map API and the prepared fast path. Nothing here touches tfjni before
 * {@link #open()}, so JMH's parent JVM never loads it.
 */
@State(Scope.Benchmark)
public class TfjniModel extends CaseParam {
  BenchCase benchCase;
  /** The session's intra-op threads; the runtime comparison sets it before {@link #open}. */
  int intraOpThreads = INTRA_OP_THREADS;
  SavedModel model;
  /** Feeds the case's input and fetches only its output, so a RunResult holds one tensor. */
  Predictor predictor;
  /** A batcher over {@link #predictor}, made for the first {@link BatchedCaller}. */
  private BatchingPredictor batcher;

  @Setup(Level.Trial)
  public void open() {
    OneLibraryPerJvm.claim("tfjni");
    benchCase = BenchCase.load(caseName);
    SessionOptions options = SessionOptions.defaults()
        .intraOpThreads(intraOpThreads).interOpThreads(interOpThreads());
    model = SavedModel.load(benchCase.modelDir(), options, TAG);
    OneLibraryPerJvm.checkVersion("tfjni", io.tfjni.TensorFlow.version());
    predictor = model.predictor(benchCase.signature(), List.of(benchCase.inputKey()),
        List.of(benchCase.outputKey()));
  }

  /** The batcher every {@link BatchedCaller} shares: no delay, the policy's defaults. */
  synchronized BatchingPredictor batcher() {
    if (batcher == null) {
      batcher = BatchingPredictor.builder(predictor).build();
    }
    return batcher;
  }

  @TearDown(Level.Trial)
  public void close() {
    if (batcher != null) {
      batcher.close();
    }
    if (model != null) {
      model.close();  // closes the predictor too
    }
  }

  /** A new input tensor holding the case's input (each caller thread has its own). */
  Tensor newInput() {
    long[] shape = benchCase.inputShape();
    return benchCase.isStringInput()
        ? Tensor.ofStrings(benchCase.inputStrings(), shape)
        : Tensor.of(benchCase.inputFloats(), shape);
  }

  /** {@code SavedModel.run(signature, Map)}: inputs by key, a new result closed after each call. */
  @State(Scope.Thread)
  public static class MapCaller implements Caller {
    private SavedModel model;
    private String signature;
    private String outputKey;
    private Tensor input;
    private Map<String, Tensor> inputs;
    private float[] output;

    @Setup(Level.Trial)
    public void setUp(TfjniModel shared) {
      model = shared.model;
      signature = shared.benchCase.signature();
      outputKey = shared.benchCase.outputKey();
      input = shared.newInput();
      inputs = Map.of(shared.benchCase.inputKey(), input);
      output = new float[shared.benchCase.outputElements()];
      call();
      shared.benchCase.check("tfjniMap", output);
    }

    @Override
    public float call() {
      try (RunResult result = model.run(signature, inputs)) {
        result.get(outputKey).copyTo(output);
      }
      return output[0];
    }

    @TearDown(Level.Trial)
    @Override
    public void close() {
      if (input != null) {
        input.close();
      }
    }
  }

  /**
   * A caller into one reused result: the case's input tensor (also as a one-element array), the
   * result and the output array are made at set-up, which runs one call and checks it against
   * TensorFlow Python's output, and closed at tear-down.
   */
  @State(Scope.Thread)
  public abstract static class ReusedResultCaller implements Caller {
    Tensor input;
    Tensor[] inputs;
    RunResult result;
    float[] output;

    /** Set-up, once the caller's predictor is set; {@code newResult} makes its result. */
    final void prepare(TfjniModel shared, Supplier<RunResult> newResult, String contender) {
      input = shared.newInput();
      inputs = new Tensor[] {input};
      result = newResult.get();
      output = new float[shared.benchCase.outputElements()];
      call();
      shared.benchCase.check(contender, output);
    }

    @TearDown(Level.Trial)
    @Override
    public void close() {
      if (result != null) {
        result.close();
      }
      if (input != null) {
        input.close();
      }
    }
  }

  /** {@code Predictor.run(input, into)}: prepared feeds and fetches, one reused RunResult. */
  @State(Scope.Thread)
  public static class FastCaller extends ReusedResultCaller {
    private Predictor predictor;

    @Setup(Level.Trial)
    public void setUp(TfjniModel shared) {
      predictor = shared.predictor;
      prepare(shared, predictor::newResult, "tfjniFast");
    }

    @Override
    public float call() {
      predictor.run(input, result);
      result.get(0).copyTo(output);
      return output[0];
    }
  }

  /**
   * {@code BatchingPredictor.predict(inputs, result)}: the same call through a batcher, into the
   * caller's reused result; a lone caller runs its rows on its own thread.
   */
  @State(Scope.Thread)
  public static class BatchedCaller extends ReusedResultCaller {
    private BatchingPredictor batcher;

    @Setup(Level.Trial)
    public void setUp(TfjniModel shared) {
      batcher = shared.batcher();
      prepare(shared, batcher::newResult, "tfjniBatched");
    }

    @Override
    public float call() {
      batcher.predict(inputs, result);
      result.get(0).copyTo(output);
      return output[0];
    }
  }
}
