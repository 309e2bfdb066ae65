package io.tfjni.bench;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.function.LongSupplier;

/**
 * Worker threads that run one contender's slice all at once, for {@link PairedCallerBench}. Each
 * thread holds one {@link SliceLoop} per contender and keeps them for its life, so every contender
 * runs on the same threads. A slice starts when every thread and the caller meet at a barrier and
 * ends when they meet again, so two contenders' slices never overlap.
 */
final class SliceWorkers implements AutoCloseable {
  /**
   * What the threads did in one slice: the sum of each thread's calls per second; all their calls
   * per second of the process's CPU time, which other processes on the machine cannot take away;
   * the median latency of all their calls in µs (NaN unless the slice recorded latencies).
   */
  record Slice(double callsPerSecond, double callsPerCpuSecond, double p50Micros) {}

  private final SliceLoop[][] loops;  // [thread][contender]
  private final long[][] latencies;  // [thread][call], when recording
  private final long[] calls;
  private final long[] nanos;
  private final Thread[] threads;
  private final CyclicBarrier barrier;
  private final LongSupplier processCpuNanos;
  // Written by the caller before the start barrier, which publishes them to the workers.
  private int contender;
  private long durationNanos;
  private boolean recording;
  private boolean stopping;
  private volatile Throwable failure;

  /**
   * Starts one thread per row of {@code loops} (indexed by contender), which it closes when the
   * workers close. {@code latencyCapacity}: room for each thread's latencies in a recording slice
   * (0 if no slice records). {@code processCpuNanos}: the process's CPU time in ns.
   */
  SliceWorkers(SliceLoop[][] loops, int latencyCapacity, LongSupplier processCpuNanos) {
    this.loops = loops;
    this.processCpuNanos = processCpuNanos;
    int count = loops.length;
    latencies = new long[count][latencyCapacity];
    calls = new long[count];
    nanos = new long[count];
    barrier = new CyclicBarrier(count + 1);
    threads = new Thread[count];
    for (int i = 0; i < count; i++) {
      int index = i;
      threads[i] = new Thread(() -> work(index), "slice-worker-" + i);
      threads[i].start();
    }
  }

  /** Runs {@code contender} on every thread for {@code durationNanos}; times each call if asked. */
  Slice run(int contender, long durationNanos, boolean recording) {
    if (recording && latencies[0].length == 0) {
      throw new IllegalStateException("these workers were made without room for latencies");
    }
    this.contender = contender;
    this.durationNanos = durationNanos;
    this.recording = recording;
    long cpuStart = processCpuNanos.getAsLong();
    await();  // start
    await();  // every thread is done
    long cpuNanos = processCpuNanos.getAsLong() - cpuStart;
    if (failure != null) {
      throw new IllegalStateException("a slice of contender " + contender + " failed", failure);
    }
    double perSecond = 0;
    long allCalls = 0;
    for (int i = 0; i < threads.length; i++) {
      perSecond += PairStats.perSecond(calls[i], nanos[i]);
      allCalls += calls[i];
    }
    int recorded = recording ? (int) allCalls : 0;
    return new Slice(perSecond, PairStats.perSecond(allCalls, cpuNanos),
        recording ? PairStats.medianMicros(merged(recorded), recorded) : Double.NaN);
  }

  private long[] merged(int recorded) {
    if (threads.length == 1) {
      return latencies[0];
    }
    long[] all = new long[recorded];
    int at = 0;
    for (int i = 0; i < threads.length; i++) {
      System.arraycopy(latencies[i], 0, all, at, (int) calls[i]);
      at += (int) calls[i];
    }
    return all;
  }

  private void work(int index) {
    try {
      while (true) {
        barrier.await();
        if (stopping) {
          return;
        }
        long start = System.nanoTime();
        try {
          calls[index] = loops[index][contender].run(durationNanos,
              recording ? latencies[index] : null);
        } catch (RuntimeException | Error e) {
          failure = e;  // reported by the caller after this slice; the thread goes on
          calls[index] = 0;
        }
        nanos[index] = System.nanoTime() - start;
        barrier.await();
      }
    } catch (InterruptedException | BrokenBarrierException e) {
      // only when the caller was interrupted: nothing more to run
    }
  }

  private void await() {
    try {
      barrier.await();
    } catch (BrokenBarrierException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("interrupted while running a slice", e);
    }
  }

  /** Stops the threads and closes their loops. */
  @Override
  public void close() {
    stopping = true;
    await();  // the workers see `stopping` and return
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (SliceLoop[] row : loops) {
      for (SliceLoop loop : row) {
        loop.close();
      }
    }
  }
}
