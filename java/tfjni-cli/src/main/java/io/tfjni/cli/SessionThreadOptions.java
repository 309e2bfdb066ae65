package io.tfjni.cli;

import io.tfjni.SessionOptions;
import picocli.CommandLine.Option;

/**
 * The session's thread settings of {@code tfjni run} and {@code tfjni bench}, as a picocli mixin:
 * the intra-op and inter-op pool sizes and caller-thread execution.
 */
final class SessionThreadOptions {
  @Option(names = {"--intra_op_threads", "--intra-op-threads"}, paramLabel = "N",
      description = "TensorFlow's intra-op threads for the session: threads one op may use"
          + " (default: TensorFlow's).")
  Integer intraOpThreads;

  @Option(names = {"--inter_op_threads", "--inter-op-threads"}, paramLabel = "N",
      description = "TensorFlow's inter-op threads for the session (default: TensorFlow's);"
          + " -1 runs every op on the calling thread, as --run_on_caller_thread.")
  Integer interOpThreads;

  @Option(names = {"--run_on_caller_thread", "--run-on-caller-thread"},
      description = "Run every op on the thread that calls the model instead of TensorFlow's"
          + " inter-op pool (inter-op threads -1): faster for small models and many callers.")
  boolean runOnCallerThread;

  /** Checks the values; throws CliException with the option's name. */
  void validate() {
    if (intraOpThreads != null && intraOpThreads < 0) {
      throw new CliException("--intra_op_threads must be >= 0 (0 lets TensorFlow choose), got "
          + intraOpThreads);
    }
    if (interOpThreads != null && interOpThreads < 0
        && interOpThreads != SessionOptions.CALLER_THREAD) {
      throw new CliException("--inter_op_threads must be >= 0 (0 lets TensorFlow choose) or -1"
          + " (run every op on the calling thread), got " + interOpThreads);
    }
    if (runOnCallerThread && interOpThreads != null
        && interOpThreads != SessionOptions.CALLER_THREAD) {
      throw new CliException("--run_on_caller_thread means --inter_op_threads -1: do not give"
          + " --inter_op_threads " + interOpThreads + " with it");
    }
  }

  /** The inter-op setting in effect: null for TensorFlow's default, -1 for the calling thread. */
  Integer effectiveInterOpThreads() {
    return runOnCallerThread ? Integer.valueOf(SessionOptions.CALLER_THREAD) : interOpThreads;
  }

  SessionOptions sessionOptions() {
    validate();
    SessionOptions options = SessionOptions.defaults();
    if (intraOpThreads != null) {
      options.intraOpThreads(intraOpThreads);
    }
    Integer inter = effectiveInterOpThreads();
    if (inter != null) {
      options.interOpThreads(inter);
    }
    return options;
  }

  /** For the printed header: "intra-op 2, inter-op -1 (caller thread)". */
  String describe() {
    Integer inter = effectiveInterOpThreads();
    return "intra-op " + (intraOpThreads == null ? "default" : intraOpThreads) + ", inter-op "
        + (inter == null ? "default"
            : inter == SessionOptions.CALLER_THREAD ? "-1 (ops on the calling thread)" : inter);
  }
}
