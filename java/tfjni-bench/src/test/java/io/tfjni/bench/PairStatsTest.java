package io.tfjni.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** PairedCallerBench's arithmetic, against values worked out by hand (numpy's quantiles agree). */
class PairStatsTest {
  @Test
  void quartilesInterpolateBetweenClosestRanks() {
    // Sorted 1, 2, 4, 8: ranks 0.75, 1.5, 2.25 (numpy.quantile gives 1.75, 3.0, 5.0).
    PairStats.Quartiles q = PairStats.Quartiles.of(new double[] {8, 1, 4, 2});
    assertEquals(1.75, q.q1(), 1e-12);
    assertEquals(3.0, q.median(), 1e-12);
    assertEquals(5.0, q.q3(), 1e-12);
    PairStats.Quartiles odd = PairStats.Quartiles.of(new double[] {3, 9, 1, 7, 5});
    assertEquals(3.0, odd.q1(), 1e-12);
    assertEquals(5.0, odd.median(), 1e-12);
    assertEquals(7.0, odd.q3(), 1e-12);
    PairStats.Quartiles one = PairStats.Quartiles.of(new double[] {2.5});
    assertEquals(2.5, one.q1());
    assertEquals(2.5, one.q3());
    assertTrue(Double.isNaN(PairStats.Quartiles.of(new double[0]).median()));
  }

  @Test
  void quartilesLeaveTheirInputAlone() {
    double[] values = {8, 1, 4, 2};
    PairStats.Quartiles.of(values);
    assertArrayEquals(new double[] {8, 1, 4, 2}, values);
  }

  @Test
  void ratiosArePerPairFastOverFloor() {
    // The median of per-pair ratios is not the ratio of medians: here 1.0 against 100 / 50 = 2.
    double[] floor = {100, 50, 10};
    double[] fast = {100, 50, 100};
    assertArrayEquals(new double[] {1, 1, 10}, PairStats.ratios(fast, floor), 1e-12);
    assertEquals(1.0, PairStats.Quartiles.of(PairStats.ratios(fast, floor)).median(), 1e-12);
    assertThrows(IllegalArgumentException.class,
        () -> PairStats.ratios(new double[2], new double[3]));
  }

  @Test
  void halvesAreTheMediansOfTheFirstAndSecondHalfInRunOrder() {
    // First half 9, 1, 5 (median 5), second 2, 8, 4, 6 (median 5): the order of the runs counts,
    // not the values' ranks (sorted, the halves would be 1, 2, 4 and 5, 6, 8, 9).
    assertArrayEquals(new double[] {5, 5},
        PairStats.halfMedians(new double[] {9, 1, 5, 2, 8, 4, 6}), 1e-12);
    // Drift: the second half's median is higher.
    assertArrayEquals(new double[] {1.5, 3.5},
        PairStats.halfMedians(new double[] {1, 2, 3, 4}), 1e-12);
  }

  @Test
  void medianLatencyOfTheRecordedCallsOnly() {
    long[] nanos = {5000, 3000, 4000, 1_000_000, 2_000_000};  // left from an earlier slice
    assertEquals(4.0, PairStats.medianMicros(nanos, 3), 1e-12);
    assertEquals(3.5, PairStats.medianMicros(new long[] {4000, 3000}, 2), 1e-12);
  }

  @Test
  void callsPerSecond() {
    assertEquals(200_000.0, PairStats.perSecond(50_000, 250_000_000L), 1e-9);
  }
}
