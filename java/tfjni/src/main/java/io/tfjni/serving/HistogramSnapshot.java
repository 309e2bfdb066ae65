package io.tfjni.serving;

import java.time.Duration;
import java.util.Arrays;

/**
 * Durations counted in fixed log-spaced buckets: bucket 0 holds those under 1 µs, bucket i (1 to
 * {@link #BUCKETS} - 2) those from 2^(i-1) µs up to, not including, 2^i µs ({@link
 * #upperBound(int)}), and the last bucket those of 2^({@link #BUCKETS} - 2) µs (about 18 minutes)
 * and more. A percentile is the upper bound of the bucket holding it, so it overstates the true
 * value by less than a factor of 2. Immutable.
 */
public final class HistogramSnapshot {
  /** The number of buckets. */
  public static final int BUCKETS = BucketCounts.BUCKETS;

  private final long[] counts;
  private final long count;
  private final long sumNanos;

  HistogramSnapshot(long[] counts, long sumNanos) {
    if (counts.length != BUCKETS) {
      throw new IllegalArgumentException("expected " + BUCKETS + " buckets, got "
          + counts.length);
    }
    this.counts = counts.clone();
    this.count = Arrays.stream(counts).sum();
    this.sumNanos = sumNanos;
  }

  /**
   * Where a bucket ends.
   *
   * @param bucket 0 to {@link #BUCKETS} - 1
   * @return 2^bucket µs (exclusive); for the last bucket, which has no end, its start
   */
  public static Duration upperBound(int bucket) {
    if (bucket < 0 || bucket >= BUCKETS) {
      throw new IndexOutOfBoundsException("bucket " + bucket + " of " + BUCKETS);
    }
    int exponent = bucket == BUCKETS - 1 ? bucket - 1 : bucket;
    return Duration.ofNanos((1L << exponent) * 1000);
  }

  /**
   * The number of durations in a bucket.
   *
   * @param bucket 0 to {@link #BUCKETS} - 1
   * @return the count
   */
  public long bucketCount(int bucket) {
    return counts[bucket];
  }

  /**
   * The number of durations recorded.
   *
   * @return the count
   */
  public long count() {
    return count;
  }

  /**
   * The sum of the durations recorded.
   *
   * @return the sum
   */
  public Duration sum() {
    return Duration.ofNanos(sumNanos);
  }

  /**
   * The mean duration.
   *
   * @return the sum over the count; zero if nothing was recorded
   */
  public Duration mean() {
    return count == 0 ? Duration.ZERO : Duration.ofNanos(sumNanos / count);
  }

  /**
   * The bucket bound at or below which a fraction of the durations lie: the {@link
   * #upperBound(int)} of the bucket holding the ceil(q × count)-th smallest duration.
   *
   * @param q the fraction, over 0 and at most 1 (0.5: the median)
   * @return that bound; zero if nothing was recorded
   */
  public Duration percentile(double q) {
    int bucket = BucketCounts.bucketAtRank(counts, count, q);
    return bucket < 0 ? Duration.ZERO : upperBound(bucket);
  }

  /**
   * The median's bucket bound.
   *
   * @return {@code percentile(0.5)}
   */
  public Duration p50() {
    return percentile(0.5);
  }

  /**
   * The 99th percentile's bucket bound.
   *
   * @return {@code percentile(0.99)}
   */
  public Duration p99() {
    return percentile(0.99);
  }

  @Override
  public String toString() {
    return "count=" + count + " p50<" + p50().toNanos() / 1000 + "µs p99<"
        + p99().toNanos() / 1000 + "µs mean=" + mean().toNanos() / 1000 + "µs";
  }
}
