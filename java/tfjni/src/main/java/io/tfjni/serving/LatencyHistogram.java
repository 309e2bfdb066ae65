package io.tfjni.serving;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts durations in fixed log-spaced buckets: bucket 0 holds those under 1 µs, bucket i (1 to
 * {@link HistogramSnapshot#BUCKETS} - 2) those from 2^(i-1) µs to under 2^i µs, the last one
 * the rest. Lock-free and allocation-free: recording is a division, a bit count and two {@link
 * LongAdder} additions, so that callers on many threads do not contend.
 */
final class LatencyHistogram {
  private final LongAdder[] buckets = new LongAdder[HistogramSnapshot.BUCKETS];
  private final LongAdder sumNanos = new LongAdder();

  LatencyHistogram() {
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = new LongAdder();
    }
  }

  void record(long nanos) {
    buckets[bucketOf(nanos)].increment();
    sumNanos.add(nanos);
  }

  static int bucketOf(long nanos) {
    long micros = Math.max(nanos, 0) / 1000;
    return Math.min(64 - Long.numberOfLeadingZeros(micros), HistogramSnapshot.BUCKETS - 1);
  }

  /** The counts now; not atomic across buckets, so a count may lead the sum by a call or so. */
  HistogramSnapshot snapshot() {
    long[] counts = new long[buckets.length];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = buckets[i].sum();
    }
    return new HistogramSnapshot(counts, sumNanos.sum());
  }
}
