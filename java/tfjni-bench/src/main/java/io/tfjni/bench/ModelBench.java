package io.tfjni.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The same SavedModel, input and output through three contenders, one per method. Each call runs
 * the model on an input made at set-up and copies the whole output into an array made at set-up;
 * every contender's output is checked against TensorFlow Python's before it is timed.
 *
 * <ul>
 *   <li>{@code tfjniMap}: tfjni's map API, {@code SavedModel.run(signature, Map)} and the returned
 *       RunResult closed each call.
 *   <li>{@code tfjniFast}: tfjni's prepared path, {@code Predictor.run(input, reusedResult)}.
 *   <li>{@code tfJava}: TensorFlow Java 1.1.0, {@code SessionFunction.call(Map)}, Result closed.
 * </ul>
 *
 * <p>The model is loaded once per fork ({@code Scope.Benchmark}) and shared by JMH's threads
 * ({@code -t 1/2/4}); each thread has its own input, result holder and output array. The state
 * classes are only created for the method being run, so a fork loads exactly one binding.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ModelBench {
  @Benchmark
  public float tfjniMap(TfjniModel.MapCaller caller) {
    return caller.call();
  }

  @Benchmark
  public float tfjniFast(TfjniModel.FastCaller caller) {
    return caller.call();
  }

  @Benchmark
  public float tfJava(TfJavaModel.FunctionCaller caller) {
    return caller.call();
  }
}
