package io.tfjni.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The C API floor, tfjni's fast path and tfjni's map API, paired in one process. On a shared or
 * virtual machine the speed drifts between minutes, so two contenders measured minutes apart (the
 * floor by Google Benchmark, the Java contenders in JMH forks) differ by the drift as well as by
 * their own costs. Here all three run in this JVM on the same worker threads and the same
 * libtensorflow, in short slices: all threads run one contender for a slice, then all run the next.
 * A pair is three slices with the floor's in the middle, so each Java contender's slice is next to
 * the floor's it is compared with, and the two Java contenders swap sides every pair, so each runs
 * before the floor in half of the pairs and after it in the other half. Each pair gives one ratio
 * contender / floor per Java contender, taken over a third of a second or less, in which drift hits
 * both alike; the median of many pairs is the comparison.
 *
 * <p>Per thread count, after warm-up pairs: one JSON line per pair (calls/s of each contender;
 * calls per second of the process's CPU time, which other processes cannot take away, so the
 * contenders' cost per call even when the machine's load moves within a pair; and at 1 thread, each
 * call timed, their median latencies) and a summary line with each contender's medians and, per
 * Java contender, the quartiles of its ratios and the medians of their first and second halves.
 * Every contender's output is checked against TensorFlow Python's before anything is timed.
 *
 * <p>Usage: {@code PairedCallerBench CASE pooled|caller THREADS... [--pairs=N]
 * [--warmup-pairs=N] [--slice-ms=N]}, with {@code -Dtfjni.bench.models}, {@code
 * -Dtfjni.bench.floorLoop} and tfjni's properties ({@code scripts/bench/bench-paired.sh} passes them).
 */
public final class PairedCallerBench {
  static final int FLOOR = 0;
  static final int FAST = 1;
  static final int MAP = 2;
  static final String[] CONTENDERS = {"c_api", "tfjniFast", "tfjniMap"};
  /** The contenders compared with the floor. */
  private static final int[] JAVA = {FAST, MAP};
  /** What each slice measures, and the name of each one's ratio to the floor. */
  private static final String[] METRICS = {"calls_per_s", "calls_per_cpu_s", "p50_us"};
  private static final String[] RATIOS = {"calls_per_s_ratio", "calls_per_cpu_s_ratio", "p50_ratio"};
  private static final int PER_SECOND = 0;
  private static final int PER_CPU_SECOND = 1;
  private static final int P50 = 2;
  /** Room for one thread's latencies in a slice: ~5 µs calls fill a 100 ms slice to ~20,000. */
  static final int LATENCY_CAPACITY = 1 << 19;

  private PairedCallerBench() {}

