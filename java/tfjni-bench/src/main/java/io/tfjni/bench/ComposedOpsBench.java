package io.tfjni.bench;

import ai.djl.engine.EngineProvider;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Operations tfjni-djl composes from several TensorFlow ops, on small arrays so that the
 * engine's own cost shows: {@code topK} of the smallest along an inner axis (transpose, negate,
 * TopKV2, negate, cast, transposes back), {@code repeat} of a matrix along both axes, and a
 * vector times a matrix ({@code matMul}). Each result is closed at once; the inputs live for
 * the trial. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the Java heap a call
 * costs. tfjni-djl's engine only (the operations' composition is what is measured).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class ComposedOpsBench {
  private NDManager manager;
  private NDArray matrix;
  private NDArray vector;

  @Setup(Level.Trial)
  public void open() throws ReflectiveOperationException {
    OneLibraryPerJvm.claim("tfjni");
    EngineProvider provider = (EngineProvider) Class.forName("io.tfjni.djl.TfjniEngineProvider")
        .getDeclaredConstructor().newInstance();
    manager = provider.getEngine().newBaseManager();
    matrix = manager.arange(0f, 64f, 1f, DataType.FLOAT32).reshape(new Shape(8, 8));
    vector = manager.arange(0f, 8f, 1f, DataType.FLOAT32);
  }

  @Benchmark
  public long topK() {
    try (NDList smallest = matrix.topK(3, 0, false, true)) {
      return smallest.size();
    }
  }

  @Benchmark
  public long repeat() {
    try (NDArray repeated = matrix.repeat(2)) {
      return repeated.size();
    }
  }

  @Benchmark
  public long matMulVector() {
    try (NDArray product = vector.matMul(matrix)) {
      return product.size();
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    manager.close();
  }
}
