package io.tfjni.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The run-time and batch-size histograms alone: buckets and percentiles of recorded values with
 * known answers.
 */
class HistogramSnapshotTest {
  private static Duration micros(long micros) {
    return Duration.ofNanos(micros * 1000);
  }

  @Test
  void bucketsArePowersOfTwoMicroseconds() {
    assertEquals(0, LatencyHistogram.bucketOf(0));
    assertEquals(0, LatencyHistogram.bucketOf(999), "under 1 µs");
    assertEquals(1, LatencyHistogram.bucketOf(1_000), "[1, 2) µs");
    assertEquals(1, LatencyHistogram.bucketOf(1_999));
    assertEquals(2, LatencyHistogram.bucketOf(2_000), "[2, 4) µs");
    assertEquals(2, LatencyHistogram.bucketOf(3_999));
    assertEquals(3, LatencyHistogram.bucketOf(4_000));
    assertEquals(11, LatencyHistogram.bucketOf(1_500_000), "1500 µs is in [1024, 2048)");
    assertEquals(0, LatencyHistogram.bucketOf(-5), "a clock step back counts as zero");
    assertEquals(HistogramSnapshot.BUCKETS - 1, LatencyHistogram.bucketOf(Long.MAX_VALUE));
    assertEquals(micros(1), HistogramSnapshot.upperBound(0));
    assertEquals(micros(2048), HistogramSnapshot.upperBound(11));
    assertEquals(micros(1L << 30), HistogramSnapshot.upperBound(HistogramSnapshot.BUCKETS - 1),
        "the open last bucket reports where it starts");
  }

  @Test
  void percentilesAreTheBoundsOfTheBucketsHoldingTheirRanks() {
    LatencyHistogram histogram = new LatencyHistogram();
    for (int i = 0; i < 50; i++) {
      histogram.record(1_500);  // [1, 2) µs
    }
    for (int i = 0; i < 49; i++) {
      histogram.record(100_000);  // 100 µs: [64, 128) µs
    }
    histogram.record(5_000_000);  // 5000 µs: [4096, 8192) µs
    HistogramSnapshot snapshot = histogram.snapshot();

    assertEquals(100, snapshot.count());
    assertEquals(50, snapshot.bucketCount(1));
    assertEquals(49, snapshot.bucketCount(7));
    assertEquals(1, snapshot.bucketCount(13));
    assertEquals(micros(2), snapshot.p50(), "the 50th of 100 is the last 1.5 µs value");
    assertEquals(micros(128), snapshot.percentile(0.51), "the 51st is the first 100 µs value");
    assertEquals(micros(128), snapshot.p99(), "the 99th is the last 100 µs value");
    assertEquals(micros(8192), snapshot.percentile(1), "the largest is the 5000 µs value");
    assertEquals(Duration.ofNanos(50 * 1_500 + 49 * 100_000 + 5_000_000), snapshot.sum());
    assertEquals(Duration.ofNanos((50 * 1_500 + 49 * 100_000 + 5_000_000) / 100),
        snapshot.mean());
  }

  @Test
  void anEmptyHistogramHasZeroPercentilesAndBadFractionsAreRefused() {
    HistogramSnapshot empty = new LatencyHistogram().snapshot();
    assertEquals(0, empty.count());
    assertEquals(Duration.ZERO, empty.p99());
    assertEquals(Duration.ZERO, empty.mean());
    assertThrows(IllegalArgumentException.class, () -> empty.percentile(0));
    assertThrows(IllegalArgumentException.class, () -> empty.percentile(1.5));
    assertThrows(IndexOutOfBoundsException.class,
        () -> HistogramSnapshot.upperBound(HistogramSnapshot.BUCKETS));
  }

  @Test
  void sizeBucketsEndAtPowersOfTwo() {
    assertEquals(0, SizeHistogram.bucketOf(1), "up to 1");
    assertEquals(1, SizeHistogram.bucketOf(2), "(1, 2]");
    assertEquals(2, SizeHistogram.bucketOf(3), "(2, 4]");
    assertEquals(2, SizeHistogram.bucketOf(4));
    assertEquals(3, SizeHistogram.bucketOf(5), "(4, 8]");
    assertEquals(5, SizeHistogram.bucketOf(32), "(16, 32]");
    assertEquals(6, SizeHistogram.bucketOf(33), "(32, 64]");
    assertEquals(SizeHistogramSnapshot.BUCKETS - 1, SizeHistogram.bucketOf(Integer.MAX_VALUE));
    assertEquals(1, SizeHistogramSnapshot.upperBound(0));
    assertEquals(32, SizeHistogramSnapshot.upperBound(5));
    assertEquals(1L << 31, SizeHistogramSnapshot.upperBound(SizeHistogramSnapshot.BUCKETS - 1));
    assertThrows(IndexOutOfBoundsException.class,
        () -> SizeHistogramSnapshot.upperBound(SizeHistogramSnapshot.BUCKETS));
  }

  @Test
  void sizePercentilesAreTheBoundsOfTheBucketsHoldingTheirRanks() {
    SizeHistogram histogram = new SizeHistogram();
    for (int i = 0; i < 60; i++) {
      histogram.record(1);
    }
    for (int i = 0; i < 39; i++) {
      histogram.record(7);  // (4, 8]
    }
    histogram.record(32);  // (16, 32]
    SizeHistogramSnapshot snapshot = histogram.snapshot();

    assertEquals(100, snapshot.count());
    assertEquals(60 + 39 * 7 + 32, snapshot.sum());
    assertEquals((60 + 39 * 7 + 32) / 100.0, snapshot.mean());
    assertEquals(60, snapshot.bucketCount(0));
    assertEquals(39, snapshot.bucketCount(3));
    assertEquals(1, snapshot.bucketCount(5));
    assertEquals(1, snapshot.p50(), "the 50th of 100 is a 1");
    assertEquals(8, snapshot.percentile(0.61), "the 61st is the first 7");
    assertEquals(8, snapshot.p99(), "the 99th is the last 7");
    assertEquals(32, snapshot.percentile(1));
    SizeHistogramSnapshot empty = new SizeHistogram().snapshot();
    assertEquals(0, empty.p99());
    assertEquals(0, empty.mean());
    assertThrows(IllegalArgumentException.class, () -> empty.percentile(0));
  }
}
