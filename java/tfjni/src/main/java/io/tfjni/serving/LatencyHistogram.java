package io.tfjni.serving;

/**
 * Counts durations in fixed log-spaced buckets: bucket 0 holds those under 1 µs, bucket i (1 to
 * {@link HistogramSnapshot#BUCKETS} - 2) those from 2^(i-1) µs to under 2^i µs, the last one
 * the rest. Lock-free and allocation-free: recording is a division, a bit count and two {@link
 * java.util.concurrent.atomic.LongAdder} additions, so that callers on many threads do not
 * contend.
 */
final class LatencyHistogram {
  private final BucketCounts counts = new BucketCounts();

  void record(long nanos) {
    counts.add(bucketOf(nanos), nanos);
  }

  static int bucketOf(long nanos) {
    long micros = Math.max(nanos, 0) / 1000;
    return Math.min(64 - Long.numberOfLeadingZeros(micros), HistogramSnapshot.BUCKETS - 1);
  }

  /** The counts now; not atomic across buckets, so a count may lead the sum by a call or so. */
  HistogramSnapshot snapshot() {
    return new HistogramSnapshot(counts.counts(), counts.sum());
  }
}
