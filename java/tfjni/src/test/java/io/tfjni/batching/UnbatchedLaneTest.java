package io.tfjni.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The lane's admission and counting, step by step on one thread. */
class UnbatchedLaneTest {
  private static final int CAPACITY = 3;

  @Test
  void aClosedLaneAdmitsNobody() {
    UnbatchedLane lane = new UnbatchedLane();
    assertEquals(UnbatchedLane.REFUSED, lane.claim(CAPACITY));
    assertFalse(lane.isOpen());
    assertEquals(0, lane.close());
  }

  @Test
  void anOpenLaneAdmitsUpToItsCapacityAndCountsTheRunsThatEnd() {
    UnbatchedLane lane = new UnbatchedLane();
    lane.open(7);
    assertTrue(lane.isOpenFor(7));
    assertFalse(lane.isOpenFor(8));
    for (int run = 0; run < CAPACITY; run++) {
      assertEquals(7, lane.claim(CAPACITY), "run " + run);
    }
    assertEquals(UnbatchedLane.REFUSED, lane.claim(CAPACITY));
    assertTrue(lane.finish(7, 2));
    assertEquals(7, lane.claim(CAPACITY), "a run ended: room for one");
    assertTrue(lane.finish(7, 5));
    assertEquals(2, lane.takeRuns());
    assertEquals(7, lane.takeRows());
    assertEquals(0, lane.takeRuns(), "taking resets");
    assertEquals(0, lane.takeRows());
  }

  @Test
  void runsOverlapOnlyWhenOneIsAdmittedWhileAnotherIsInFlight() {
    UnbatchedLane lane = new UnbatchedLane();
    lane.open(1);
    for (int run = 0; run < 5; run++) {  // one caller: each run ends before the next
      assertEquals(1, lane.claim(CAPACITY));
      assertTrue(lane.finish(1, 1));
    }
    assertFalse(lane.takeOverlapped());
    lane.claim(CAPACITY);
    lane.claim(CAPACITY);  // a second caller's run beside the first
    assertTrue(lane.takeOverlapped());
    assertFalse(lane.takeOverlapped(), "taking resets");
    lane.finish(1, 1);
    lane.finish(1, 1);
    assertFalse(lane.takeOverlapped(), "ending runs is no overlap");
  }

  @Test
  void closingHandsOverTheRunsInFlightWhichThenEndUncounted() {
    UnbatchedLane lane = new UnbatchedLane();
    lane.open(1);
    lane.claim(CAPACITY);
    lane.claim(CAPACITY);
    assertTrue(lane.finish(1, 1));
    assertEquals(1, lane.close(), "one run in flight");
    assertEquals(0, lane.close(), "handed over once");
    assertEquals(UnbatchedLane.REFUSED, lane.claim(CAPACITY));
    assertFalse(lane.finish(1, 4), "its epoch closed: the caller tells the policy");
    assertEquals(1, lane.takeRuns());
    assertEquals(1, lane.takeRows());
  }

  @Test
  void aReopenedLaneCountsOnlyItsOwnEpochsRuns() {
    UnbatchedLane lane = new UnbatchedLane();
    lane.open(1);
    for (int run = 0; run < CAPACITY; run++) {
      lane.claim(CAPACITY);
    }
    assertEquals(CAPACITY, lane.close());
    lane.open(3);
    for (int run = 0; run < CAPACITY; run++) {
      assertEquals(3, lane.claim(CAPACITY), "the earlier epoch's runs are not the lane's now");
    }
    assertFalse(lane.finish(1, 1));
    assertEquals(UnbatchedLane.REFUSED, lane.claim(CAPACITY), "an earlier run made no room");
    assertTrue(lane.finish(3, 1));
    assertEquals(3, lane.claim(CAPACITY));
    assertEquals(CAPACITY, lane.close());
  }

  @Test
  void epochsAreUnsigned32BitNumbers() {
    UnbatchedLane lane = new UnbatchedLane();
    lane.open(0xFFFF_FFFFL);
    assertEquals(0xFFFF_FFFFL, lane.claim(CAPACITY));
    assertTrue(lane.finish(0xFFFF_FFFFL, 1));
    assertThrows(IllegalArgumentException.class, () -> lane.open(-1));
    assertThrows(IllegalArgumentException.class, () -> lane.open(1L << 32));
  }
}
