package io.tfjni.numpy;

/** Conversions of the 16- and 8-bit float formats, rounding half to even as NumPy does. */
public final class Half {
  private Half() {}

  /**
   * IEEE binary16 bits of {@code value}, correctly rounded from the double (as NumPy does).
   *
   * @param value the number
   * @return the half's bits
   */
  public static short fromDouble(double value) {
    int sign = Double.doubleToRawLongBits(value) < 0 ? 0x8000 : 0;
    if (Double.isNaN(value)) {
      return (short) (sign | 0x7e00);
    }
    double a = Math.abs(value);
    if (a >= 65520.0) { // halfway between 65504 (the largest half) and 65536 rounds up to inf
      return (short) (sign | 0x7c00);
    }
    if (a < 0x1p-14) { // subnormal: units of 2^-24
      long m = (long) Math.rint(a * 0x1p24);
      return (short) (sign | m);
    }
    int exponent = Math.getExponent(a);
    long m = (long) Math.rint(a * Math.scalb(1.0, 10 - exponent));
    if (m == 2048) {
      m = 1024;
      exponent++;
    }
    if (exponent > 15) {
      return (short) (sign | 0x7c00);
    }
    return (short) (sign | ((exponent + 15) << 10) | (m - 1024));
  }

  /**
   * The value of IEEE binary16 bits (exact: every half is a double).
   *
   * @param bits the half's bits
   * @return the value
   */
  public static double toDouble(short bits) {
    int h = bits & 0xffff;
    double sign = (h & 0x8000) != 0 ? -1 : 1;
    int exponent = (h >>> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    if (exponent == 0) {
      return sign * mantissa * 0x1p-24;
    }
    if (exponent == 31) {
      return mantissa == 0 ? sign * Double.POSITIVE_INFINITY : Double.NaN;
    }
    return sign * (1 + mantissa / 1024.0) * Math.scalb(1.0, exponent - 15);
  }

  /**
   * bfloat16 bits: the double rounded to float, then to bfloat16 (half to even).
   *
   * @param value the number
   * @return the bfloat16's bits
   */
  public static short bfloat16FromDouble(double value) {
    int f = Float.floatToRawIntBits((float) value);
    if (Float.isNaN(Float.intBitsToFloat(f))) {
      return (short) ((f >>> 16) | 0x40);
    }
    int lsb = (f >>> 16) & 1;
    return (short) ((f + 0x7fff + lsb) >>> 16);
  }

  /**
   * The value of bfloat16 bits (exact).
   *
   * @param bits the bfloat16's bits
   * @return the value
   */
  public static double bfloat16ToDouble(short bits) {
    return Float.intBitsToFloat((bits & 0xffff) << 16);
  }

  /**
   * The value of float8_e5m2 bits, the top byte of a binary16.
   *
   * @param bits the float8's bits
   * @return the value
   */
  public static double float8e5m2ToDouble(byte bits) {
    return toDouble((short) ((bits & 0xff) << 8));
  }

  /**
   * The value of float8_e4m3fn bits: bias 7, no infinities, 0x7f and 0xff are NaN.
   *
   * @param bits the float8's bits
   * @return the value
   */
  public static double float8e4m3fnToDouble(byte bits) {
    int b = bits & 0xff;
    double sign = (b & 0x80) != 0 ? -1 : 1;
    int exponent = (b >>> 3) & 0xf;
    int mantissa = b & 7;
    if (exponent == 15 && mantissa == 7) {
      return Double.NaN;
    }
    if (exponent == 0) {
      return sign * mantissa / 8.0 * 0x1p-6;
    }
    return sign * (1 + mantissa / 8.0) * Math.scalb(1.0, exponent - 7);
  }
}
