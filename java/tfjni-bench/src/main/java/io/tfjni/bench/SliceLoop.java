package io.tfjni.bench;

/**
 * One contender's calls on one thread for one slice of {@link PairedCallerBench}. Every
 * implementation loops the same way, so the two contenders pay the same for being measured: call,
 * read the clock, stop once the slice's time has passed; when recording, also read the clock before
 * each call and store the call's nanoseconds.
 */
interface SliceLoop extends AutoCloseable {
  /**
   * Calls until {@code durationNanos} have passed (checked after each call) or, when
   * {@code latencies} is not null, until it is full, storing each call's nanoseconds in it from
   * index 0. Returns the number of calls made.
   */
  long run(long durationNanos, long[] latencies);

  @Override
  void close();
}
