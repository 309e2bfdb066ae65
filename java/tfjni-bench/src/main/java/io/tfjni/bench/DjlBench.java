package io.tfjni.bench;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.engine.EngineProvider;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.NoBatchifyTranslator;
import ai.djl.translate.TranslateException;
import ai.djl.translate.TranslatorContext;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * DJL's {@code Predictor.predict} on a benchmark SavedModel, as a DJL user calls it (a
 * {@code float[]} in, a Translator making the NDArray, {@code float[]} out), through one of two
 * engines named "TensorFlow": {@code engine=tfjni} (tfjni-djl) or {@code engine=djl} (DJL's own
 * TensorFlow engine, on TensorFlow Java's native library). Both cannot share a class path (same
 * engine name, and DJL's engine bundles TensorFlow Java classes that differ from the ones
 * {@link ModelBench} uses), so scripts/bench/bench-djl.sh runs each from a class path of its own; the
 * engine is taken from its provider class directly, not from DJL's registry by name. Threads use
 * the system properties both engines read ({@code ai.djl.tensorflow.num_*_threads}). The model is
 * loaded once per fork; each JMH thread has its own Predictor, as DJL recommends.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class DjlBench {

  /** The engine and the loaded model, shared by the threads of a fork. */
  @State(Scope.Benchmark)
  public static class Loaded {
    @Param({"mlp_b1"})
    public String caseName;

    @Param({"tfjni"})
    public String engine;

    BenchCase benchCase;
    Model model;

    @Setup(Level.Trial)
    public void open() throws Exception {
      OneLibraryPerJvm.claim(engine.equals("tfjni") ? "tfjni" : "tensorflow-java");
      benchCase = BenchCase.load(caseName);
      Engine djlEngine = provider(engine).getEngine();
      System.err.println("# DJL engine " + djlEngine.getClass().getName() + " "
          + djlEngine.getVersion());
      model = djlEngine.newModel(benchCase.modelDir().getFileName().toString(), Device.cpu());
      model.load(benchCase.modelDir());
    }

    private static EngineProvider provider(String engine) throws ReflectiveOperationException {
      String name = engine.equals("tfjni") ? "io.tfjni.djl.TfjniEngineProvider"
          : engine.equals("djl") ? "ai.djl.tensorflow.engine.TfEngineProvider" : null;
      if (name == null) {
        throw new IllegalArgumentException("engine must be tfjni or djl, got " + engine);
      }
      return (EngineProvider) Class.forName(name).getDeclaredConstructor().newInstance();
    }

    @TearDown(Level.Trial)
    public void close() {
      if (model != null) {
        model.close();
      }
    }
  }

  /** The case's input as an NDArray of its shape; the one output as floats. */
  static final class FloatsTranslator implements NoBatchifyTranslator<float[], float[]> {
    private final Shape shape;

    FloatsTranslator(long[] shape) {
      this.shape = new Shape(shape);
    }

    @Override
    public NDList processInput(TranslatorContext ctx, float[] input) {
      return new NDList(ctx.getNDManager().create(input, shape));
    }

    @Override
    public float[] processOutput(TranslatorContext ctx, NDList list) {
      return list.get(0).toFloatArray();
    }
  }

  /** One thread's Predictor and input. */
  @State(Scope.Thread)
  public static class Caller {
    private Predictor<float[], float[]> predictor;
    private float[] input;

    @Setup(Level.Trial)
    public void setUp(Loaded loaded) throws TranslateException {
      predictor = loaded.model.newPredictor(new FloatsTranslator(loaded.benchCase.inputShape()));
      input = loaded.benchCase.inputFloats();
      loaded.benchCase.check("djl-" + loaded.engine, predictor.predict(input));
    }

    float call() throws TranslateException {
      return predictor.predict(input)[0];
    }

    @TearDown(Level.Trial)
    public void close() {
      if (predictor != null) {
        predictor.close();
      }
    }
  }

  @Benchmark
  public float predict(Caller caller) throws TranslateException {
    return caller.call();
  }
}
