package io.tfjni.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The benchmark parameters shared by every model state: the case and the session's threading. JMH
 * names a parameter after its field, and Java reserves {@code case}: the parameter is
 * {@code caseName} (scripts/bench/bench-java.sh also accepts {@code -p case=...} and renames it).
 */
@State(Scope.Benchmark)
public abstract class CaseParam {
  /** The thread settings of every contender's session (ConfigProto intra_op / inter_op). */
  static final int INTRA_OP_THREADS = 2;
  static final int INTER_OP_THREADS = 2;
  /** inter_op_parallelism_threads of the caller-thread configuration. */
  static final int CALLER_THREAD = -1;
  static final String TAG = "serve";

  @Param({"mlp_b1", "cnn_b1", "cnn_b8", "text_b8"})
  public String caseName;

  /**
   * {@code pooled}: TensorFlow's inter-op pool of {@link #INTER_OP_THREADS} runs the ops and the
   * caller waits; {@code caller}: inter-op threads -1, every op on the calling thread. Both with
   * {@link #INTRA_OP_THREADS} intra-op threads.
   */
  @Param({"pooled", "caller"})
  public String threading = "pooled";

  /** The ConfigProto inter_op_parallelism_threads of {@link #threading}. */
  int interOpThreads() {
    return interOpThreads(threading);
  }

  static int interOpThreads(String threading) {
    return switch (threading) {
      case "pooled" -> INTER_OP_THREADS;
      case "caller" -> CALLER_THREAD;
      default -> throw new IllegalArgumentException("threading must be pooled or caller, not '"
          + threading + "'");
    };
  }
}
