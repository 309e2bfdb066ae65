package io.tfjni.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The C API floor and tfjni's fast path, paired in one process. On a shared or virtual machine the
 * speed drifts between minutes, so two contenders measured minutes apart (the floor by Google
 * Benchmark, the fast path in a JMH fork) differ by the drift as well as by their own costs. Here
 * both run in this JVM on the same worker threads and the same libtensorflow, alternating in short
 * slices: all threads run one contender for a slice, then all run the other, and the order flips
 * every pair. Each pair gives one ratio fast / floor taken over a second or less, in which drift
 * hits both alike; the median of many pairs is the comparison.
 *
 * <p>Per thread count, after warm-up pairs: one JSON line per pair (calls/s of each contender;
 * calls per second of the process's CPU time, which other processes cannot take away, so the
 * contenders' cost per call even when the machine's load moves within a pair; and at 1 thread, each
 * call timed, their median latencies) and a summary line with the quartiles of the ratios and each
 * contender's medians. Both contenders' outputs are checked
 * against TensorFlow Python's before anything is timed.
 *
 * <p>Usage: {@code PairedCallerBench CASE pooled|caller THREADS... [--pairs=N]
 * [--warmup-pairs=N] [--slice-ms=N]}, with {@code -Dtfjni.bench.models}, {@code
 * -Dtfjni.bench.floorLoop} and tfjni's properties ({@code scripts/bench-paired.sh} passes them).
 */
public final class PairedCallerBench {
  static final int FLOOR = 0;
  static final int FAST = 1;
  static final String[] CONTENDERS = {"c_api", "tfjniFast"};
  /** Room for one thread's latencies in a slice: ~5 µs calls fill a 100 ms slice to ~20,000. */
  static final int LATENCY_CAPACITY = 1 << 19;

  private PairedCallerBench() {}

  record Options(String caseName, String threading, int[] threads, int pairs, int warmupPairs,
      int sliceMillis) {
    static Options parse(String[] args) {
      List<String> positional = new ArrayList<>();
      int pairs = 60;
      int warmupPairs = 2;
      int sliceMillis = 100;
      for (String arg : args) {
        if (arg.startsWith("--pairs=")) {
          pairs = positive(arg);
        } else if (arg.startsWith("--warmup-pairs=")) {
          warmupPairs = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
        } else if (arg.startsWith("--slice-ms=")) {
          sliceMillis = positive(arg);
        } else if (arg.startsWith("--")) {
          throw new IllegalArgumentException("unknown option " + arg);
        } else {
          positional.add(arg);
        }
      }
      if (positional.size() < 3) {
        throw new IllegalArgumentException("usage: PairedCallerBench CASE pooled|caller THREADS..."
            + " [--pairs=N] [--warmup-pairs=N] [--slice-ms=N]");
      }
      CaseParam.interOpThreads(positional.get(1));  // rejects an unknown threading
      int[] threads = positional.subList(2, positional.size()).stream()
          .mapToInt(t -> positive("threads=" + t)).toArray();
      return new Options(positional.get(0), positional.get(1), threads, pairs, warmupPairs,
          sliceMillis);
    }

    private static int positive(String arg) {
      int value = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
      if (value <= 0) {
        throw new IllegalArgumentException("not a positive number: " + arg);
      }
      return value;
    }
  }

