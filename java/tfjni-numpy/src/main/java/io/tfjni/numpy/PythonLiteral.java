package io.tfjni.numpy;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses Python literals, as {@code ast.literal_eval} does: the expressions of the CLI's {@code
 * --input_exprs} (what saved_model_cli passes to literal_eval) and the dict at the head of every
 * .npy file. Numbers (ints of any size in decimal, hex, octal or binary, floats, {@code inf}-free;
 * complex as {@code 1+2j}), {@code True}/{@code False}, strings and bytes ({@code 'a'}, {@code
 * "a"}, {@code b'a'}, {@code r'a'}, with Python's escapes), and lists, tuples and dicts of them.
 *
 * <p>Values: {@link BigInteger}, {@link Double}, {@link Complex}, {@link Boolean}, {@link String}
 * (a str), {@code byte[]} (bytes), {@link List} (a list or tuple) and {@link Map} (a dict, in
 * order). Nesting deeper than {@value #MAX_DEPTH} levels is refused with one clear error rather
 * than exhausting the stack.
 */
public final class PythonLiteral {
  /** The deepest nesting of lists, tuples and dicts accepted. */
  public static final int MAX_DEPTH = 256;

  /** How much of the text an error message quotes. */
  private static final int EXCERPT = 60;

  /** A Python complex number. */
  public record Complex(double real, double imag) {}

  private final String text;
  /** Python 2's long suffix ({@code 3L}), which old NumPy wrote in .npy headers. */
  private final boolean python2Longs;
  private int at;
  private int depth;

  private PythonLiteral(String text, boolean python2Longs) {
    this.text = text;
    this.python2Longs = python2Longs;
  }

  /**
   * Parses one literal.
   *
   * @param text the literal, e.g. {@code [[1, 2], [3, 4]]}
   * @return its value, as the class comment lists the types
   * @throws IllegalArgumentException if the text is not one literal (the message says where)
   */
  public static Object parse(String text) {
    return new PythonLiteral(text, false).whole();
  }

  /** One literal read from the middle of a larger text, and the index just after it. */
  record Prefix(Object value, int end) {}

  /**
   * Parses one literal starting at {@code from} and stops where it ends (at a ',' or ')' after
   * it, say); errors give columns of the whole {@code text}.
   */
  static Prefix parsePrefix(String text, int from) {
    PythonLiteral parser = new PythonLiteral(text, false);
    parser.at = from;
    Object value = parser.expression();
    return new Prefix(value, parser.at);
  }

  /** Parses a .npy header's literal, which Python 2's NumPy wrote with {@code L} suffixes. */
  static Object parseNpyHeader(String text) {
    return new PythonLiteral(text, true).whole();
  }

  private Object whole() {
    Object value = expression();
    skipSpace();
    if (at < text.length()) {
      throw error("unexpected '" + excerpt(text.substring(at, at + 1), 0) + "'");
    }
    return value;
  }

  /** A value, possibly {@code real + imagj} or {@code real - imagj} as literal_eval allows. */
  private Object expression() {
    Object left = unary();
    skipSpace();
    if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')
        && isRealNumber(left)) {
      int operatorAt = at;
      char operator = text.charAt(at++);
      skipSpace();
      Object right = atom();
      if (!(right instanceof Complex imaginary) || imaginary.real() != 0) {
        at = operatorAt;
        throw error("only a complex literal like 1+2j may use '" + operator + "'");
      }
      double real = toDouble(left);
      return new Complex(real, operator == '+' ? imaginary.imag() : -imaginary.imag());
    }
    return left;
  }

  /** Signs before an operand, read in a loop: a run of thousands of them must not recurse. */
  private Object unary() {
    skipSpace();
    boolean negate = false;
    int signs = 0;
    char last = 0;
    while (at < text.length() && (text.charAt(at) == '-' || text.charAt(at) == '+')) {
      last = text.charAt(at++);
      negate ^= last == '-';
      signs++;
      skipSpace();
    }
    Object operand = atom();
    if (signs == 0) {
      return operand;
    }
    if (!isNumber(operand)) {
      throw error("'" + last + "' before a non-number");
    }
    if (!negate) {
      return operand;
    }
    if (operand instanceof BigInteger integer) {
      return integer.negate();
    }
    if (operand instanceof Double d) {
      return -d;
    }
    Complex c = (Complex) operand;
    return new Complex(-c.real(), -c.imag());
  }

  private Object atom() {
    skipSpace();
    if (at >= text.length()) {
      throw error("expected a value");
    }
    char c = text.charAt(at);
    if (c == '[' || c == '(' || c == '{') {
      if (++depth > MAX_DEPTH) {
        throw error("nested deeper than " + MAX_DEPTH + " levels");
      }
      Object value = c == '{' ? dict() : sequence(c, c == '[' ? ']' : ')');
      depth--;
      return value;
    }
    if (c == '\'' || c == '"') {
      return strings();
    }
    if (Character.isDigit(c) || (c == '.' && at + 1 < text.length()
        && Character.isDigit(text.charAt(at + 1)))) {
      return number();
    }
    if (Character.isLetter(c) || c == '_') {
      int start = at;
      while (at < text.length()
          && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
        at++;
      }
      String word = text.substring(start, at);
      if (at < text.length() && (text.charAt(at) == '\'' || text.charAt(at) == '"')
          && word.matches("(?i)[rbu]|br|rb")) {
        at = start;
        return strings();
      }
      switch (word) {
        case "True":
          return Boolean.TRUE;
        case "False":
          return Boolean.FALSE;
        case "None":
          at = start;
          throw error("None has no tensor value");
        default:
          at = start;
          throw error("'" + excerpt(word, 0) + "' is not a literal (only numbers, True/False,"
              + " strings and lists of them)");
      }
    }
    throw error("unexpected '" + excerpt(String.valueOf(c), 0) + "'");
  }

  private Object sequence(char open, char close) {
    int start = at;
    at++;
    List<Object> items = new ArrayList<>();
    boolean sawComma = false;
    while (true) {
      skipSpace();
      if (at >= text.length()) {
        at = start;
        throw error("'" + open + "' is never closed");
      }
      if (text.charAt(at) == close) {
        at++;
        if (open == '(' && items.size() == 1 && !sawComma) {
          return items.get(0); // (x) is x, not a tuple
        }
        return items;
      }
      items.add(expression());
      skipSpace();
      if (at >= text.length()) {
        at = start;
        throw error("'" + open + "' is never closed");
      }
      if (text.charAt(at) == ',') {
        at++;
        sawComma = true;
      } else if (text.charAt(at) != close) {
        throw error("expected ',' or '" + close + "'");
      }
    }
  }

  private Map<Object, Object> dict() {
    int start = at;
    at++;
    Map<Object, Object> map = new LinkedHashMap<>();
    while (true) {
      skipSpace();
      if (at >= text.length()) {
        at = start;
        throw error("'{' is never closed");
      }
      if (text.charAt(at) == '}') {
        at++;
        return map;
      }
      Object key = expression();
      skipSpace();
      if (at >= text.length() || text.charAt(at) != ':') {
        throw error("expected ':'");
      }
      at++;
      map.put(key, expression());
      skipSpace();
      if (at >= text.length()) {
        at = start;
        throw error("'{' is never closed");
      }
      if (text.charAt(at) == ',') {
        at++;
      } else if (text.charAt(at) != '}') {
        throw error("expected ',' or '}'");
      }
    }
  }

  private Object number() {
    int start = at;
    String rest = text.substring(at);
    java.util.regex.Matcher radix = java.util.regex.Pattern
        .compile("0([xX][0-9a-fA-F_]+|[oO][0-7_]+|[bB][01_]+)").matcher(rest);
    if (radix.lookingAt()) {
      at += radix.end();
      String digits = radix.group(1).substring(1).replace("_", "");
      char kind = Character.toLowerCase(radix.group(1).charAt(0));
      checkNoTrailingIdentifier(start);
      if (digits.isEmpty() || radix.group(1).contains("__") || radix.group(1).endsWith("_")) {
        at = start;
        throw error("bad number '" + excerpt(rest.substring(0, radix.end()), 0) + "'");
      }
      return new BigInteger(digits, kind == 'x' ? 16 : kind == 'o' ? 8 : 2);
    }
    java.util.regex.Matcher decimal = java.util.regex.Pattern
        .compile("(\\d[\\d_]*)?(\\.(\\d[\\d_]*)?)?([eE][+-]?\\d[\\d_]*)?([jJ])?").matcher(rest);
    if (!decimal.lookingAt() || decimal.end() == 0) {
      throw error("bad number");
    }
    at += decimal.end();
    String literal = rest.substring(0, decimal.end());
    if (literal.contains("__") || literal.endsWith("_") || literal.contains("_.")
        || literal.contains("._") || literal.matches(".*_[eEjJ].*")) {
      at = start;
      throw error("bad number '" + excerpt(literal, 0) + "'");
    }
    boolean integer = decimal.group(2) == null && decimal.group(4) == null
        && decimal.group(5) == null;
    if (integer && python2Longs && at < text.length() && text.charAt(at) == 'L') {
      at++;
    }
    checkNoTrailingIdentifier(start);
    String clean = literal.replace("_", "");
    boolean imaginary = decimal.group(5) != null;
    if (imaginary) {
      return new Complex(0, Double.parseDouble(clean.substring(0, clean.length() - 1)));
    }
    if (decimal.group(2) == null && decimal.group(4) == null) {
      if (clean.length() > 1 && clean.startsWith("0") && !clean.matches("0+")) {
        at = start;
        throw error("leading zeros in '" + excerpt(literal, 0) + "' (use 0o for octal)");
      }
      return new BigInteger(clean);
    }
    return Double.parseDouble(clean);
  }

  private void checkNoTrailingIdentifier(int start) {
    if (at < text.length() && (Character.isLetterOrDigit(text.charAt(at))
        || text.charAt(at) == '_' || text.charAt(at) == '.')) {
      at = start;
      throw error("bad number");
    }
  }

  /** One or more adjacent string literals, concatenated as Python does; str and bytes don't mix. */
  private Object strings() {
    Object result = null;
    int start = at;
    while (true) {
      skipSpace();
      if (at >= text.length()) {
        break;
      }
      int literalStart = at;
      while (at < text.length() && Character.isLetter(text.charAt(at))) {
        at++;
      }
      String prefix = text.substring(literalStart, at).toLowerCase(java.util.Locale.ROOT);
      if (at >= text.length() || (text.charAt(at) != '\'' && text.charAt(at) != '"')
          || !prefix.matches("|r|b|u|br|rb")) {
        at = literalStart;
        break;
      }
      Object value = stringLiteral(prefix.contains("b"), prefix.contains("r"));
      if (result == null) {
        result = value;
      } else if (result instanceof String s && value instanceof String t) {
        result = s + t;
      } else if (result instanceof byte[] a && value instanceof byte[] b) {
        byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        result = both;
      } else {
        at = start;
        throw error("cannot mix bytes and str literals");
      }
    }
    if (result == null) {
      throw error("expected a string");
    }
    return result;
  }

  private Object stringLiteral(boolean bytes, boolean raw) {
    int start = at;
    char quote = text.charAt(at);
    boolean triple = text.startsWith(String.valueOf(quote).repeat(3), at);
    at += triple ? 3 : 1;
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (at >= text.length()) {
        at = start;
        throw error("string is never closed");
      }
      char c = text.charAt(at);
      if (triple ? text.startsWith(String.valueOf(quote).repeat(3), at) : c == quote) {
        at += triple ? 3 : 1;
        break;
      }
      if (!triple && c == '\n') {
        at = start;
        throw error("string is never closed");
      }
      if (c == '\\' && at + 1 < text.length()) {
        if (raw) {
          sb.append(c).append(text.charAt(at + 1));
          at += 2;
          continue;
        }
        at++;
        escape(sb, bytes);
        continue;
      }
      if (bytes && c > 0x7f) {
        throw error("bytes literals can only hold ASCII characters");
      }
      sb.append(c);
      at++;
    }
    if (!bytes) {
      return sb.toString();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < sb.length(); i++) {
      out.write(sb.charAt(i));
    }
    return out.toByteArray();
  }

  /** After a backslash: appends the escaped character (bytes escapes map to chars 0-255). */
  private void escape(StringBuilder sb, boolean bytes) {
    char c = text.charAt(at++);
    switch (c) {
      case '\n':
        return;
      case '\\':
      case '\'':
      case '"':
        sb.append(c);
        return;
      case 'a':
        sb.append('\u0007');
        return;
      case 'b':
        sb.append('\b');
        return;
      case 'f':
        sb.append('\f');
        return;
      case 'n':
        sb.append('\n');
        return;
      case 'r':
        sb.append('\r');
        return;
      case 't':
        sb.append('\t');
        return;
      case 'v':
        sb.append('\u000b');
        return;
      case 'x':
        sb.append((char) hex(2));
        return;
      case 'u':
      case 'U':
        if (bytes) {
          sb.append('\\').append(c);
          return;
        }
        sb.appendCodePoint(checkedCodePoint(hex(c == 'u' ? 4 : 8)));
        return;
      default:
        if (c >= '0' && c <= '7') {
          int value = c - '0';
          for (int i = 0; i < 2 && at < text.length() && text.charAt(at) >= '0'
              && text.charAt(at) <= '7'; i++) {
            value = value * 8 + (text.charAt(at++) - '0');
          }
          if (bytes) {
            value &= 0xff;
          }
          sb.appendCodePoint(value);
          return;
        }
        // Python keeps unknown escapes as they are.
        sb.append('\\').append(c);
    }
  }

  private int checkedCodePoint(int cp) {
    if (cp < 0 || cp > Character.MAX_CODE_POINT) {
      throw error("code point out of range");
    }
    return cp;
  }

  private int hex(int digits) {
    if (at + digits > text.length()) {
      throw error("truncated \\x, \\u or \\U escape");
    }
    String hex = text.substring(at, at + digits);
    if (!hex.matches("[0-9a-fA-F]+")) {
      throw error("bad escape digits '" + excerpt(hex, 0) + "'");
    }
    at += digits;
    return (int) Long.parseLong(hex, 16);
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private static boolean isNumber(Object value) {
    return value instanceof BigInteger || value instanceof Double || value instanceof Complex;
  }

  private static boolean isRealNumber(Object value) {
    return value instanceof BigInteger || value instanceof Double;
  }

  private static double toDouble(Object value) {
    return value instanceof BigInteger integer ? integer.doubleValue() : (Double) value;
  }

  /**
   * "WHAT at column N of 'TEXT'": one line, and short whatever the input. Long text is cut to a
   * window around the column, and line breaks and other control characters are escaped.
   */
  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at column " + (at + 1) + " of '"
        + excerpt(text, at) + "'");
  }

  /** At most about {@value #EXCERPT} characters of {@code text} around {@code column}, escaped. */
  static String excerpt(String text, int column) {
    int from = 0;
    int to = text.length();
    if (to > EXCERPT) {
      from = Math.max(0, Math.min(column - EXCERPT / 2, to - EXCERPT));
      to = from + EXCERPT;
    }
    StringBuilder sb = new StringBuilder(from > 0 ? "..." : "");
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (Character.isISOControl(c) || Character.getType(c) == Character.LINE_SEPARATOR
              || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return to < text.length() ? sb.append("...").toString() : sb.toString();
  }
}
