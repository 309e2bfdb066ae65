package io.tfjni.bench;

import java.util.Map;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.tensorflow.Result;
import org.tensorflow.SavedModelBundle;
import org.tensorflow.Session;
import org.tensorflow.SessionFunction;
import org.tensorflow.Signature;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.ndarray.buffer.FloatDataBuffer;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TString;

/**
 * TensorFlow Java 1.1.0's side of {@link ModelBench}: one SavedModelBundle per fork (loaded with
 * the same thread settings as tfjni, through a ConfigProto), shared by every caller thread.
 * Nothing here touches TensorFlow Java before {@link #open()}.
 */
@State(Scope.Benchmark)
public class TfJavaModel extends CaseParam {
  BenchCase benchCase;
  SavedModelBundle bundle;
  SessionFunction function;

  @Setup(Level.Trial)
  public void open() {
    OneLibraryPerJvm.claim("tensorflow-java");
    benchCase = BenchCase.load(caseName);
    ConfigProto config = ConfigProto.newBuilder()
        .setIntraOpParallelismThreads(INTRA_OP_THREADS)
        .setInterOpParallelismThreads(interOpThreads())
        .build();
    bundle = SavedModelBundle.loader(benchCase.modelDir().toString())
        .withTags(TAG)
        .withConfigProto(config)
        .load();
    OneLibraryPerJvm.checkVersion("tensorflow-java", org.tensorflow.TensorFlow.version());
    function = bundle.function(benchCase.signature());
  }

  @TearDown(Level.Trial)
  public void close() {
    if (bundle != null) {
      bundle.close();
    }
  }

  /** A new input tensor holding the case's input (each caller thread has its own). */
  Tensor newInput() {
    Shape shape = Shape.of(benchCase.inputShape());
    return benchCase.isStringInput()
        ? TString.tensorOf(shape, DataBuffers.ofObjects(benchCase.inputStrings()))
        : TFloat32.tensorOf(shape, DataBuffers.of(benchCase.inputFloats(), true, false));
  }

  /**
   * TensorFlow Java's idiomatic call: the signature's {@code SessionFunction.call(Map)} with inputs
   * by key, its Result closed after each call.
   */
  @State(Scope.Thread)
  public static class FunctionCaller implements Caller {
    private SessionFunction function;
    private String outputKey;
    private Tensor input;
    private Map<String, Tensor> inputs;
    private float[] output;
    private FloatDataBuffer outputBuffer;

    @Setup(Level.Trial)
    public void setUp(TfJavaModel shared) {
      function = shared.function;
      outputKey = shared.benchCase.outputKey();
      input = shared.newInput();
      inputs = Map.of(shared.benchCase.inputKey(), input);
      output = new float[shared.benchCase.outputElements()];
      outputBuffer = DataBuffers.of(output, false, false);
      call();
      shared.benchCase.check("tfJava", output);
    }

    @Override
    public float call() {
      try (Result result = function.call(inputs)) {
        ((TFloat32) result.get(outputKey).orElseThrow()).copyTo(outputBuffer);
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
   * TensorFlow Java's lower-level call: {@code session.runner().feed(name).fetch(name).run()} with
   * the signature's graph tensor names resolved once.
   */
  @State(Scope.Thread)
  public static class RunnerCaller implements Caller {
    private Session session;
    private String feed;
    private String fetch;
    private Tensor input;
    private float[] output;
    private FloatDataBuffer outputBuffer;

    @Setup(Level.Trial)
    public void setUp(TfJavaModel shared) {
      session = shared.bundle.session();
      Signature signature = shared.function.signature();
      feed = signature.getInputs().get(shared.benchCase.inputKey()).name;
      fetch = signature.getOutputs().get(shared.benchCase.outputKey()).name;
      input = shared.newInput();
      output = new float[shared.benchCase.outputElements()];
      outputBuffer = DataBuffers.of(output, false, false);
      call();
      shared.benchCase.check("tfJavaRunner", output);
    }

    @Override
    public float call() {
      try (Result result = session.runner().feed(feed, input).fetch(fetch).run()) {
        ((TFloat32) result.get(0)).copyTo(outputBuffer);
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
}
