package io.tfjni.bench;

/**
 * tfjni's fast path as a {@link SliceLoop}: {@link TfjniModel.FastCaller}'s call ({@code
 * Predictor.run(input, reusedResult)}, then {@code copyTo(float[])}), looped in Java the way
 * native/bench/floor_loop_jni.cpp loops the C API floor.
 */
final class FastPathLoop implements SliceLoop {
  /** Keeps the calls' results alive so the loop cannot be optimised away. */
  private static volatile float sink;

  private final TfjniModel.FastCaller caller = new TfjniModel.FastCaller();

  /** A caller of its own on {@code model}; its set-up checks the output against TF Python's. */
  FastPathLoop(TfjniModel model) {
    caller.setUp(model);
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
