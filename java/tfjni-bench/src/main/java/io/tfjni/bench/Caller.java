package io.tfjni.bench;

/**
 * One contender's per-thread way of running a benchmark case once: run the model on the input
 * prepared at set-up, copy the output into an array made at set-up, return its first value (so the
 * work cannot be optimised away). Used by the JMH benchmarks and by {@link RssProbe}.
 */
interface Caller extends AutoCloseable {
  float call();

  @Override
  void close();
}