  record Options(String caseName, String threading, int[] threads, int pairs, int warmupPairs,
      int sliceMillis) {
    static Options parse(String[] args) {
      List<String> positional = new ArrayList<>();
      int pairs = 100;
      int warmupPairs = 5;
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
    TfjniModel model = new TfjniModel();
    model.caseName = o.caseName();
    model.threading = o.threading();
    model.open();
    try (FloorLoop floor = FloorLoop.open(model.benchCase, CaseParam.INTRA_OP_THREADS,
        model.interOpThreads())) {
      for (int threads : o.threads()) {
        measure(o, threads, floor, model);
      }
    } finally {
      model.close();
    }
  }

  /**
   * The contenders in the order pair {@code pair} runs their slices: the floor's in the middle, the
   * fast path before it and the map API after it in even pairs, the other way round in odd ones.
   */
  static int[] sliceOrder(int pair) {
    return Math.floorMod(pair, 2) == 0 ? new int[] {FAST, FLOOR, MAP} : new int[] {MAP, FLOOR, FAST};
  }

  /** One thread's loop of each contender, indexed by contender; each checks its output first. */
  private static SliceLoop[] threadLoops(FloorLoop floor, TfjniModel model) {
    SliceLoop[] loops = new SliceLoop[CONTENDERS.length];
    loops[FLOOR] = floor.newThreadLoop();
    TfjniModel.FastCaller fast = new TfjniModel.FastCaller();
    fast.setUp(model);
    loops[FAST] = new CallerLoop(fast);
    TfjniModel.MapCaller map = new TfjniModel.MapCaller();
    map.setUp(model);
    loops[MAP] = new CallerLoop(map);
    return loops;
  }

  /** Warm-up pairs, then the measured pairs at one thread count; prints their lines. */
  private static void measure(Options o, int threads, FloorLoop floor, TfjniModel model) {
    SliceLoop[][] loops = new SliceLoop[threads][];
    for (int i = 0; i < threads; i++) {
      loops[i] = threadLoops(floor, model);
    }
    boolean recording = threads == 1;  // latency at one caller, as the other benchmarks
    long sliceNanos = o.sliceMillis() * 1_000_000L;
    double[][][] values = new double[METRICS.length][CONTENDERS.length][o.pairs()];
    try (SliceWorkers workers = new SliceWorkers(loops, recording ? LATENCY_CAPACITY : 0,
        FloorLoop::processCpuNanos)) {
      for (int pair = -o.warmupPairs(); pair < o.pairs(); pair++) {
        int[] order = sliceOrder(pair);
        SliceWorkers.Slice[] slices = new SliceWorkers.Slice[CONTENDERS.length];
        for (int c : order) {
          slices[c] = workers.run(c, sliceNanos, recording);
        }
        if (pair < 0) {
          continue;
        }
        for (int c = 0; c < CONTENDERS.length; c++) {
          values[PER_SECOND][c][pair] = slices[c].callsPerSecond();
          values[PER_CPU_SECOND][c][pair] = slices[c].callsPerCpuSecond();
          values[P50][c][pair] = slices[c].p50Micros();
        }
        System.out.println(pairLine(o, threads, pair, order, values));
      }
    }
    StringBuilder summary = new StringBuilder("{\"kind\":\"summary\",")
        .append(where(o, threads))
        .append(String.format(Locale.ROOT, ",\"pairs\":%d,\"slice_ms\":%d", o.pairs(),
            o.sliceMillis()));
    for (int c = 0; c < CONTENDERS.length; c++) {
      summary.append(",\"").append(CONTENDERS[c]).append("\":").append(contender(c, values));
    }
    System.out.println(summary.append('}'));
    System.out.flush();
  }

  /**
   * A pair's line: each contender's value of each metric ({@code "c_api_calls_per_s"}, ...) and
   * each Java contender's ratio to the floor ({@code "tfjniFast_calls_per_s_ratio"}, ...).
   */
  private static String pairLine(Options o, int threads, int pair, int[] order,
      double[][][] values) {
    StringBuilder line = new StringBuilder("{\"kind\":\"pair\",").append(where(o, threads))
        .append(",\"pair\":").append(pair).append(",\"order\":[");
    for (int i = 0; i < order.length; i++) {
      line.append(i == 0 ? "\"" : ",\"").append(CONTENDERS[order[i]]).append('"');
    }
    line.append(']');
    for (int m = 0; m < METRICS.length; m++) {
      for (int c = 0; c < CONTENDERS.length; c++) {
        line.append(",\"").append(CONTENDERS[c]).append('_').append(METRICS[m]).append("\":")
            .append(json(values[m][c][pair]));
      }
      for (int c : JAVA) {
        line.append(",\"").append(CONTENDERS[c]).append('_').append(RATIOS[m]).append("\":")
            .append(json(values[m][c][pair] / values[m][FLOOR][pair]));
      }
    }
    return line.append('}').toString();
  }

  /**
   * A contender's summary: its median of each metric over the pairs and, for a Java contender,
   * the spread of its per-pair ratios to the floor (null where a metric was not measured: latency
   * above one thread).
   */
  private static String contender(int c, double[][][] values) {
    StringBuilder out = new StringBuilder("{");
    for (int m = 0; m < METRICS.length; m++) {
      out.append(m == 0 ? "\"" : ",\"").append(METRICS[m]).append("\":")
          .append(json(PairStats.Quartiles.of(values[m][c]).median()));
    }
    if (c != FLOOR) {
      for (int m = 0; m < METRICS.length; m++) {
        double[] ratios = PairStats.ratios(values[m][c], values[m][FLOOR]);
        out.append(",\"").append(RATIOS[m]).append("\":")
            .append(Double.isNaN(values[m][c][0]) ? "null" : spread(ratios));
      }
    }
    return out.append('}').toString();
  }

  /** {@code {"q1","median","q3","halves":[first half's median, second half's]}} of some ratios. */
  static String spread(double[] ratiosInOrder) {
    PairStats.Quartiles q = PairStats.Quartiles.of(ratiosInOrder);
    double[] halves = PairStats.halfMedians(ratiosInOrder);
    return String.format(Locale.ROOT, "{\"q1\":%s,\"median\":%s,\"q3\":%s,\"halves\":[%s,%s]}",
        json(q.q1()), json(q.median()), json(q.q3()), json(halves[0]), json(halves[1]));
  }

  private static String where(Options o, int threads) {
    return String.format(Locale.ROOT, "\"case\":\"%s\",\"threading\":\"%s\",\"threads\":%d",
        o.caseName(), o.threading(), threads);
  }

  /** A number, or null where there is none (latency is not timed above one thread). */
  static String json(double x) {
    return Double.isNaN(x) ? "null" : String.format(Locale.ROOT, "%.6g", x);
  }
}
