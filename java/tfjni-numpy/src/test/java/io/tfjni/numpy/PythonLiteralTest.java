package io.tfjni.numpy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.TestModels;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Python literals: those of --input_exprs, and the dicts of .npy headers. */
@ExtendWith(TestModels.NoLeaks.class)
class PythonLiteralTest {
  private static BigInteger i(long v) {
    return BigInteger.valueOf(v);
  }

  @Test
  void numbers() {
    assertEquals(i(42), PythonLiteral.parse("42"));
    assertEquals(i(-7), PythonLiteral.parse(" - 7 "));
    assertEquals(i(255), PythonLiteral.parse("0xff"));
    assertEquals(i(8), PythonLiteral.parse("0o10"));
    assertEquals(i(5), PythonLiteral.parse("0b101"));
    assertEquals(i(1_000_000), PythonLiteral.parse("1_000_000"));
    assertEquals(new BigInteger("18446744073709551615"),
        PythonLiteral.parse("18446744073709551615"));
    assertEquals(1.5, PythonLiteral.parse("1.5"));
    assertEquals(0.5, PythonLiteral.parse(".5"));
    assertEquals(5.0, PythonLiteral.parse("5."));
    assertEquals(-2.5e-3, PythonLiteral.parse("-2.5e-3"));
    assertEquals(1e10, PythonLiteral.parse("1E10"));
    assertEquals(new PythonLiteral.Complex(0, 2), PythonLiteral.parse("2j"));
    assertEquals(new PythonLiteral.Complex(1, 2), PythonLiteral.parse("1+2j"));
    assertEquals(new PythonLiteral.Complex(-1.5, -0.5), PythonLiteral.parse("-1.5-0.5j"));
    assertEquals(Boolean.TRUE, PythonLiteral.parse("True"));
    assertEquals(Boolean.FALSE, PythonLiteral.parse("False"));
  }

  @Test
  void stringsAndBytes() {
    assertEquals("a'b", PythonLiteral.parse("\"a'b\""));
    assertEquals("tab\there\n", PythonLiteral.parse("'tab\\there\\n'"));
    assertEquals("caf\u00e9 \uD83D\uDE00", PythonLiteral.parse("'caf\\xe9 \\U0001F600'"));
    assertEquals("raw\\n", PythonLiteral.parse("r'raw\\n'"));
    assertEquals("ab", PythonLiteral.parse("'a' \"b\""));
    assertEquals("\u00e9", PythonLiteral.parse("'\u00e9'"));
    assertArrayEquals(new byte[] {0, (byte) 0xff, 'A', 7},
        (byte[]) PythonLiteral.parse("b'\\x00\\xff\\101\\a'"));
    assertArrayEquals("\\u00e9".getBytes(StandardCharsets.US_ASCII),
        (byte[]) PythonLiteral.parse("b'\\u00e9'"));
  }

  @Test
  void listsAndTuples() {
    assertEquals(List.of(List.of(i(1), i(2)), List.of(i(3), i(4))),
        PythonLiteral.parse("[[1, 2], [3, 4]]"));
    assertEquals(List.of(i(1), i(2)), PythonLiteral.parse("(1, 2,)"));
    assertEquals(List.of(i(1)), PythonLiteral.parse("(1,)"));
    assertEquals(i(1), PythonLiteral.parse("(1)"));
    assertEquals(List.of(), PythonLiteral.parse("[]"));
    assertEquals(List.of("a", List.of(Boolean.TRUE, 2.5)),
        PythonLiteral.parse("['a', (True, 2.5)]"));
  }

  @Test
  void rejectsWhatLiteralEvalRejects() {
    for (String bad : List.of("", "[1, 2", "1 2", "x", "len([1])", "None", "1 + 2", "'a' + 'b'",
        "'abc", "b'\u00e9'", "[1,, 2]", "0x", "1__0", "012", "1e", "{1 2}", "{1: 2", "-'a'",
        "'a' b'b'")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PythonLiteral.parse(bad), bad);
      assertTrue(e.getMessage().contains(" at column "), e.getMessage());
    }
  }

  @Test
  void dictsAsInNpyHeaders() {
    assertEquals(java.util.Map.of("descr", "<f4", "fortran_order", false, "shape", List.of(i(3))),
        PythonLiteral.parse("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"));
    assertEquals(List.of(i(3), i(4)), ((java.util.Map<?, ?>) PythonLiteral.parseNpyHeader(
        "{'shape': (3L, 4L)}")).get("shape"), "Python 2's NumPy wrote longs");
    assertThrows(IllegalArgumentException.class, () -> PythonLiteral.parse("3L"),
        "not Python 3");
  }

  @Test
  void deepNestingIsOneClearError() {
    int limit = PythonLiteral.MAX_DEPTH;
    Object deepest = PythonLiteral.parse("[".repeat(limit) + "]".repeat(limit));
    for (int d = 1; d < limit; d++) {
      deepest = ((List<?>) deepest).get(0);
    }
    assertEquals(List.of(), deepest);
    for (String open : List.of("[", "(", "{1: ")) {
      String close = open.equals("[") ? "]" : open.equals("(") ? ",)" : "}";
      String text = open.repeat(100_000) + "0" + close.repeat(100_000);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PythonLiteral.parse(text));
      assertTrue(e.getMessage().startsWith("nested deeper than " + limit + " levels at column "),
          e.getMessage().substring(0, 80));
      assertTrue(e.getMessage().length() < 200, "the message quotes a window of the text: "
          + e.getMessage().length() + " characters");
    }
  }

  @Test
  void longRunsOfSignsDoNotRecurse() {
    assertEquals(i(1), PythonLiteral.parse("-".repeat(100_000) + "1"));
    assertEquals(i(-1), PythonLiteral.parse("- + ".repeat(50_001) + "1"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PythonLiteral.parse("-".repeat(100_000) + "'a'"));
    assertTrue(e.getMessage().startsWith("'-' before a non-number at column 100004 of '..."),
        e.getMessage());
  }

  @Test
  void errorMessagesAreOneLine() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PythonLiteral.parse("'''a\nb\u2028c\n'"));
    assertEquals("string is never closed at column 1 of ''''a\\nb\\u2028c\\n''", e.getMessage());
  }
}
