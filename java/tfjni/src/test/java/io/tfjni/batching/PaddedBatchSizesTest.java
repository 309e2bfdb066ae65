package io.tfjni.batching;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PaddedBatchSizesTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 8})
  void aBatchIsPaddedToTheNextAllowedSize(int rows) {
    int[] allowed = {2, 4, 8};
    int expected = rows <= 2 ? 2 : rows <= 4 ? 4 : 8;
    assertEquals(expected, PaddedBatchSizes.paddedSize(rows, allowed));
    assertEquals(rows, PaddedBatchSizes.paddedSize(rows, new int[0]));
  }

  /**
   * With LiteRT models at some sizes, a batch is padded up to the next converted size and runs
   * as it is above the largest; without one within the maximum batch size, never padded.
   */
  @Test
  void batchesArePaddedOnlyUpToAConvertedSize() {
    int[] upTo16 = new int[14];
    upTo16[0] = 1;
    for (int i = 1; i < upTo16.length; i++) {
      upTo16[i] = i + 3;  // 4, 5, ..., 16
    }
    assertArrayEquals(upTo16, PaddedBatchSizes.forConverted(Set.of(4, 1), 16));
    assertArrayEquals(new int[] {2, 8}, PaddedBatchSizes.forConverted(Set.of(2, 8, 32), 8));
    assertArrayEquals(new int[] {1, 4}, PaddedBatchSizes.forConverted(List.of(4, 1, 4), 4));
    assertArrayEquals(new int[0], PaddedBatchSizes.forConverted(Set.of(8), 4));
    assertArrayEquals(new int[0], PaddedBatchSizes.forConverted(Set.of(), 16));
  }

  /** A short batch of a Spark partition, batch size 6 with LiteRT models at 1 and 4. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6})
  void aShortBatchRunsAtTheSmallestConvertedSizeHoldingIt(int rows) {
    int[] allowed = PaddedBatchSizes.forConverted(List.of(1, 4), 6);
    int expected = rows == 1 ? 1 : rows <= 4 ? 4 : rows;
    assertEquals(expected, PaddedBatchSizes.paddedSize(rows, allowed));
  }
}
