package io.tfjni.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Collection;

/** Python's repr of strings, bytes and floats, for output that reads like TensorFlow Python's. */
final class Py {
  private Py() {}

  /** repr(str): single quotes unless the text has a single quote and no double quote. */
  static String repr(String text) {
    char quote = text.indexOf('\'') >= 0 && text.indexOf('"') < 0 ? '"' : '\'';
    StringBuilder sb = new StringBuilder().append(quote);
    text.codePoints().forEach(c -> {
      if (c == quote || c == '\\') {
        sb.append('\\').appendCodePoint(c);
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c < 0x20 || c == 0x7f) {
        sb.append(String.format("\\x%02x", c));
      } else {
        sb.appendCodePoint(c);
      }
    });
    return sb.append(quote).toString();
  }

  /** repr(bytes), e.g. {@code b'ab\x00'}. */
  static String repr(byte[] bytes) {
    boolean hasSingle = false;
    boolean hasDouble = false;
    for (byte b : bytes) {
      hasSingle |= b == '\'';
      hasDouble |= b == '"';
    }
    char quote = hasSingle && !hasDouble ? '"' : '\'';
    StringBuilder sb = new StringBuilder("b").append(quote);
    for (byte value : bytes) {
      int c = value & 0xff;
      if (c == quote || c == '\\') {
        sb.append('\\').append((char) c);
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c < 0x20 || c >= 0x7f) {
        sb.append(String.format("\\x%02x", c));
      } else {
        sb.append((char) c);
      }
    }
    return sb.append(quote).toString();
  }

  /** repr of a list of strings, e.g. {@code ['serve', 'gpu']}. */
  static String listRepr(Collection<String> items) {
    StringBuilder sb = new StringBuilder("[");
    for (String item : items) {
      sb.append(sb.length() > 1 ? ", " : "").append(repr(item));
    }
    return sb.append(']').toString();
  }

  /** repr(float) for a double: shortest round-trip digits, exponent outside [1e-4, 1e16). */
  static String floatRepr(double value) {
    if (Double.isNaN(value)) {
      return "nan";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
    }
    return scalarString(Shortest.of(value), true);
  }

  /**
   * NumPy's str of a float scalar (and Python's repr): positional with at least one fractional
   * digit when 1e-4 <= |x| < 1e16 or x == 0, else scientific without trailing zeros.
   */
  static String scalarString(Shortest.Decimal d, boolean leaveOneZero) {
    String sign = d.negative() ? "-" : "";
    String digits = d.digits();
    int point = d.pointPosition();
    boolean zero = digits.equals("0");
    if (zero || (point > -4 && point <= 16)) {
      String text = positional(digits, point);
      if (!text.contains(".")) {
        text += leaveOneZero ? ".0" : "";
      } else if (!leaveOneZero && text.endsWith(".0")) {
        text = text.substring(0, text.length() - 2);
      }
      return sign + text;
    }
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    int exponent = point - 1;
    return sign + mantissa + "e" + (exponent < 0 ? "-" : "+")
        + String.format("%02d", Math.abs(exponent));
  }

  /** Digits d1 d2 ... with the decimal point after {@code point} of them, e.g. "0.001", "120". */
  static String positional(String digits, int point) {
    if (point <= 0) {
      return "0." + "0".repeat(-point) + digits;
    }
    if (point >= digits.length()) {
      return digits + "0".repeat(point - digits.length());
    }
    return digits.substring(0, point) + "." + digits.substring(point);
  }

  /** C's printf("%g") with 6 significant digits (how ml_dtypes prints bfloat16). */
  static String cFormatG(double value) {
    if (Double.isNaN(value)) {
      return "nan";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
    }
    if (value == 0) {
      return (1 / value < 0) ? "-0" : "0";
    }
    BigDecimal rounded = new BigDecimal(value).round(new MathContext(6, RoundingMode.HALF_EVEN));
    int exponent = rounded.precision() - rounded.scale() - 1;
    String text;
    if (exponent < -4 || exponent >= 6) {
      BigDecimal mantissa = rounded.movePointLeft(exponent).setScale(5, RoundingMode.HALF_EVEN);
      String m = stripZeros(mantissa.toPlainString());
      text = m + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
    } else {
      text = stripZeros(rounded.setScale(Math.max(0, 5 - exponent), RoundingMode.HALF_EVEN)
          .toPlainString());
    }
    return text;
  }

  private static String stripZeros(String text) {
    if (!text.contains(".")) {
      return text;
    }
    String stripped = text.replaceAll("0+$", "");
    return stripped.endsWith(".") ? stripped.substring(0, stripped.length() - 1) : stripped;
  }
}
