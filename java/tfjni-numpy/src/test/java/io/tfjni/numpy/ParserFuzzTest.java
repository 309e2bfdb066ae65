package io.tfjni.numpy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A bounded, seeded random-input test of the two parsers that read what a user hands the CLI:
 * Python literals ({@code --input_exprs}) and .npy files (their header is a literal too). Inputs
 * are mutated from valid literals and files, plus runs of nesting and signs far past the depth
 * limit. Each must end in a value or an {@link IllegalArgumentException} whose message is one line;
 * anything else (a StackOverflowError, an ArithmeticException, ...) fails the test and prints the
 * input, escaped. The seed is fixed, so a failure repeats.
 */
class ParserFuzzTest {
  private static final long SEED = 0x7f1a_2024_0016L;
  private static final int ROUNDS = 3000;

  private static final List<String> LITERALS = List.of(
      "[[1, 2], [3, 4]]", "(1, 2,)", "(1)",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
      "[1.5, -2e3, 0x1f, 0o17, 0b101, 1_000, .5, 5.]", "b'\\x00\\xff\\101\\a'",
      "'caf\\xe9 \\U0001F600 \\u00e9 \\N'", "1+2j", "-1.5-0.5j", "[True, False]", "r'raw\\n'",
      "'''tri\nple'''", "\"a'b\" 'c'", "[(1,), ((2, 3),)]", "{1: {2: [3]}}", "18446744073709551615",
      "-(-(+3))", "[b'ab' b'cd', 'x' 'y']", "{'shape': (3L, 4L)}", "[]", "()", "{}");

  /** Characters that mean something to the parser, and some that mean nothing. */
  private static final String ALPHABET = "[](){},:;'\"\\ \n\t\r-+._0123456789eEjJxXoObBrRuUL"
      + "TrueFalseNone\u00e9\u2028\u0000\ud83d";

  private static final List<String> DESCRS = List.of("<f4", ">i8", "|b1", "<U2", "|S3", "|V2",
      "<c8", "f8", "<M8[s]", "|O");
  private static final List<String> SHAPES = List.of("()", "(3,)", "(2, 4)", "(0, 5)", "(1,)");

  /** Numbers at the edges of int and long, and of an int that is multiplied by 4. */
  private static final List<String> INTERESTING_NUMBERS = List.of("0", "1", "255", "65536",
      "536870912", "2147483647", "2147483648", "4294967296", "9223372036854775807",
      "9223372036854775808", "99999999999999999999");

  private final Random random = new Random(SEED);

  @Test
  void literalsEndInAValueOrOneLineOfIllegalArgumentException() {
    for (int i = 0; i < ROUNDS; i++) {
      String input = i % 10 == 0 ? deepRun() : mutate(pick(LITERALS));
      check("PythonLiteral.parse", input, PythonLiteral::parse);
      check("PythonLiteral.parseNpyHeader", input, PythonLiteral::parseNpyHeader);
    }
  }

  @Test
  void npyFilesEndInAnArrayOrIllegalArgumentException() {
    List<byte[]> files = List.of(
        NpyFiles.npy("<f4", "(2, 3)", new byte[24]),
        NpyFiles.npy(">i8", "(3,)", new byte[24]),
        NpyFiles.npy("|b1", "()", new byte[1]),
        NpyFiles.npy("<U2", "(2,)", new byte[16]),
        NpyFiles.npy("|S3", "(1, 1)", new byte[3]),
        NpyFiles.npy("|V2", "(4,)", new byte[8]),
        NpyFiles.npy("<c8", "(0, 5)", new byte[0]));
    for (int i = 0; i < ROUNDS; i++) {
      byte[] file = pick(files);
      byte[] input = switch (random.nextInt(3)) {
        case 0 -> withHeader(file, mutate(header(file)));
        case 1 -> withHeader(file, "{'descr': '<f4', 'fortran_order': False, 'shape': "
            + deepRun() + "}");
        default -> mutateBytes(file);
      };
      check("Npy.parse", escapeBytes(input), text -> Npy.parse(input, "fuzz.npy"));
      // And one edit to a dtype and a shape, whose numbers the reader multiplies.
      byte[] edited = NpyFiles.npy(mutate(pick(DESCRS), 1), mutate(pick(SHAPES), 1),
          new byte[random.nextInt(3) * 8]);
      check("Npy.parse", escapeBytes(edited), text -> Npy.parse(edited, "fuzz.npy"));
    }
  }

