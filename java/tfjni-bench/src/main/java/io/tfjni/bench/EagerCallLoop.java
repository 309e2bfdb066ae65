package io.tfjni.bench;

import io.tfjni.SessionOptions;
import io.tfjni.eager.EagerContext;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import java.util.Locale;

/**
 * Counts the machine instructions of one eager {@code AddV2} through tfjni's Java API, as
 * {@link EagerBench#tfjni} runs it (two 1-element float arrays, the result closed at once), on a
 * context with the benchmarks' thread settings: the Java side of
 * {@code native/bench/eager_instructions.cpp}. Run under valgrind's callgrind with
 * {@code --separate-threads=yes}: it makes warm-up ops (so the JIT has compiled the loop), then
 * zeroes the counters, runs the measured ops and dumps the counters through
 * {@link CallgrindMarks}; the calling thread's dump divided by OPS is the count per op.
 *
 * <p>Usage: {@code EagerCallLoop WARMUP OPS} with
 * {@code -Dtfjni.bench.callgrindMarks=path/to/libcallgrind_marks.so}.
 */
public final class EagerCallLoop {
  private static volatile float sink;

  private EagerCallLoop() {}

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: EagerCallLoop WARMUP OPS");
      System.exit(2);
    }
    long warmup = Long.parseLong(args[0]);
    long ops = Long.parseLong(args[1]);
    CallgrindMarks.load();
    try (EagerContext context = EagerContext.create(SessionOptions.defaults()
            .intraOpThreads(CaseParam.INTRA_OP_THREADS)
            .interOpThreads(CaseParam.INTER_OP_THREADS), false, EagerContext.DevicePlacement.SILENT);
        NDManager manager = NDManager.newBaseManager(context);
        NDArray a = manager.create(new float[] {1}, 1);
        NDArray b = manager.create(new float[] {2}, 1)) {
      loop(manager, a, b, warmup);
      CallgrindMarks.zero();
      loop(manager, a, b, ops);
      CallgrindMarks.dump();
      try (NDArray sum = manager.opBuilder("AddV2").addInput(a).addInput(b).build()) {
        sink = sum.toFloatArray()[0];
      }
    }
    if (sink != 3f) {
      throw new IllegalStateException("AddV2(1, 2) gave " + sink);
    }
    System.out.println(String.format(Locale.ROOT, "{\"contender\":\"tfjniEager\",\"ops\":%d}", ops));
  }

  private static void loop(NDManager manager, NDArray a, NDArray b, long ops) {
    for (long i = 0; i < ops; i++) {
      try (NDArray sum = manager.opBuilder("AddV2").addInput(a).addInput(b).build()) {
        if (sum.isClosed()) {
          sink = -1;
        }
      }
    }
  }
}
