package io.tfjni.serving;

import java.util.Arrays;

/**
 * Sizes (the rows of each batch a batching predictor ran) counted in power-of-two buckets: bucket
 * 0 holds sizes up to 1, bucket i (1 to {@link #BUCKETS} - 1) those over 2^(i-1) and up to 2^i
 * ({@link #upperBound(int)}). A percentile is the bound of the bucket holding it: exact for sizes
 * that are powers of two, otherwise above the true size by less than a factor of 2. Immutable.
 */
public final class SizeHistogramSnapshot {
  /** The number of buckets: the last one ends at 2^31, above any batch size. */
  public static final int BUCKETS = BucketCounts.BUCKETS;

  private final long[] counts;
  private final long count;
  private final long sum;

  SizeHistogramSnapshot(long[] counts, long sum) {
    if (counts.length != BUCKETS) {
      throw new IllegalArgumentException("expected " + BUCKETS + " buckets, got "
          + counts.length);
    }
    this.counts = counts.clone();
    this.count = Arrays.stream(counts).sum();
    this.sum = sum;
  }

  /**
   * The largest size a bucket holds.
   *
   * @param bucket 0 to {@link #BUCKETS} - 1
   * @return 2^bucket
   * @throws IndexOutOfBoundsException if there is no such bucket
   */
  public static long upperBound(int bucket) {
    if (bucket < 0 || bucket >= BUCKETS) {
      throw new IndexOutOfBoundsException("bucket " + bucket + " of " + BUCKETS);
    }
    return 1L << bucket;
  }

  /**
   * The number of sizes in a bucket.
   *
   * @param bucket 0 to {@link #BUCKETS} - 1
   * @return the count
   */
  public long bucketCount(int bucket) {
    return counts[bucket];
  }

  /**
   * The number of sizes recorded: for batch sizes, the batches run.
   *
   * @return the count
   */
  public long count() {
    return count;
  }

  /**
   * The sum of the sizes recorded: for batch sizes, the rows run.
   *
   * @return the sum
   */
  public long sum() {
    return sum;
  }

  /**
   * The mean size.
   *
   * @return the sum over the count; zero if nothing was recorded
   */
  public double mean() {
    return count == 0 ? 0 : (double) sum / count;
  }

  /**
   * The bucket bound at or below which a fraction of the sizes lie: the {@link #upperBound(int)}
   * of the bucket holding the ceil(q × count)-th smallest size.
   *
   * @param q the fraction, over 0 and at most 1 (0.5: the median)
   * @return that bound; zero if nothing was recorded
   * @throws IllegalArgumentException if q is not in (0, 1]
   */
  public long percentile(double q) {
    int bucket = BucketCounts.bucketAtRank(counts, count, q);
    return bucket < 0 ? 0 : upperBound(bucket);
  }

  /**
   * The median's bucket bound.
   *
   * @return {@code percentile(0.5)}
   */
  public long p50() {
    return percentile(0.5);
  }

  /**
   * The 99th percentile's bucket bound.
   *
   * @return {@code percentile(0.99)}
   */
  public long p99() {
    return percentile(0.99);
  }

  @Override
  public String toString() {
    return "count=" + count + " p50<=" + p50() + " p99<=" + p99() + " mean=" + mean();
  }
}
