package io.tfjni.bench;

import io.tfjni.SessionOptions;
import io.tfjni.eager.EagerContext;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
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
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;
import org.tensorflow.EagerSession;
import org.tensorflow.Operand;
import org.tensorflow.op.Ops;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TFloat32;

/**
 * Eager dispatch of one small op: AddV2 of two 1-element float tensors, on an eager context with
 * the same thread settings as the model benchmarks.
 *
 * <ul>
 *   <li>{@code tfjni}: {@code manager.opBuilder("AddV2").addInput(a).addInput(b).build()}, the
 *       result closed at once (its native handle is freed there and then).
 *   <li>{@code tfJava}: {@code Ops.math.add(a, b)} on an EagerSession. TensorFlow Java has no way
 *       to free one op's result: its handles are released when the garbage collector finds the
 *       operation unreachable, or when the session closes, which is what this measures.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class EagerBench {
  @Benchmark
  public void tfjni(TfjniEager eager, Blackhole blackhole) {
    try (NDArray sum = eager.manager.opBuilder("AddV2").addInput(eager.a).addInput(eager.b)
        .build()) {
      blackhole.consume(sum);
    }
  }

  @Benchmark
  public Operand<TFloat32> tfJava(TfJavaEager eager) {
    return eager.tf.math.add(eager.a, eager.b);
  }

  /** One eager context per fork. */
  @State(Scope.Benchmark)
  public static class TfjniContext {
    EagerContext context;

    @Setup(Level.Trial)
    public void open() {
      OneLibraryPerJvm.claim("tfjni");
      context = EagerContext.create(SessionOptions.defaults()
          .intraOpThreads(CaseParam.INTRA_OP_THREADS)
          .interOpThreads(CaseParam.INTER_OP_THREADS), false, EagerContext.DevicePlacement.SILENT);
      OneLibraryPerJvm.checkVersion("tfjni", io.tfjni.TensorFlow.version());
    }

    @TearDown(Level.Trial)
    public void close() {
      if (context != null) {
        context.close();
      }
    }
  }

  /** Each thread's manager and its two operands. */
  @State(Scope.Thread)
  public static class TfjniEager {
    NDManager manager;
    NDArray a;
    NDArray b;

    @Setup(Level.Trial)
    public void setUp(TfjniContext shared) {
      manager = NDManager.newBaseManager(shared.context);
      a = manager.create(new float[] {1}, 1);
      b = manager.create(new float[] {2}, 1);
      try (NDArray sum = manager.opBuilder("AddV2").addInput(a).addInput(b).build()) {
        checkSum("tfjni", sum.toFloatArray()[0]);
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      if (manager != null) {
        manager.close();
      }
    }
  }

  /** One EagerSession per fork. */
  @State(Scope.Benchmark)
  public static class TfJavaSession {
    EagerSession session;

    @Setup(Level.Trial)
    public void open() {
      OneLibraryPerJvm.claim("tensorflow-java");
      session = EagerSession.options()
          .async(false)
          .devicePlacementPolicy(EagerSession.DevicePlacementPolicy.SILENT)
          .config(ConfigProto.newBuilder()
              .setIntraOpParallelismThreads(CaseParam.INTRA_OP_THREADS)
              .setInterOpParallelismThreads(CaseParam.INTER_OP_THREADS)
              .build())
          .build();
      OneLibraryPerJvm.checkVersion("tensorflow-java", org.tensorflow.TensorFlow.version());
    }

    @TearDown(Level.Trial)
    public void close() {
      if (session != null) {
        session.close();
      }
    }
  }

  /** Each thread's Ops (in a name scope of its own: op naming is not thread-safe) and operands. */
  @State(Scope.Thread)
  public static class TfJavaEager {
    Ops tf;
    Operand<TFloat32> a;
    Operand<TFloat32> b;

    @Setup(Level.Trial)
    public void setUp(TfJavaSession shared, ThreadParams thread) {
      tf = Ops.create(shared.session).withSubScope("thread" + thread.getThreadIndex());
      a = tf.constant(new float[] {1});
      b = tf.constant(new float[] {2});
      checkSum("tfJava", tf.math.add(a, b).asTensor().getFloat(0));
    }
  }

  private static void checkSum(String contender, float sum) {
    if (sum != 3f) {
      throw new IllegalStateException(contender + ": AddV2(1, 2) gave " + sum);
    }
  }
}
