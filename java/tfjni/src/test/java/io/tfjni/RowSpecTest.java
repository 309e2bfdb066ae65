package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The row rule against arithmetic: the shapes and counts of rows, what a row given as an array
 * must be, every integer dtype's range edges from powers of two, and the policy's words.
 */
class RowSpecTest {
  private static RowSpec row(DataType dataType, long... shape) {
    return RowSpec.of(new TensorSpec("x", "x:0", dataType, shape), "input");
  }

  @Test
  void onlyABatchMajorSpecHasRows() {
    IllegalArgumentException unknownRank = assertThrows(IllegalArgumentException.class,
        () -> RowSpec.of(new TensorSpec("x", "x:0", DataType.FLOAT, null), "input"));
    assertEquals("input 'x' has an unknown rank: rows need to know which dimension is the batch",
        unknownRank.getMessage());
    for (long[] shape : new long[][] {{}, {3, -1}, {1, 2}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> RowSpec.of(new TensorSpec("y", "y:0", DataType.FLOAT, shape), "output"));
      assertTrue(e.getMessage().startsWith("output 'y' has shape "
          + java.util.Arrays.toString(shape) + ", which is not batch-major"), e.getMessage());
    }
  }

  @Test
  void aRowIsTheShapeAfterTheBatchAndItsElements() {
    RowSpec image = row(DataType.FLOAT, -1, 8, 8, 1);
    assertArrayEquals(new long[] {8, 8, 1}, image.shape());
    assertEquals(3, image.rank());
    assertEquals(8 * 8, image.elements());
    assertEquals(8 * 8, image.arrayLength());
    assertEquals("FLOAT [8, 8, 1] per row", image.describe());
    assertEquals(1, row(DataType.INT32, -1).elements());
    assertEquals(0, row(DataType.FLOAT, -1, 0).arrayLength());
    assertEquals(2 * 3, row(DataType.COMPLEX64, -1, 3).arrayLength(), "two floats an element");
    assertEquals(3, row(DataType.STRING, -1, 3).arrayLength(), "one string an element");
    assertTrue(image.accepts(new long[] {8, 8, 1}));
    assertFalse(image.accepts(new long[] {64}));
    assertFalse(image.accepts(new long[] {8, 8, 2}));

    RowSpec open = row(DataType.FLOAT, -1, -1, 3);
    assertEquals(-1, open.elements());
    assertTrue(open.accepts(new long[] {5, 3}));
    assertFalse(open.accepts(new long[] {5, 4}));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, open::arrayLength);
    assertEquals("input 'x' has shape [-1, -1, 3]: only the batch dimension may be unknown in a"
        + " row given as an array", e.getMessage());
  }

  @Test
  void aRowGivenAsAnArrayIsTheDtypesArrayOfTheRowsLength() {
    RowSpec pair = row(DataType.FLOAT, -1, 2);
    pair.checkArray(new float[2]);
    assertProblem("is null", () -> pair.checkArray(null));
    assertProblem("is a double[], the signature wants FLOAT (a float[])",
        () -> pair.checkArray(new double[2]));
    assertProblem("has 3 elements, a row of the signature's [-1, 2] has 2",
        () -> pair.checkArray(new float[3]));
    RowSpec words = row(DataType.STRING, -1, 2);
    words.checkArray(new String[] {"a", "b"});
    words.checkArray(new byte[][] {{1}, {}});
    assertProblem("has a null at element 1", () -> words.checkArray(new String[] {"a", null}));
    assertProblem("is a byte[], the signature wants STRING (a String[] or byte[][])",
        () -> words.checkArray(new byte[2]));
  }

  private static void assertProblem(String problem, Runnable check) {
    InvalidRowException e = assertThrows(InvalidRowException.class, check::run);
    assertEquals("x", e.inputKey());
    assertEquals(problem, e.problem());
    assertEquals("input 'x' " + problem, e.getMessage());
  }

  /** Each integer dtype with its smallest and largest value, from its bits. */
  private static final Object[][] RANGES = {
      {DataType.INT8, -pow2(7), pow2(7) - 1},
      {DataType.UINT8, 0L, pow2(8) - 1},
      {DataType.INT16, -pow2(15), pow2(15) - 1},
      {DataType.UINT16, 0L, pow2(16) - 1},
      {DataType.INT32, -pow2(31), pow2(31) - 1},
      {DataType.UINT32, 0L, pow2(32) - 1},
      {DataType.BOOL, 0L, 1L},
  };

  private static long pow2(int n) {
    return 1L << n;
  }

  @Test
  void everyIntegerDtypeTakesItsRangeAndNothingOutside() {
    for (Object[] r : RANGES) {
      DataType dtype = (DataType) r[0];
      long min = (Long) r[1];
      long max = (Long) r[2];
      RowSpec spec = row(dtype, -1);
      String range = "out of " + dtype + "'s range [" + min + ", " + max + "]";
      for (long fits : new long[] {min, max}) {
        assertEquals(fits, spec.toInteger(fits, 0), dtype + " " + fits);
        assertEquals(fits, spec.toInteger((double) fits, 0), dtype + " " + fits + ".0");
        assertEquals(fits, spec.toInteger(BigDecimal.valueOf(fits), 0), dtype + " decimal");
      }
      assertProblem("has " + (min - 1) + " at element 2, " + range,
          () -> spec.toInteger(min - 1, 2));
      assertProblem("has " + (max + 1) + " at element 2, " + range,
          () -> spec.toInteger(max + 1, 2));
      assertProblem("has " + (double) (max + 1) + " at element 0, " + range,
          () -> spec.toInteger((double) (max + 1), 0));
      assertProblem("has " + (double) (min - 1) + " at element 0, " + range,
          () -> spec.toInteger((double) (min - 1), 0));
      assertProblem("has " + (max + 1) + " at element 0, " + range,
          () -> spec.toInteger(BigDecimal.valueOf(max + 1), 0));
    }
  }

  @Test
  void sixtyFourBitDtypesTakeTheirEdgesExactly() {
    RowSpec int64 = row(DataType.INT64, -1);
    String int64Range = "out of INT64's range [-9223372036854775808, 9223372036854775807]";
    assertEquals(Long.MIN_VALUE, int64.toInteger(-0x1p63, 0));
    // The largest double below 2^63 is 2^63 - 2^10.
    assertEquals(pow2(62) + (pow2(62) - pow2(10)), int64.toInteger(0x1.fffffffffffffp62, 0));
    assertProblem("has 9.223372036854776E18 at element 0, " + int64Range,
        () -> int64.toInteger(0x1p63, 0));
    assertEquals(Long.MAX_VALUE, int64.toInteger(new BigDecimal("9223372036854775807"), 0));
    assertProblem("has 9223372036854775808 at element 0, " + int64Range,
        () -> int64.toInteger(new BigDecimal("9223372036854775808"), 0));

    RowSpec uint64 = row(DataType.UINT64, -1);
    String uint64Range = "out of UINT64's range [0, 18446744073709551615]";
    assertEquals(Long.MAX_VALUE, uint64.toInteger(Long.MAX_VALUE, 0));
    assertProblem("has -1 at element 0, " + uint64Range, () -> uint64.toInteger(-1L, 0));
    // 2^63 and the largest double below 2^64 (2^64 - 2^11) as their 64 bits.
    assertEquals(new BigInteger("9223372036854775808").longValue(),
        uint64.toInteger(0x1p63, 0));
    assertEquals(new BigInteger("18446744073709549568").longValue(),
        uint64.toInteger(0x1.fffffffffffffp63, 0));
    assertProblem("has 1.8446744073709552E19 at element 0, " + uint64Range,
        () -> uint64.toInteger(0x1p64, 0));
    assertProblem("has -1.0 at element 0, " + uint64Range, () -> uint64.toInteger(-1.0, 0));
    assertEquals(-1L, uint64.toInteger(new BigDecimal("18446744073709551615"), 0));
    assertProblem("has 18446744073709551616 at element 0, " + uint64Range,
        () -> uint64.toInteger(new BigDecimal("18446744073709551616"), 0));
  }

  @Test
  void aNumberThatIsNotWholeFeedsNoInteger() {
    RowSpec int32 = row(DataType.INT32, -1, 3);
    assertProblem("has 2.5 at element 1, not an INT32 (not a whole number)",
        () -> int32.toInteger(2.5, 1));
    assertProblem("has -0.5 at element 0, not an INT32 (not a whole number)",
        () -> int32.toInteger(-0.5, 0));
    assertProblem("has NaN at element 0, not an INT32 (not a number)",
        () -> int32.toInteger(Double.NaN, 0));
    assertProblem("has Infinity at element 0, not an INT32 (infinite)",
        () -> int32.toInteger(Double.POSITIVE_INFINITY, 0));
    assertProblem("has -Infinity at element 0, not an INT32 (infinite)",
        () -> int32.toInteger(Double.NEGATIVE_INFINITY, 0));
    assertProblem("has 1.5 at element 2, not an INT32 (not a whole number)",
        () -> int32.toInteger(new BigDecimal("1.5"), 2));
    assertEquals(0, int32.toInteger(-0.0, 0));
    assertEquals(3, int32.toInteger(new BigDecimal("3.000"), 0));
    RowSpec uint8 = row(DataType.UINT8, -1);
    assertProblem("has 0.5 at element 0, not a UINT8 (not a whole number)",
        () -> uint8.toInteger(0.5, 0));
    RowSpec floats = row(DataType.FLOAT, -1);
    assertThrows(IllegalStateException.class, () -> floats.toInteger(1L, 0));
    assertThrows(IllegalStateException.class, () -> floats.toInteger(1.5, 0));
  }

  @Test
  void thePolicyFailsDropsOrKeepsARowInOneWording() {
    IllegalArgumentException error = InvalidRows.error("job: column 'c' (input 'x'), row 4",
        "has 3 elements", "FLOAT [2] per row", "handleInvalid", List.of("'skip'", "'keep'"),
        "row");
    assertEquals("job: column 'c' (input 'x'), row 4: has 3 elements; expected FLOAT [2] per"
        + " row. Set handleInvalid to 'skip' or 'keep' to go on past such rows",
        error.getMessage());
    assertEquals(error, assertThrows(IllegalArgumentException.class,
        () -> InvalidRows.ERROR.keeps(() -> error)));
    assertFalse(InvalidRows.SKIP.keeps(() -> error));
    assertTrue(InvalidRows.KEEP.keeps(() -> error));
  }
}
