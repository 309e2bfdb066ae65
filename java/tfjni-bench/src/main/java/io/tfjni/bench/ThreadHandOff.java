package io.tfjni.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * What one hand-off between two threads costs on this machine: a thread wakes a parked one, which
 * wakes it back, as a caller of the batching predictor and its batching thread do for every call.
 * Prints the round trip's percentiles; no TensorFlow involved. A round trip is fast when the
 * woken thread's core is busy or still spinning, and slow when the core has gone idle and must be
 * woken first (on a virtual machine, an interrupt to a halted virtual CPU).
 *
 * <p>Usage: {@code java -cp java/tfjni-bench/target/classes io.tfjni.bench.ThreadHandOff
 * [ROUND_TRIPS]} (default 20000, after 1000 unmeasured ones).
 */
public final class ThreadHandOff {
  private static final int WARMUP = 1000;
  /** Whose turn it is: 1 the partner's, 0 the measuring thread's. */
  private static volatile int turn;

  private ThreadHandOff() {}

  public static void main(String[] args) throws InterruptedException {
    int roundTrips = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int total = WARMUP + roundTrips;
    Thread measuring = Thread.currentThread();
    Thread partner = new Thread(() -> {
      for (int i = 0; i < total; i++) {
        while (turn != 1) {
          LockSupport.park();
        }
        turn = 0;
        LockSupport.unpark(measuring);
      }
    }, "hand-off partner");
    partner.start();
    long[] nanos = new long[roundTrips];
    for (int i = 0; i < total; i++) {
      long start = System.nanoTime();
      turn = 1;
      LockSupport.unpark(partner);
      while (turn != 0) {
        LockSupport.park();
      }
      if (i >= WARMUP) {
        nanos[i - WARMUP] = System.nanoTime() - start;
      }
    }
    partner.join();
    Arrays.sort(nanos);
    System.out.printf(Locale.ROOT, "park/unpark round trip over %d: p10 %.1f us, p50 %.1f us, "
        + "p90 %.1f us, p99 %.1f us%n", roundTrips, micros(nanos, 0.10), micros(nanos, 0.50),
        micros(nanos, 0.90), micros(nanos, 0.99));
  }

  private static double micros(long[] sorted, double quantile) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] / 1e3;
  }
}
