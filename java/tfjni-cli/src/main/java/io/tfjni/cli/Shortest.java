package io.tfjni.cli;

import io.tfjni.numpy.Half;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Decimal digits of binary floating-point values, as Python's repr and NumPy's Dragon4 produce
 * them: the shortest digits that read back as the same value of the value's own width (half,
 * float or double), or the exact value rounded (half to even) at a number of digits.
 */
final class Shortest {
  /** Binary formats: total bits, mantissa bits, exponent bias. */
  enum Kind {
    HALF(16, 10, 15), FLOAT(32, 23, 127), DOUBLE(64, 52, 1023);

    final int bits;
    final int mantissaBits;
    final int bias;

    Kind(int bits, int mantissaBits, int bias) {
      this.bits = bits;
      this.mantissaBits = mantissaBits;
      this.bias = bias;
    }
  }

  /**
   * A decimal: {@code digits} (no leading zeros; "0" for zero) with the decimal point after
   * {@code pointPosition} of them (negative: that many zeros before them), e.g. 0.0012 is digits
   * "12", pointPosition -2.
   */
  record Decimal(boolean negative, String digits, int pointPosition) {
    /** Digits after the decimal point in positional form. */
    int fractionDigits() {
      return digits.equals("0") ? 0 : Math.max(0, digits.length() - pointPosition);
    }
  }

  private Shortest() {}

  static Decimal of(double value) {
    return shortest(value, Kind.DOUBLE);
  }

  /**
   * The shortest decimal that rounds back to {@code value} in {@code kind} (value must be exactly
   * representable in that kind; non-finite values are not allowed).
   */
  static Decimal shortest(double value, Kind kind) {
    boolean negative = Double.doubleToRawLongBits(value) < 0;
    double magnitude = Math.abs(value);
    if (magnitude == 0) {
      return new Decimal(negative, "0", 1);
    }
    BigDecimal exact = new BigDecimal(magnitude);
    long bits = toBits(magnitude, kind);
    double below = fromBits(bits - 1, kind);
    double above = fromBits(bits + 1, kind);
    if (Double.isInfinite(above)) {
      above = magnitude + (magnitude - below);
    }
    BigDecimal low = exact.add(new BigDecimal(below)).divide(BigDecimal.valueOf(2));
    BigDecimal high = exact.add(new BigDecimal(above)).divide(BigDecimal.valueOf(2));
    boolean evenMantissa = (bits & 1) == 0;
    for (int precision = 1; precision <= 25; precision++) {
      BigDecimal candidate = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      int lowCmp = candidate.compareTo(low);
      int highCmp = candidate.compareTo(high);
      boolean inside = (lowCmp > 0 || (lowCmp == 0 && evenMantissa))
          && (highCmp < 0 || (highCmp == 0 && evenMantissa));
      if (inside) {
        return decimal(negative, candidate);
      }
    }
    return decimal(negative, exact);
  }

  /** The exact value of {@code value} rounded half-even to {@code digits} fraction digits. */
  static Decimal roundFraction(double value, int digits) {
    boolean negative = Double.doubleToRawLongBits(value) < 0;
    BigDecimal rounded = new BigDecimal(Math.abs(value)).setScale(digits, RoundingMode.HALF_EVEN);
    return decimal(negative, rounded);
  }

  /** The exact value of {@code value} rounded half-even to {@code digits} significant digits. */
  static Decimal roundSignificant(double value, int digits) {
    boolean negative = Double.doubleToRawLongBits(value) < 0;
    if (value == 0) {
      return new Decimal(negative, "0", 1);
    }
    BigDecimal rounded = new BigDecimal(Math.abs(value))
        .round(new MathContext(digits, RoundingMode.HALF_EVEN));
    return decimal(negative, rounded);
  }

  private static Decimal decimal(boolean negative, BigDecimal value) {
    if (value.signum() == 0) {
      return new Decimal(negative, "0", 1);
    }
    BigDecimal stripped = value.stripTrailingZeros();
    String digits = stripped.unscaledValue().toString();
    return new Decimal(negative, digits, digits.length() - stripped.scale());
  }

  private static long toBits(double magnitude, Kind kind) {
    switch (kind) {
      case DOUBLE:
        return Double.doubleToRawLongBits(magnitude);
      case FLOAT:
        return Float.floatToRawIntBits((float) magnitude);
      default:
        return Half.fromDouble(magnitude) & 0xffff;
    }
  }

  private static double fromBits(long bits, Kind kind) {
    switch (kind) {
      case DOUBLE:
        return Double.longBitsToDouble(bits);
      case FLOAT:
        return Float.intBitsToFloat((int) bits);
      default:
        return Half.toDouble((short) bits);
    }
  }
}