  public static void main(String[] args) {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("PairedCallerBench: " + e.getMessage());
      System.exit(2);
      return;
    }
    TfjniModel fast = new TfjniModel();
    fast.caseName = o.caseName();
    fast.threading = o.threading();
    fast.open();
    try (FloorLoop floor = FloorLoop.open(fast.benchCase, CaseParam.INTRA_OP_THREADS,
        fast.interOpThreads())) {
      for (int threads : o.threads()) {
        measure(o, threads, floor, fast);
      }
    } finally {
      fast.close();
    }
  }

  /** Warm-up pairs, then the measured pairs at one thread count; prints their lines. */
  private static void measure(Options o, int threads, FloorLoop floor, TfjniModel fast) {
    SliceLoop[][] loops = new SliceLoop[threads][];
    for (int i = 0; i < threads; i++) {
      loops[i] = new SliceLoop[] {floor.newThreadLoop(), new FastPathLoop(fast)};
    }
    boolean recording = threads == 1;  // latency at one caller, as the other benchmarks
    long sliceNanos = o.sliceMillis() * 1_000_000L;
    double[][] perSecond = new double[2][o.pairs()];
    double[][] perCpuSecond = new double[2][o.pairs()];
    double[][] p50 = new double[2][o.pairs()];
    try (SliceWorkers workers = new SliceWorkers(loops, recording ? LATENCY_CAPACITY : 0,
        FloorLoop::processCpuNanos)) {
      for (int pair = -o.warmupPairs(); pair < o.pairs(); pair++) {
        int first = Math.floorMod(pair, 2) == 0 ? FLOOR : FAST;
        SliceWorkers.Slice[] slices = new SliceWorkers.Slice[2];
        slices[first] = workers.run(first, sliceNanos, recording);
        slices[1 - first] = workers.run(1 - first, sliceNanos, recording);
        if (pair < 0) {
          continue;
        }
        for (int c : new int[] {FLOOR, FAST}) {
          perSecond[c][pair] = slices[c].callsPerSecond();
          perCpuSecond[c][pair] = slices[c].callsPerCpuSecond();
          p50[c][pair] = slices[c].p50Micros();
        }
        System.out.println(String.format(Locale.ROOT, "{\"kind\":\"pair\",%s,\"pair\":%d,"
            + "\"first\":\"%s\",%s,%s,%s}", where(o, threads), pair, CONTENDERS[first],
            pairFields("calls_per_s", "calls_per_s_ratio", perSecond, pair),
            pairFields("calls_per_cpu_s", "calls_per_cpu_s_ratio", perCpuSecond, pair),
            pairFields("p50_us", "p50_ratio", p50, pair)));
      }
    }
    PairStats.Quartiles throughput = PairStats.Quartiles.of(
        PairStats.ratios(perSecond[FAST], perSecond[FLOOR]));
    PairStats.Quartiles cpu = PairStats.Quartiles.of(
        PairStats.ratios(perCpuSecond[FAST], perCpuSecond[FLOOR]));
    PairStats.Quartiles latency = PairStats.Quartiles.of(PairStats.ratios(p50[FAST], p50[FLOOR]));
    System.out.println(String.format(Locale.ROOT, "{\"kind\":\"summary\",%s,\"pairs\":%d,"
        + "\"slice_ms\":%d,\"calls_per_s_ratio\":%s,\"calls_per_cpu_s_ratio\":%s,"
        + "\"p50_ratio\":%s,\"c_api\":%s,\"tfjniFast\":%s}", where(o, threads), o.pairs(),
        o.sliceMillis(), json(throughput), json(cpu), recording ? json(latency) : "null",
        contender(perSecond[FLOOR], perCpuSecond[FLOOR], p50[FLOOR]),
        contender(perSecond[FAST], perCpuSecond[FAST], p50[FAST])));
    System.out.flush();
  }

  /** {@code "c_api_M":floor,"tfjniFast_M":fast,"RATIO":fast/floor} of one pair. */
  private static String pairFields(String metric, String ratio, double[][] values, int pair) {
    double floor = values[FLOOR][pair];
    double fast = values[FAST][pair];
    return String.format(Locale.ROOT, "\"%s_%s\":%s,\"%s_%s\":%s,\"%s\":%s", CONTENDERS[FLOOR],
        metric, json(floor), CONTENDERS[FAST], metric, json(fast), ratio, json(fast / floor));
  }

  private static String where(Options o, int threads) {
    return String.format(Locale.ROOT, "\"case\":\"%s\",\"threading\":\"%s\",\"threads\":%d",
        o.caseName(), o.threading(), threads);
  }

  private static String contender(double[] perSecond, double[] perCpuSecond, double[] p50) {
    return String.format(Locale.ROOT, "{\"calls_per_s\":%s,\"calls_per_cpu_s\":%s,"
        + "\"p50_us\":%s}", json(PairStats.Quartiles.of(perSecond).median()),
        json(PairStats.Quartiles.of(perCpuSecond).median()),
        json(PairStats.Quartiles.of(p50).median()));
  }

  private static String json(PairStats.Quartiles q) {
    return String.format(Locale.ROOT, "{\"q1\":%s,\"median\":%s,\"q3\":%s}", json(q.q1()),
        json(q.median()), json(q.q3()));
  }

  /** A number, or null where there is none (latency is not timed above one thread). */
  private static String json(double x) {
    return Double.isNaN(x) ? "null" : String.format(Locale.ROOT, "%.6g", x);
  }
}
