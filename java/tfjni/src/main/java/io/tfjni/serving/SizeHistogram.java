package io.tfjni.serving;

/**
 * Counts sizes (rows per batch) in power-of-two buckets: bucket 0 holds sizes up to 1, bucket i
 * (1 to {@link SizeHistogramSnapshot#BUCKETS} - 1) those over 2^(i-1) and up to 2^i, so that a
 * maximum batch size that is a power of two is a bucket's bound. Lock-free and allocation-free.
 */
final class SizeHistogram {
  private final BucketCounts counts = new BucketCounts();

  void record(int size) {
    counts.add(bucketOf(size), size);
  }

  static int bucketOf(int size) {
    return size <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(size - 1);
  }

  /** The counts now; not atomic across buckets, so a count may lead the sum by a batch or so. */
  SizeHistogramSnapshot snapshot() {
    return new SizeHistogramSnapshot(counts.counts(), counts.sum());
  }
}
