package io.tfjni.serving;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counts of a histogram's {@value #BUCKETS} buckets and the sum of the values recorded, kept
 * in {@link LongAdder}s so that callers on many threads do not contend; the histograms decide
 * which bucket a value falls in. Also the one rule for reading a percentile from bucket counts.
 */
final class BucketCounts {
  static final int BUCKETS = 32;

  private final LongAdder[] buckets = new LongAdder[BUCKETS];
  private final LongAdder sum = new LongAdder();

  BucketCounts() {
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = new LongAdder();
    }
  }

  /** Counts {@code value} in {@code bucket}: two additions, no allocation. */
  void add(int bucket, long value) {
    buckets[bucket].increment();
    sum.add(value);
  }

  /** The counts now; not atomic across buckets, so a count may lead the sum by a value or so. */
  long[] counts() {
    long[] counts = new long[buckets.length];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = buckets[i].sum();
    }
    return counts;
  }

  long sum() {
    return sum.sum();
  }

  /**
   * The bucket holding the ceil(q × count)-th smallest value; -1 if {@code count} is 0.
   *
   * @throws IllegalArgumentException if q is not in (0, 1]
   */
  static int bucketAtRank(long[] counts, long count, double q) {
    if (!(q > 0 && q <= 1)) {
      throw new IllegalArgumentException("the fraction must be in (0, 1], got " + q);
    }
    if (count == 0) {
      return -1;
    }
    long rank = (long) Math.ceil(q * count);
    long seen = 0;
    for (int bucket = 0; bucket < counts.length; bucket++) {
      seen += counts[bucket];
      if (seen >= rank) {
        return bucket;
      }
    }
    throw new AssertionError("rank " + rank + " beyond count " + count);
  }
}