  private void check(String parser, String input, Function<String, Object> parse) {
    try {
      parse.apply(input);
    } catch (IllegalArgumentException e) {
      String message = String.valueOf(e.getMessage());
      if (parser.startsWith("PythonLiteral")) {
        assertFalse(message.contains("\n") || message.contains("\r"),
            parser + ": a message of more than one line for " + escape(input) + ": " + message);
      }
    } catch (Throwable t) {
      fail(parser + " threw " + t + " for " + escape(input), t);
    }
  }

  private <T> T pick(List<T> items) {
    return items.get(random.nextInt(items.size()));
  }

  /** Thousands of opening brackets, parentheses, dict keys or signs, maybe closed, maybe not. */
  private String deepRun() {
    String unit = pick(List.of("[", "(", "{1: ", "-", "+", "- ", "[-", "(("));
    int count = 200 + random.nextInt(5000);
    StringBuilder sb = new StringBuilder(unit.repeat(count)).append(pick(List.of("1", "", "'a'")));
    if (random.nextBoolean()) {
      String close = unit.startsWith("[") ? "]" : unit.startsWith("(") ? ")" : "}";
      sb.append(close.repeat(random.nextInt(count + 1)));
    }
    return sb.toString();
  }

  /**
   * One to four edits (or as many as asked): delete, insert, replace a character, repeat a slice (up to 300 times),
   * truncate, put a number at the edge of a type in place of one, insert digits.
   */
  private String mutate(String seed) {
    return mutate(seed, 1 + random.nextInt(4));
  }

  private String mutate(String seed, int edits) {
    StringBuilder sb = new StringBuilder(seed);
    for (; edits > 0; edits--) {
      int at = sb.length() == 0 ? 0 : random.nextInt(sb.length() + 1);
      switch (random.nextInt(7)) {
        case 0 -> {
          if (at < sb.length()) {
            sb.delete(at, Math.min(sb.length(), at + 1 + random.nextInt(4)));
          }
        }
        case 1 -> sb.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        case 2 -> {
          if (at < sb.length()) {
            sb.setCharAt(at, (char) random.nextInt(0x3000));
          }
        }
        case 3 -> {
          int end = Math.min(sb.length(), at + 1 + random.nextInt(6));
          String slice = sb.substring(at, end);
          sb.insert(at, slice.repeat(1 + random.nextInt(300)));
        }
        case 4 -> sb.setLength(at);
        case 6 -> {
          int start = at;
          while (start > 0 && Character.isDigit(sb.charAt(start - 1))) {
            start--;
          }
          int end = at;
          while (end < sb.length() && Character.isDigit(sb.charAt(end))) {
            end++;
          }
          sb.replace(start, end, pick(INTERESTING_NUMBERS));
        }
        default -> {
          String digits = String.valueOf(random.nextLong() & Long.MAX_VALUE);
          sb.insert(at, digits.substring(0, 1 + random.nextInt(Math.min(12, digits.length()))));
        }
      }
    }
    return sb.toString();
  }

  /** Flips, drops or adds bytes anywhere, the magic, version and header length included. */
  private byte[] mutateBytes(byte[] file) {
    byte[] out = file.clone();
    switch (random.nextInt(3)) {
      case 0 -> out[random.nextInt(out.length)] ^= (byte) (1 << random.nextInt(8));
      case 1 -> out = java.util.Arrays.copyOf(out, random.nextInt(out.length));
      default -> {
        out = java.util.Arrays.copyOf(out, out.length + 1 + random.nextInt(16));
        out[random.nextInt(10)] = (byte) random.nextInt(256);
      }
    }
    return out;
  }

  private static String header(byte[] file) {
    int length = ByteBuffer.wrap(file, 8, 2).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xffff;
    return new String(file, 10, length, StandardCharsets.ISO_8859_1);
  }

  /** The file with another header (version 2.0 when it is longer than 65535 bytes). */
  private static byte[] withHeader(byte[] file, String header) {
    int oldLength = header(file).length();
    byte[] data = java.util.Arrays.copyOfRange(file, 10 + oldLength, file.length);
    byte[] h = header.getBytes(StandardCharsets.UTF_8);
    boolean v1 = h.length <= 0xffff;
    ByteBuffer out = ByteBuffer.allocate((v1 ? 10 : 12) + h.length + data.length)
        .order(ByteOrder.LITTLE_ENDIAN);
    out.put(Npy.MAGIC).put((byte) (v1 ? 1 : 3)).put((byte) 0);
    if (v1) {
      out.putShort((short) h.length);
    } else {
      out.putInt(h.length);
    }
    return out.put(h).put(data).array();
  }

  private static String escapeBytes(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** The input for a failure message: Java-escaped, cut to 300 characters. */
  private static String escape(String input) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < Math.min(input.length(), 300); i++) {
      char c = input.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append(input.length() > 300 ? "\"... (" + input.length() + " chars)" : "\"")
        .toString();
  }
}
