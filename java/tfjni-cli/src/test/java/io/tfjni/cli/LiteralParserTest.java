package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Python literals of --input_exprs, and their conversion to the signature's dtype. */
@ExtendWith(TestModels.NoLeaks.class)
class LiteralParserTest {
  private static BigInteger i(long v) {
    return BigInteger.valueOf(v);
  }

  @Test
  void numbers() {
    assertEquals(i(42), LiteralParser.parse("42"));
    assertEquals(i(-7), LiteralParser.parse(" - 7 "));
    assertEquals(i(255), LiteralParser.parse("0xff"));
    assertEquals(i(8), LiteralParser.parse("0o10"));
    assertEquals(i(5), LiteralParser.parse("0b101"));
    assertEquals(i(1_000_000), LiteralParser.parse("1_000_000"));
    assertEquals(new BigInteger("18446744073709551615"),
        LiteralParser.parse("18446744073709551615"));
    assertEquals(1.5, LiteralParser.parse("1.5"));
    assertEquals(0.5, LiteralParser.parse(".5"));
    assertEquals(5.0, LiteralParser.parse("5."));
    assertEquals(-2.5e-3, LiteralParser.parse("-2.5e-3"));
    assertEquals(1e10, LiteralParser.parse("1E10"));
    assertEquals(new LiteralParser.Complex(0, 2), LiteralParser.parse("2j"));
    assertEquals(new LiteralParser.Complex(1, 2), LiteralParser.parse("1+2j"));
    assertEquals(new LiteralParser.Complex(-1.5, -0.5), LiteralParser.parse("-1.5-0.5j"));
    assertEquals(Boolean.TRUE, LiteralParser.parse("True"));
    assertEquals(Boolean.FALSE, LiteralParser.parse("False"));
  }

  @Test
  void stringsAndBytes() {
    assertEquals("a'b", LiteralParser.parse("\"a'b\""));
    assertEquals("tab\there\n", LiteralParser.parse("'tab\\there\\n'"));
    assertEquals("caf\u00e9 \uD83D\uDE00", LiteralParser.parse("'caf\\xe9 \\U0001F600'"));
    assertEquals("raw\\n", LiteralParser.parse("r'raw\\n'"));
    assertEquals("ab", LiteralParser.parse("'a' \"b\""));
    assertEquals("\u00e9", LiteralParser.parse("'\u00e9'"));
    assertArrayEquals(new byte[] {0, (byte) 0xff, 'A', 7},
        (byte[]) LiteralParser.parse("b'\\x00\\xff\\101\\a'"));
    assertArrayEquals("\\u00e9".getBytes(StandardCharsets.US_ASCII),
        (byte[]) LiteralParser.parse("b'\\u00e9'"));
  }

  @Test
  void listsAndTuples() {
    assertEquals(List.of(List.of(i(1), i(2)), List.of(i(3), i(4))),
        LiteralParser.parse("[[1, 2], [3, 4]]"));
    assertEquals(List.of(i(1), i(2)), LiteralParser.parse("(1, 2,)"));
    assertEquals(List.of(i(1)), LiteralParser.parse("(1,)"));
    assertEquals(i(1), LiteralParser.parse("(1)"));
    assertEquals(List.of(), LiteralParser.parse("[]"));
    assertEquals(List.of("a", List.of(Boolean.TRUE, 2.5)),
        LiteralParser.parse("['a', (True, 2.5)]"));
  }

  @Test
  void rejectsWhatLiteralEvalRejects() {
    for (String bad : List.of("", "[1, 2", "1 2", "x", "len([1])", "None", "1 + 2", "'a' + 'b'",
        "'abc", "b'\u00e9'", "[1,, 2]", "0x", "1__0", "012", "1e", "{1: 2}", "-'a'",
        "'a' b'b'")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> LiteralParser.parse(bad), bad);
      assertTrue(e.getMessage().contains(" at column "), e.getMessage());
    }
  }

  private static InputLoader.Spec spec(DataType type, long... shape) {
    return new InputLoader.Spec(type, shape);
  }

  @Test
  void convertsToTheSignaturesDtype() {
    try (Tensor t = InputLoader.fromExpression("x", "[[1, 2.5], [True, -4]]",
        spec(DataType.DOUBLE, -1, 2))) {
      assertArrayEquals(new long[] {2, 2}, t.shape());
      assertArrayEquals(new double[] {1, 2.5, 1, -4}, t.toDoubleArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "[18446744073709551615, 0]",
        spec(DataType.UINT64, -1))) {
      assertArrayEquals(new long[] {-1, 0}, t.toLongArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "[-128, 127, 2.0]", spec(DataType.INT8, 3))) {
      assertArrayEquals(new byte[] {-128, 127, 2}, t.toByteArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "[0, 2, False]", spec(DataType.BOOL, 3))) {
      assertArrayEquals(new boolean[] {false, true, false}, t.toBooleanArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "[1+2j, 3]",
        spec(DataType.COMPLEX64, 2))) {
      assertArrayEquals(new float[] {1, 2, 3, 0}, t.toFloatArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "['caf\u00e9', b'\\xff']",
        spec(DataType.STRING, 2))) {
      assertArrayEquals(new byte[][] {"caf\u00e9".getBytes(StandardCharsets.UTF_8),
          {(byte) 0xff}}, t.toBytesArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "7", new InputLoader.Spec(DataType.INT32,
        null))) {
      assertEquals(0, t.rank());
      assertArrayEquals(new int[] {7}, t.toIntArray());
    }
    // float16, rounded to nearest even from the double as NumPy does: 0.1 -> 0x2E66,
    // 65504 (the largest) -> 0x7BFF, 65520 (halfway to 65536) -> inf, 2049 -> 2048 (tie, even),
    // 2^-25 (halfway to the smallest subnormal) -> 0, 3 * 2^-25 -> 2 * 2^-24.
    try (Tensor t = InputLoader.fromExpression("x", "[0.1, 65504, 65520, 2049, "
        + "2.98023223876953125e-08, 8.94069671630859375e-08, -0.0]", spec(DataType.HALF, 7))) {
      assertArrayEquals(new short[] {0x2E66, 0x7BFF, 0x7C00, 0x6800, 0, 2, (short) 0x8000},
          t.toShortArray());
    }
  }

  @Test
  void refusesLossyOrWrongConversions() {
    String[][] cases = {
        {"[1.5]", "INT32", "1.5 is not a whole number"},
        {"[128]", "INT8", "128 is out of range for int8"},
        {"[-1]", "UINT64", "-1 is out of range for uint64"},
        {"[18446744073709551616]", "UINT64", "out of range for uint64"},
        {"['a']", "FLOAT", "'a' is not a number"},
        {"[1]", "STRING", "1 is not a string"},
        {"[1j]", "FLOAT", "is not a number"},
        {"['a']", "BOOL", "is not a bool"},
    };
    for (String[] c : cases) {
      CliException e = assertThrows(CliException.class, () -> InputLoader.fromExpression("x",
          c[0], spec(DataType.valueOf(c[1]), -1)), c[0]);
      assertTrue(e.getMessage().contains(c[2]), c[2] + " in " + e.getMessage());
    }
  }
}
