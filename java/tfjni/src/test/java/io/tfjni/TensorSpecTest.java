package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The one rule for whether a shape, or a row of a batch, fits a spec's shape. */
class TensorSpecTest {
  private static TensorSpec spec(long... shape) {
    return new TensorSpec("x", "x:0", DataType.FLOAT, shape);
  }

  private static final TensorSpec UNKNOWN_RANK = spec((long[]) null);

  @Test
  void aShapeFitsWithTheSameRankAndEveryKnownSize() {
    assertTrue(spec(-1, 8, 8, 1).accepts(new long[] {5, 8, 8, 1}));
    assertTrue(spec(2, 3).accepts(new long[] {2, 3}));
    assertTrue(spec().accepts(new long[0]));
  }

  @Test
  void aTensorFitsAsItsShapeDoes() {
    try (Tensor batch = Tensor.of(new float[10], 5, 2);
        Tensor matrix = Tensor.of(new float[6], 2, 3)) {
      assertTrue(spec(-1, 2).accepts(batch));
      assertFalse(spec(-1, 3).accepts(batch));
      assertFalse(spec(-1, 2, 1).accepts(batch));
      assertTrue(spec(2, 3).accepts(matrix));
      assertFalse(spec(3, 3).accepts(matrix));
      assertTrue(UNKNOWN_RANK.accepts(matrix));
    }
    Tensor closed = Tensor.of(new float[2], 2);
    closed.close();
    assertThrows(IllegalStateException.class, () -> UNKNOWN_RANK.accepts(closed));
  }

  @Test
  void anUnknownSizeAcceptsAnySizeButNotAMissingDimension() {
    assertTrue(spec(-1, -1).accepts(new long[] {0, 7}));
    assertFalse(spec(-1, -1).accepts(new long[] {7}));
  }

  @Test
  void aKnownSizeMustBeEqual() {
    assertFalse(spec(-1, 3).accepts(new long[] {2, 4}));
    assertFalse(spec(2, 3).accepts(new long[] {3, 3}));
  }

  @Test
  void theRankMustBeEqual() {
    assertFalse(spec(-1, 3).accepts(new long[] {2, 3, 1}));
    assertFalse(spec(-1, 3).accepts(new long[] {3}));
    assertFalse(spec().accepts(new long[] {1}));
  }

  @Test
  void anUnknownRankAcceptsEveryShapeAndEveryRow() {
    assertTrue(UNKNOWN_RANK.accepts(new long[0]));
    assertTrue(UNKNOWN_RANK.accepts(new long[] {4, 5, 6}));
    assertTrue(UNKNOWN_RANK.acceptsRow(new long[0]));
    assertTrue(UNKNOWN_RANK.acceptsRow(new long[] {4, 5}));
  }

  @Test
  void aRowIsTheSpecWithoutItsBatchDimension() {
    assertTrue(spec(-1, 8, 8, 1).acceptsRow(new long[] {8, 8, 1}));
    assertTrue(spec(-1).acceptsRow(new long[0]));
    assertTrue(spec(-1, -1, 3).acceptsRow(new long[] {9, 3}));
    // The batch dimension is not the row's: a spec's fixed batch size does not bind a row.
    assertTrue(spec(4, 2).acceptsRow(new long[] {2}));
  }

  @Test
  void aRowMustHaveTheRestOfTheSpecsRankAndKnownSizes() {
    assertFalse(spec(-1, 8, 8, 1).acceptsRow(new long[] {-1, 8, 8, 1}));
    assertFalse(spec(-1, 8, 8, 1).acceptsRow(new long[] {64}));
    assertFalse(spec(-1, 8, 8, 1).acceptsRow(new long[] {8, 8, 2}));
    assertFalse(spec(-1, 3).acceptsRow(new long[] {3, 3}));
  }

  @Test
  void aScalarSpecHasNoRows() {
    assertFalse(spec().acceptsRow(new long[0]));
  }
}
