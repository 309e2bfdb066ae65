package io.tfjni.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The order of a pair's slices, on which the paired comparison rests. */
class PairedCallerBenchTest {
  private static final int FLOOR = PairedCallerBench.FLOOR;
  private static final int FAST = PairedCallerBench.FAST;
  private static final int MAP = PairedCallerBench.MAP;

  @Test
  void theFloorRunsBetweenTheJavaContendersWhichSwapSidesEveryPair() {
    assertArrayEquals(new int[] {FAST, FLOOR, MAP}, PairedCallerBench.sliceOrder(0));
    assertArrayEquals(new int[] {MAP, FLOOR, FAST}, PairedCallerBench.sliceOrder(1));
    // Warm-up pairs have negative numbers and alternate too.
    assertArrayEquals(new int[] {MAP, FLOOR, FAST}, PairedCallerBench.sliceOrder(-1));
    assertArrayEquals(new int[] {FAST, FLOOR, MAP}, PairedCallerBench.sliceOrder(-2));
  }

  @Test
  void eachJavaContenderRunsNextToTheFloorAndBeforeItInHalfOfThePairs() {
    int pairs = 10;
    for (int contender : new int[] {FAST, MAP}) {
      int before = 0;
      for (int pair = 0; pair < pairs; pair++) {
        int[] order = PairedCallerBench.sliceOrder(pair);
        int at = indexOf(order, contender);
        assertEquals(1, Math.abs(at - indexOf(order, FLOOR)), "pair " + pair);
        before += at < indexOf(order, FLOOR) ? 1 : 0;
      }
      assertEquals(pairs / 2, before, PairedCallerBench.CONTENDERS[contender]);
    }
  }

  private static int indexOf(int[] order, int contender) {
    for (int i = 0; i < order.length; i++) {
      if (order[i] == contender) {
        return i;
      }
    }
    throw new AssertionError("contender " + contender + " missing from the pair");
  }
}
