package io.tfjni.bench;

import java.util.Locale;

/**
 * Counts one Java contender's machine instructions per call: run under valgrind's callgrind by
 * {@code scripts/bench/bench-instructions.sh}, it makes warm-up calls (so the JIT has compiled the loop),
 * then zeroes callgrind's counters, makes the measured calls and dumps the counters, all through
 * {@link CallgrindMarks}. The count covers every thread of the process in that window: the
 * contender's Java and native code, TensorFlow's pools, and whatever the JVM's own threads did
 * meanwhile (nothing allocates on the fast path, so no GC runs there).
 *
 * <p>Usage:
 * {@code CallLoop tfjniMap|tfjniFast|tfjniBatched|tfJava|tfJavaRunner|tfjniDjl|djlTf CASE WARMUP CALLS
 * [THREADING]}
 * (THREADING {@code pooled}, the default, or {@code caller}: see {@link CaseParam#threading}), with
 * {@code -Dtfjni.bench.models} and {@code -Dtfjni.bench.callgrindMarks=path/to/libcallgrind_marks.so}.
 */
public final class CallLoop {
  /** Keeps each call's result alive so the loop cannot be optimised away. */
  private static volatile float sink;

  private CallLoop() {}

  public static void main(String[] args) {
    if (args.length != 4 && args.length != 5) {
      System.err.println("usage: CallLoop"
          + " tfjniMap|tfjniFast|tfjniBatched|tfJava|tfJavaRunner|tfjniDjl|djlTf"
          + " CASE WARMUP CALLS [pooled|caller]");
      System.exit(2);
    }
    String threading = args.length == 5 ? args[4] : "pooled";
    String contender = args[0];
    String caseName = args[1];
    long warmup = Long.parseLong(args[2]);
    long calls = Long.parseLong(args[3]);
    if (warmup < 0 || calls <= 0) {
      throw new IllegalArgumentException("WARMUP must be >= 0 and CALLS > 0");
    }
    CallgrindMarks.load();
    try (Contender probe = Contender.open(contender, caseName, threading)) {
      sink = loop(probe.caller, warmup);
      CallgrindMarks.zero();
      sink = loop(probe.caller, calls);
      CallgrindMarks.dump();
    }
    System.out.println(String.format(Locale.ROOT,
        "{\"contender\":\"%s\",\"case\":\"%s\",\"calls\":%d,\"threading\":\"%s\"}", contender,
        caseName, calls, threading));
  }

  private static float loop(Caller caller, long calls) {
    float acc = 0;
    for (long i = 0; i < calls; i++) {
      acc += caller.call();
    }
    return acc;
  }
}
