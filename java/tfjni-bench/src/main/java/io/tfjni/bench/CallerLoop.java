package io.tfjni.bench;

/**
 * A Java contender's calls as a {@link SliceLoop}: a {@link Caller}'s call (tfjni's fast path or
 * its map API), looped in Java the way native/bench/floor_loop_jni.cpp loops the C API floor. Both
 * Java contenders run through this one loop, so they pay the same for being measured.
 */
final class CallerLoop implements SliceLoop {
  /** Keeps the calls' results alive so the loop cannot be optimised away. */
  private static volatile float sink;

  private final Caller caller;

  /** Loops {@code caller}, already set up (its set-up checks the output against TF Python's). */
  CallerLoop(Caller caller) {
    this.caller = caller;
  }

  @Override
  public long run(long durationNanos, long[] latencies) {
    long deadline = System.nanoTime() + durationNanos;
    long calls = 0;
    float acc = 0;
    if (latencies == null) {
      do {
        acc += caller.call();
        calls++;
      } while (System.nanoTime() - deadline < 0);
    } else {
      if (latencies.length == 0) {
        throw new IllegalArgumentException("no room for latencies");
      }
      long end;
      do {
        long start = System.nanoTime();
        acc += caller.call();
        end = System.nanoTime();
        latencies[(int) calls++] = end - start;
      } while (end - deadline < 0 && calls < latencies.length);
    }
    sink = acc;
    return calls;
  }

  @Override
  public void close() {
    caller.close();
  }
}
