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
 * TensorFlow Java's other way to run a SavedModel, {@code Session.runner()} with the signature's
 * tensor names resolved once, beside {@link ModelBench#tfJava} (its signature function). A class
 * of its own so that JMH's regular expression {@code ModelBench.tfJava} does not select it too.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SessionRunnerBench {
  @Benchmark
  public float tfJavaRunner(TfJavaModel.RunnerCaller caller) {
    return caller.call();
  }
}
