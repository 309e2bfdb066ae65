package io.tfjni.bench;

import ai.onnxruntime.OrtException;
import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import io.tfjni.internal.JsonText;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Three runtimes on one benchmark case, paired in one process: TensorFlow (tfjni's prepared path),
 * LiteRT through tfjni ({@link LiteRtCaller}) and ONNX Runtime's Java binding ({@link OrtCaller}),
 * each with the same number of CPU threads (TensorFlow: that many intra-op threads, every op on
 * the calling thread). As in {@link PairedCallerBench}, one caller thread runs one runtime for a
 * slice, then the next; a pair is three slices with TensorFlow's in the middle and the other two
 * swapping sides every pair ({@link PairedCallerBench#sliceOrder}), so each per-pair ratio is taken
 * under one machine speed, and LiteRT's and ONNX Runtime's slices of a pair give their own ratio.
 *
 * <p>Per thread count, first agreement: each runtime's output against TensorFlow Python's, within
 * that runtime's tolerance; a runtime that disagrees, or has no converted file, or fails to load,
 * is reported and not timed. Then the Java bytes each runtime allocates per call on the calling
 * thread (after a warm-up, as {@link RssProbe} counts them), then the pairs. Output, one JSON line
 * each: {@code {"kind":"agreement", ...}} per runtime, {@code {"kind":"pair", ...}} per pair and
 * {@code {"kind":"summary", ...}} per thread count (java/tfjni-bench/README.md describes them).
 *
 * <p>Usage: {@code RuntimesPairedBench CASE THREADS... [--pairs=N] [--warmup-pairs=N]
 * [--slice-ms=N] [--alloc-ms=N]}, with {@code -Dtfjni.bench.models} naming the runtime models'
 * directory ({@code scripts/bench/bench-runtimes.sh} passes it and tfjni's properties).
 */
public final class RuntimesPairedBench {
  /** The runtimes, in the order of {@link PairedCallerBench#sliceOrder}'s indices. */
  enum Runtime {
    /**
     * The reference: its slice is the middle one of every pair, and its output must match
     * TensorFlow Python's as every benchmark's does ({@link BenchCase#check}).
     */
    TENSORFLOW("tensorflow", Double.NaN),
    /** XNNPACK's kernels differ from TensorFlow's in rounding and summation order. */
    LITERT("litert", 1e-3),
    /** tf2onnx's graph fuses and reorders some ops, and ONNX Runtime's kernels round their way. */
    ONNXRUNTIME("onnxruntime", 1e-3);

    final String key;
    /** The largest difference allowed, as a fraction of the largest |value| of the output. */
    final double tolerance;

    Runtime(String key, double tolerance) {
      this.key = key;
      this.tolerance = tolerance;
    }
  }

  private static final Runtime[] RUNTIMES = Runtime.values();
  /** Each slice is at least this many of the slowest runtime's calls, so its median means one. */
  private static final int MIN_CALLS_PER_SLICE = 5;

  private RuntimesPairedBench() {}

  record Options(String caseName, int[] threads, int pairs, int warmupPairs, int sliceMillis,
      int allocMillis) {
    static Options parse(String[] args) {
      List<String> positional = new ArrayList<>();
      int pairs = 60;
      int warmupPairs = 5;
      int sliceMillis = 100;
      int allocMillis = 2000;
      for (String arg : args) {
        if (arg.startsWith("--pairs=")) {
          pairs = positive(arg);
        } else if (arg.startsWith("--warmup-pairs=")) {
          warmupPairs = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
        } else if (arg.startsWith("--slice-ms=")) {
          sliceMillis = positive(arg);
        } else if (arg.startsWith("--alloc-ms=")) {
          allocMillis = positive(arg);
        } else if (arg.startsWith("--")) {
          throw new IllegalArgumentException("unknown option " + arg);
        } else {
          positional.add(arg);
        }
      }
      if (positional.size() < 2) {
        throw new IllegalArgumentException("usage: RuntimesPairedBench CASE THREADS... [--pairs=N]"
            + " [--warmup-pairs=N] [--slice-ms=N] [--alloc-ms=N]");
      }
      int[] threads = positional.subList(1, positional.size()).stream()
          .mapToInt(t -> positive("threads=" + t)).toArray();
      return new Options(positional.get(0), threads, pairs, warmupPairs, sliceMillis,
          allocMillis);
    }

    private static int positive(String arg) {
      int value = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
      if (value <= 0) {
        throw new IllegalArgumentException("not a positive number: " + arg);
      }
      return value;
    }
  }

  public static void main(String[] args) throws Exception {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("RuntimesPairedBench: " + e.getMessage());
      System.exit(2);
      return;
    }
    OneLibraryPerJvm.claim("tfjni");
    RuntimeCase runtimeCase = RuntimeCase.load(o.caseName());
    for (int threads : o.threads()) {
      TfjniModel tensorflow = new TfjniModel();
      tensorflow.caseName = o.caseName();
      tensorflow.threading = "caller";
      tensorflow.intraOpThreads = threads;
      tensorflow.open();
      try {
        measure(o, runtimeCase, threads, tensorflow);
      } finally {
        tensorflow.close();
      }
    }
  }

  /** Agreement, bytes per call and the pairs at one thread count; prints their lines. */
  private static void measure(Options o, RuntimeCase rc, int threads, TfjniModel tensorflow) {
    Caller[] callers = new Caller[RUNTIMES.length];
    String[] notTimed = new String[RUNTIMES.length];
    TfjniModel.FastCaller reference = new TfjniModel.FastCaller();
    reference.setUp(tensorflow);  // checks TensorFlow's output against TF Python's: the reference
    callers[Runtime.TENSORFLOW.ordinal()] = reference;
    try {
      for (Runtime runtime : new Runtime[] {Runtime.LITERT, Runtime.ONNXRUNTIME}) {
        notTimed[runtime.ordinal()] = open(o, rc, threads, runtime, callers);
      }
      double[] bytesPerCall = new double[RUNTIMES.length];
      double[] callMicros = new double[RUNTIMES.length];
      for (Runtime runtime : RUNTIMES) {
        if (notTimed[runtime.ordinal()] == null) {
          double[] measured = allocation(callers[runtime.ordinal()], o.allocMillis());
          bytesPerCall[runtime.ordinal()] = measured[0];
          callMicros[runtime.ordinal()] = measured[1];
        }
      }
      double slowest = Arrays.stream(callMicros).max().orElse(0);
      int sliceMillis = (int) Math.max(o.sliceMillis(),
          Math.ceil(MIN_CALLS_PER_SLICE * slowest / 1000));
      pairs(o, threads, sliceMillis, callers, notTimed, bytesPerCall);
    } finally {
      for (Caller caller : callers) {
        if (caller != null) {
          caller.close();
        }
      }
    }
  }

  /**
   * Opens one runtime's caller into {@code callers} and prints its agreement line; returns why it
   * is not timed (no converted file, a load that failed, an output that disagrees), or null.
   */
  private static String open(Options o, RuntimeCase rc, int threads, Runtime runtime,
      Caller[] callers) {
    BenchCase c = rc.benchCase();
    String reason;
    float[] output = null;
    try {
      if (runtime == Runtime.LITERT) {
        if (rc.litert() == null) {
          return agreementLine(o, threads, runtime, null, "not converted: " + rc.litertError());
        }
        LiteRtCaller caller = new LiteRtCaller(c, rc.litert(), threads);
        callers[runtime.ordinal()] = caller;
        caller.call();
        output = caller.output();
      } else {
        if (rc.onnx() == null) {
          return agreementLine(o, threads, runtime, null, "not converted: " + rc.onnxError());
        }
        OrtCaller caller = new OrtCaller(c, rc.onnx(), threads);
        callers[runtime.ordinal()] = caller;
        caller.call();
        output = caller.output();
      }
    } catch (OrtException | RuntimeException e) {
      reason = "failed to load or run: " + e;
      return agreementLine(o, threads, runtime, null, reason);
    }
    Agreement agreement = Agreement.of(c.expected(), output, runtime.tolerance);
    reason = agreement.agrees() ? null : "disagrees with TensorFlow: " + agreement.worst();
    return agreementLine(o, threads, runtime, agreement, reason);
  }

  /** Prints a runtime's agreement line and returns {@code notTimed}. */
  private static String agreementLine(Options o, int threads, Runtime runtime, Agreement a,
      String notTimed) {
    System.out.println(String.format(Locale.ROOT,
        "{\"kind\":\"agreement\",%s,\"runtime\":\"%s\",\"tolerance\":%s,"
            + "\"max_abs_difference\":%s,\"allowed\":%s,\"agrees\":%s,\"not_timed\":%s}",
        where(o, threads), runtime.key, PairedCallerBench.json(runtime.tolerance),
        a == null ? "null" : PairedCallerBench.json(a.maxAbsDifference()),
        a == null ? "null" : PairedCallerBench.json(a.allowed()),
        a != null && a.agrees(), notTimed == null ? "null" : JsonText.quote(notTimed)));
    return notTimed;
  }

  /**
   * Calls for {@code millis} to warm up, then for {@code millis} more counting the bytes this
   * thread allocates inside the calls: {bytes per call, µs per call}.
   */
  private static double[] allocation(Caller caller, int millis) {
    ThreadMXBean thread = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long nanos = millis * 1_000_000L;
    long end = System.nanoTime() + nanos;
    do {
      caller.call();
    } while (System.nanoTime() - end < 0);
    long calls = 0;
    long bytes = 0;
    long start = System.nanoTime();
    end = start + nanos;
    do {
      long before = thread.getCurrentThreadAllocatedBytes();
      caller.call();
      bytes += thread.getCurrentThreadAllocatedBytes() - before;
      calls++;
    } while (System.nanoTime() - end < 0 || calls < 3);
    return new double[] {(double) bytes / calls, (System.nanoTime() - start) / 1e3 / calls};
  }

  /** Warm-up pairs, then the measured pairs of the runtimes that are timed; prints their lines. */
  private static void pairs(Options o, int threads, int sliceMillis, Caller[] callers,
      String[] notTimed, double[] bytesPerCall) {
    SliceLoop[][] loops = new SliceLoop[1][RUNTIMES.length];
    for (Runtime runtime : RUNTIMES) {
      Caller caller = callers[runtime.ordinal()];
      // Closed with the callers, not by the workers.
      loops[0][runtime.ordinal()] = new SliceLoop() {
        private final CallerLoop loop = caller == null ? null : new CallerLoop(caller);

        @Override
        public long run(long durationNanos, long[] latencies) {
          return loop.run(durationNanos, latencies);
        }

        @Override
        public void close() {}
      };
    }
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    int n = RUNTIMES.length;
    double[][] p50 = new double[n][o.pairs()];
    double[][] perSecond = new double[n][o.pairs()];
    try (SliceWorkers workers = new SliceWorkers(loops, PairedCallerBench.LATENCY_CAPACITY,
        os::getProcessCpuTime)) {
      for (int pair = -o.warmupPairs(); pair < o.pairs(); pair++) {
        int[] order = Arrays.stream(PairedCallerBench.sliceOrder(pair))
            .filter(r -> notTimed[r] == null).toArray();
        for (int r : order) {
          SliceWorkers.Slice slice = workers.run(r, sliceMillis * 1_000_000L, true);
          if (pair >= 0) {
            p50[r][pair] = slice.p50Micros();
            perSecond[r][pair] = slice.callsPerSecond();
          }
        }
        if (pair >= 0) {
          System.out.println(pairLine(o, threads, pair, order, p50, perSecond));
        }
      }
    }
    StringBuilder summary = new StringBuilder("{\"kind\":\"summary\",").append(where(o, threads))
        .append(String.format(Locale.ROOT, ",\"pairs\":%d,\"slice_ms\":%d", o.pairs(),
            sliceMillis));
    int tf = Runtime.TENSORFLOW.ordinal();
    for (Runtime runtime : RUNTIMES) {
      int r = runtime.ordinal();
      summary.append(",\"").append(runtime.key).append("\":");
      if (notTimed[r] != null) {
        summary.append("null");
        continue;
      }
      summary.append(String.format(Locale.ROOT,
          "{\"p50_us\":%s,\"calls_per_s\":%s,\"bytes_per_call\":%s",
          PairedCallerBench.json(PairStats.Quartiles.of(p50[r]).median()),
          PairedCallerBench.json(PairStats.Quartiles.of(perSecond[r]).median()),
          PairedCallerBench.json(bytesPerCall[r])));
      if (runtime != Runtime.TENSORFLOW) {
        summary.append(",\"p50_ratio\":")
            .append(PairedCallerBench.spread(PairStats.ratios(p50[r], p50[tf])))
            .append(",\"calls_per_s_ratio\":")
            .append(PairedCallerBench.spread(PairStats.ratios(perSecond[r], perSecond[tf])));
      }
      summary.append('}');
    }
    int litert = Runtime.LITERT.ordinal();
    int ort = Runtime.ONNXRUNTIME.ordinal();
    summary.append(",\"litert_vs_onnxruntime_p50_ratio\":").append(
        notTimed[litert] != null || notTimed[ort] != null ? "null"
            : PairedCallerBench.spread(PairStats.ratios(p50[litert], p50[ort])));
    System.out.println(summary.append('}'));
    System.out.flush();
  }

  private static String pairLine(Options o, int threads, int pair, int[] order, double[][] p50,
      double[][] perSecond) {
    StringBuilder line = new StringBuilder("{\"kind\":\"pair\",").append(where(o, threads))
        .append(",\"pair\":").append(pair).append(",\"order\":[");
    for (int i = 0; i < order.length; i++) {
      line.append(i == 0 ? "\"" : ",\"").append(RUNTIMES[order[i]].key).append('"');
    }
    line.append(']');
    for (int r : order) {
      line.append(",\"").append(RUNTIMES[r].key).append("_p50_us\":")
          .append(PairedCallerBench.json(p50[r][pair]))
          .append(",\"").append(RUNTIMES[r].key).append("_calls_per_s\":")
          .append(PairedCallerBench.json(perSecond[r][pair]));
    }
    return line.append('}').toString();
  }

  private static String where(Options o, int threads) {
    return String.format(Locale.ROOT, "\"case\":\"%s\",\"threads\":%d", o.caseName(), threads);
  }
}
