package io.tfjni.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The benchmark case parameter shared by every model state. JMH names a parameter after its field,
 * and Java reserves {@code case}: the parameter is {@code caseName} (scripts/bench-java.sh also
 * accepts {@code -p case=...} and renames it).
 */
@State(Scope.Benchmark)
public abstract class CaseParam {
  /** The thread settings of every contender's session (ConfigProto intra_op / inter_op). */
  static final int INTRA_OP_THREADS = 2;
  static final int INTER_OP_THREADS = 2;
  static final String TAG = "serve";

  @Param({"mlp_b1", "cnn_b1", "cnn_b8", "text_b8"})
  public String caseName;
}
