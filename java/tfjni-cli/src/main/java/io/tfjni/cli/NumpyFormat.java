package io.tfjni.cli;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.numpy.Half;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a tensor the way {@code print(array)} shows what TensorFlow Python's session returns for
 * it (saved_model_cli's "Result for output key" lines): NumPy's default array printing (75
 * columns, 8 digits of precision, "..." summaries above 1000 elements with 3 edge items), and
 * NumPy's scalar printing for rank 0.
 */
final class NumpyFormat {
  static final int LINE_WIDTH = 75;
  static final int THRESHOLD = 1000;
  static final int EDGE_ITEMS = 3;
  static final int PRECISION = 8;

  private NumpyFormat() {}

  static String format(Tensor tensor) {
    DataType type = tensor.dataType();
    long[] shape = tensor.shape();
    Elements elements = Elements.of(tensor, type);
    if (shape.length == 0) {
      return elements.scalarString(0);
    }
    long size = tensor.numElements();
    if (size == 0) {
      return "[]";
    }
    long[] strides = new long[shape.length];
    long stride = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      strides[d] = stride;
      stride *= shape[d];
    }
    boolean summary = size > THRESHOLD;
    List<Long> subset = new ArrayList<>();
    collect(shape, strides, 0, 0, summary, subset);
    ElementFormat format = elements.formatter(subset);
    StringBuilder out = new StringBuilder();
    new Printer(shape, strides, format, summary ? "..." : "").print(out);
    return out.toString();
  }

  /** The flat indices of the elements NumPy looks at to choose a format (edges if summarised). */
  private static void collect(long[] shape, long[] strides, int axis, long base, boolean summary,
      List<Long> out) {
    if (axis == shape.length) {
      out.add(base);
      return;
    }
    long n = shape[axis];
    if (summary && n > 2L * EDGE_ITEMS) {
      for (long i = 0; i < EDGE_ITEMS; i++) {
        collect(shape, strides, axis + 1, base + i * strides[axis], true, out);
      }
      for (long i = n - EDGE_ITEMS; i < n; i++) {
        collect(shape, strides, axis + 1, base + i * strides[axis], true, out);
      }
    } else {
      for (long i = 0; i < n; i++) {
        collect(shape, strides, axis + 1, base + i * strides[axis], summary, out);
      }
    }
  }

  interface ElementFormat {
    String format(long index);
  }

  /** NumPy's _formatArray, without the legacy modes. */
  private static final class Printer {
    private final long[] shape;
    private final long[] strides;
    private final ElementFormat format;
    private final String summaryInsert;

    Printer(long[] shape, long[] strides, ElementFormat format, String summaryInsert) {
      this.shape = shape;
      this.strides = strides;
      this.format = format;
      this.summaryInsert = summaryInsert;
    }

    void print(StringBuilder out) {
      out.append(recurse(0, 0, " ", LINE_WIDTH));
    }

    private String recurse(int axis, long base, String hangingIndent, int currentWidth) {
      int axesLeft = shape.length - axis;
      if (axesLeft == 0) {
        return format.format(base);
      }
      String nextHangingIndent = hangingIndent + " ";
      int nextWidth = currentWidth - 1;
      long length = shape[axis];
      boolean showSummary = !summaryInsert.isEmpty() && 2L * EDGE_ITEMS < length;
      long leading = showSummary ? EDGE_ITEMS : 0;
      long trailing = showSummary ? EDGE_ITEMS : length;
      StringBuilder s = new StringBuilder();
      if (axesLeft == 1) {
        int elementWidth = currentWidth - 1; // max(len(separator.rstrip()), len(']'))
        StringBuilder line = new StringBuilder(hangingIndent);
        for (long i = 0; i < leading; i++) {
          String word = recurse(axis + 1, base + i * strides[axis], nextHangingIndent, nextWidth);
          line = extendLinePretty(s, line, word, elementWidth, hangingIndent);
          line.append(' ');
        }
        if (showSummary) {
          line = extendLine(s, line, summaryInsert, elementWidth, hangingIndent);
          line.append(' ');
        }
        for (long i = trailing; i > 1; i--) {
          String word = recurse(axis + 1, base + (length - i) * strides[axis], nextHangingIndent,
              nextWidth);
          line = extendLinePretty(s, line, word, elementWidth, hangingIndent);
          line.append(' ');
        }
        String word = recurse(axis + 1, base + (length - 1) * strides[axis], nextHangingIndent,
            nextWidth);
        line = extendLinePretty(s, line, word, elementWidth, hangingIndent);
        s.append(line);
      } else {
        String lineSeparator = "\n".repeat(axesLeft - 1);
        for (long i = 0; i < leading; i++) {
          String nested = recurse(axis + 1, base + i * strides[axis], nextHangingIndent,
              nextWidth);
          s.append(hangingIndent).append(nested).append(lineSeparator);
        }
        if (showSummary) {
          s.append(hangingIndent).append(summaryInsert).append(lineSeparator);
        }
        for (long i = trailing; i > 1; i--) {
          String nested = recurse(axis + 1, base + (length - i) * strides[axis],
              nextHangingIndent, nextWidth);
          s.append(hangingIndent).append(nested).append(lineSeparator);
        }
        String nested = recurse(axis + 1, base + (length - 1) * strides[axis], nextHangingIndent,
            nextWidth);
        s.append(hangingIndent).append(nested);
      }
      return "[" + s.substring(hangingIndent.length()) + "]";
    }

    private static StringBuilder extendLine(StringBuilder s, StringBuilder line, String word,
        int lineWidth, String nextLinePrefix) {
      boolean needsWrap = line.length() + word.length() > lineWidth;
      if (line.length() <= nextLinePrefix.length()) {
        needsWrap = false;
      }
      if (needsWrap) {
        s.append(rstrip(line)).append('\n');
        line = new StringBuilder(nextLinePrefix);
      }
      line.append(word);
      return line;
    }

    private static StringBuilder extendLinePretty(StringBuilder s, StringBuilder line, String word,
        int lineWidth, String nextLinePrefix) {
      String[] words = word.split("\n", -1);
      if (words.length == 1) {
        return extendLine(s, line, word, lineWidth, nextLinePrefix);
      }
      int maxWordLength = 0;
      for (String w : words) {
        maxWordLength = Math.max(maxWordLength, w.length());
      }
      String indent;
      if (line.length() + maxWordLength > lineWidth && line.length() > nextLinePrefix.length()) {
        s.append(rstrip(line)).append('\n');
        line = new StringBuilder(nextLinePrefix).append(words[0]);
        indent = nextLinePrefix;
      } else {
        indent = " ".repeat(line.length());
        line.append(words[0]);
      }
      for (int i = 1; i < words.length; i++) {
        s.append(rstrip(line)).append('\n');
        line = new StringBuilder(indent).append(words[i]);
      }
      line.append(" ".repeat(maxWordLength - words[words.length - 1].length()));
      return line;
    }

    private static String rstrip(CharSequence text) {
      int end = text.length();
      while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
        end--;
      }
      return text.subSequence(0, end).toString();
    }
  }

  /** Element access and NumPy's choice of format for one dtype. */
  private abstract static class Elements {
    static Elements of(Tensor tensor, DataType type) {
      if (type == DataType.STRING) {
        byte[][] strings = tensor.toBytesArray();
        return new Elements() {
          @Override
          ElementFormat formatter(List<Long> subset) {
            return index -> Py.repr(strings[(int) index]);
          }

          @Override
          String scalarString(long index) {
            return Py.repr(strings[(int) index]);
          }
        };
      }
      ByteBuffer data = tensor.buffer();
      switch (type) {
        case FLOAT:
          return new Floats(i -> data.getFloat((int) i * 4), Shortest.Kind.FLOAT);
        case DOUBLE:
          return new Floats(i -> data.getDouble((int) i * 8), Shortest.Kind.DOUBLE);
        case HALF:
          return new Floats(i -> Half.toDouble(data.getShort((int) i * 2)), Shortest.Kind.HALF);
        case COMPLEX64:
          return new Complex(i -> data.getFloat((int) i * 8), i -> data.getFloat((int) i * 8 + 4),
              Shortest.Kind.FLOAT);
        case COMPLEX128:
          return new Complex(i -> data.getDouble((int) i * 16),
              i -> data.getDouble((int) i * 16 + 8), Shortest.Kind.DOUBLE);
        case BOOL:
          return new Elements() {
            @Override
            ElementFormat formatter(List<Long> subset) {
              return i -> data.get((int) i) != 0 ? " True" : "False";
            }

            @Override
            String scalarString(long index) {
              return data.get((int) index) != 0 ? "True" : "False";
            }
          };
        case BFLOAT16:
          return new Repr(i -> Py.cFormatG(Half.bfloat16ToDouble(data.getShort((int) i * 2))));
        case FLOAT8_E5M2:
          return new Repr(i -> Py.cFormatG(Half.float8e5m2ToDouble(data.get((int) i))));
        case FLOAT8_E4M3FN:
          return new Repr(i -> Py.cFormatG(Half.float8e4m3fnToDouble(data.get((int) i))));
        case INT8:
        case QINT8:
          return new Integers(i -> Long.toString(data.get((int) i)), type);
        case UINT8:
        case QUINT8:
          return new Integers(i -> Long.toString(data.get((int) i) & 0xff), type);
        case INT4:
          return new Integers(i -> Long.toString((data.get((int) i) << 28) >> 28), type);
        case UINT4:
          return new Integers(i -> Long.toString(data.get((int) i) & 0xf), type);
        case INT16:
        case QINT16:
          return new Integers(i -> Long.toString(data.getShort((int) i * 2)), type);
        case UINT16:
        case QUINT16:
          return new Integers(i -> Long.toString(data.getShort((int) i * 2) & 0xffff), type);
        case INT32:
        case QINT32:
          return new Integers(i -> Long.toString(data.getInt((int) i * 4)), type);
        case UINT32:
          return new Integers(i -> Long.toString(data.getInt((int) i * 4) & 0xffffffffL), type);
        case INT64:
          return new Integers(i -> Long.toString(data.getLong((int) i * 8)), type);
        case UINT64:
          return new Integers(i -> Long.toUnsignedString(data.getLong((int) i * 8)), type);
        default:
          throw new CliException("cannot print a " + type + " tensor", CliException.FAILURE);
      }
    }

    abstract ElementFormat formatter(List<Long> subset);

    abstract String scalarString(long index);
  }

  interface DoubleAt {
    double at(long index);
  }

  interface TextAt {
    String at(long index);
  }

  /** Objects NumPy prints by their repr, without padding (strings, ml_dtypes floats). */
  private static final class Repr extends Elements {
    private final TextAt text;

    Repr(TextAt text) {
      this.text = text;
    }

    @Override
    ElementFormat formatter(List<Long> subset) {
      return text::at;
    }

    @Override
    String scalarString(long index) {
      return text.at(index);
    }
  }

  /** NumPy's IntegerFormat: right-aligned to the widest of the minimum and maximum. */
  private static final class Integers extends Elements {
    private final TextAt text;
    private final boolean quantized;

    Integers(TextAt text, DataType type) {
      this.text = text;
      this.quantized = type == DataType.QINT8 || type == DataType.QUINT8
          || type == DataType.QINT16 || type == DataType.QUINT16 || type == DataType.QINT32;
    }

    @Override
    ElementFormat formatter(List<Long> subset) {
      if (quantized) {
        return i -> "(" + text.at(i) + ",)";
      }
      java.math.BigInteger max = null;
      java.math.BigInteger min = null;
      for (long i : subset) {
        java.math.BigInteger v = new java.math.BigInteger(text.at(i));
        max = max == null || v.compareTo(max) > 0 ? v : max;
        min = min == null || v.compareTo(min) < 0 ? v : min;
      }
      int width = Math.max(max.toString().length(), min.toString().length());
      return i -> pad(text.at(i), width);
    }

    @Override
    String scalarString(long index) {
      return quantized ? "(" + text.at(index) + ",)" : text.at(index);
    }
  }

  private static final class Floats extends Elements {
    private final DoubleAt value;
    private final Shortest.Kind kind;

    Floats(DoubleAt value, Shortest.Kind kind) {
      this.value = value;
      this.kind = kind;
    }

    @Override
    ElementFormat formatter(List<Long> subset) {
      double[] values = new double[subset.size()];
      for (int k = 0; k < values.length; k++) {
        values[k] = value.at(subset.get(k));
      }
      FloatFormat format = new FloatFormat(values, kind, false);
      return i -> format.format(value.at(i));
    }

    @Override
    String scalarString(long index) {
      return scalarFloat(value.at(index), kind, true);
    }
  }

  private static final class Complex extends Elements {
    private final DoubleAt real;
    private final DoubleAt imag;
    private final Shortest.Kind kind;

    Complex(DoubleAt real, DoubleAt imag, Shortest.Kind kind) {
      this.real = real;
      this.imag = imag;
      this.kind = kind;
    }

    @Override
    ElementFormat formatter(List<Long> subset) {
      double[] re = new double[subset.size()];
      double[] im = new double[subset.size()];
      for (int k = 0; k < re.length; k++) {
        re[k] = real.at(subset.get(k));
        im[k] = imag.at(subset.get(k));
      }
      FloatFormat realFormat = new FloatFormat(re, kind, false);
      FloatFormat imagFormat = new FloatFormat(im, kind, true);
      return i -> {
        String r = realFormat.format(real.at(i));
        String m = imagFormat.format(imag.at(i));
        int sp = m.stripTrailing().length();
        return r + m.substring(0, sp) + "j" + m.substring(sp);
      };
    }

    @Override
    String scalarString(long index) {
      double re = real.at(index);
      double im = imag.at(index);
      String imText = scalarFloat(im, kind, false);
      if (re == 0 && Double.doubleToRawLongBits(re) >= 0) {
        return imText + "j";
      }
      String sign = imText.startsWith("-") ? "" : "+";
      return "(" + scalarFloat(re, kind, false) + sign + imText + "j)";
    }
  }

  /** NumPy's str of a float scalar: Python-like repr with the digits of its own width. */
  static String scalarFloat(double x, Shortest.Kind kind, boolean leaveOneZero) {
    if (Double.isNaN(x)) {
      return "nan";
    }
    if (Double.isInfinite(x)) {
      return x > 0 ? "inf" : "-inf";
    }
    return Py.scalarString(Shortest.shortest(x, kind), leaveOneZero);
  }

  static String pad(String text, int width) {
    return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
  }

  /** NumPy's FloatingFormat with its defaults (floatmode 'maxprec', precision 8). */
  static final class FloatFormat {
    private final Shortest.Kind kind;
    private final boolean plusSign;
    private boolean expFormat;
    private int padLeft;
    private int padRight;
    private int precision = PRECISION;
    private int minDigits;
    private boolean trimKeep;
    private int expSize = -1;

    FloatFormat(double[] data, Shortest.Kind kind, boolean plusSign) {
      this.kind = kind;
      this.plusSign = plusSign;
      List<Double> finite = new ArrayList<>();
      boolean anyNonFinite = false;
      boolean negativeInf = false;
      for (double d : data) {
        if (Double.isFinite(d)) {
          finite.add(d);
        } else {
          anyNonFinite = true;
          negativeInf |= d == Double.NEGATIVE_INFINITY;
        }
      }
      double max = 0;
      double min = Double.POSITIVE_INFINITY;
      boolean anyNonZero = false;
      for (double d : finite) {
        if (d != 0) {
          anyNonZero = true;
          max = Math.max(max, Math.abs(d));
          min = Math.min(min, Math.abs(d));
        }
      }
      if (anyNonZero && (max >= 1e8 || min < 0.0001 || max / min > 1000.0)) {
        expFormat = true;
      }
      if (finite.isEmpty()) {
        padLeft = 0;
        padRight = 0;
        trimKeep = false;
        expSize = -1;
        minDigits = -1;
      } else if (expFormat) {
        int maxFraction = 0;
        int maxInt = 0;
        int maxExp = 0;
        for (double d : finite) {
          String s = scientific(d, PRECISION, 0, false, -1);
          int e = s.indexOf('e');
          int dot = s.indexOf('.');
          maxInt = Math.max(maxInt, dot);
          maxFraction = Math.max(maxFraction, e - dot - 1);
          maxExp = Math.max(maxExp, s.length() - e - 1);
        }
        expSize = maxExp - 1;
        trimKeep = true;
        precision = maxFraction;
        minDigits = precision;
        padLeft = maxInt;
        padRight = expSize + 2 + precision;
      } else {
        int maxInt = 0;
        int maxFraction = 0;
        for (double d : finite) {
          String s = positional(d, PRECISION, 0, false);
          int dot = s.indexOf('.');
          maxInt = Math.max(maxInt, dot);
          maxFraction = Math.max(maxFraction, s.length() - dot - 1);
        }
        padLeft = maxInt;
        padRight = maxFraction;
        expSize = -1;
        trimKeep = false;
        minDigits = 0;
      }
      if (anyNonFinite) {
        boolean neginf = plusSign || negativeInf;
        int offset = padRight + 1;
        padLeft = Math.max(padLeft, Math.max(3 - offset, 3 + (neginf ? 1 : 0) - offset));
      }
    }

    String format(double x) {
      if (!Double.isFinite(x)) {
        String ret = Double.isNaN(x) ? (plusSign ? "+nan" : "nan")
            : (x < 0 ? "-inf" : plusSign ? "+inf" : "inf");
        return " ".repeat(Math.max(0, padLeft + padRight + 1 - ret.length())) + ret;
      }
      if (expFormat) {
        String s = scientific(x, precision, minDigits, trimKeep, expSize);
        int dot = s.indexOf('.');
        return " ".repeat(Math.max(0, padLeft - dot)) + s;
      }
      String s = positional(x, precision, minDigits, trimKeep);
      int dot = s.indexOf('.');
      int fraction = s.length() - dot - 1;
      return " ".repeat(Math.max(0, padLeft - dot)) + s
          + " ".repeat(Math.max(0, padRight - fraction));
    }

    /** Dragon4 positional, unique digits, at most {@code precision} fraction digits. */
    private String positional(double x, int precision, int minDigits, boolean keep) {
      Shortest.Decimal d = Shortest.shortest(x, kind);
      if (d.fractionDigits() > precision) {
        d = Shortest.roundFraction(x, precision);
      } else if (d.fractionDigits() < minDigits) {
        d = Shortest.roundFraction(x, minDigits);
      }
      String digits = d.digits().equals("0") ? "0" : d.digits();
      int point = d.digits().equals("0") ? 1 : d.pointPosition();
      String text;
      if (point <= 0) {
        text = "0." + "0".repeat(-point) + digits;
      } else if (point >= digits.length()) {
        text = digits + "0".repeat(point - digits.length()) + ".";
      } else {
        text = digits.substring(0, point) + "." + digits.substring(point);
      }
      int fraction = text.length() - text.indexOf('.') - 1;
      if (fraction < minDigits) {
        text += "0".repeat(minDigits - fraction);
      }
      if (!keep) {
        text = trimZeros(text, minDigits);
      }
      return sign(d.negative()) + text;
    }

    /** Dragon4 scientific, unique digits, at most {@code precision} fraction digits. */
    private String scientific(double x, int precision, int minDigits, boolean keep,
        int expDigits) {
      Shortest.Decimal d = Shortest.shortest(x, kind);
      int fraction = d.digits().length() - 1;
      if (fraction > precision) {
        d = Shortest.roundSignificant(x, precision + 1);
      } else if (fraction < minDigits) {
        d = Shortest.roundSignificant(x, minDigits + 1);
      }
      String digits = d.digits();
      int exponent = digits.equals("0") ? 0 : d.pointPosition() - 1;
      String mantissa = digits.charAt(0) + "." + digits.substring(1);
      int have = digits.length() - 1;
      if (have < minDigits) {
        mantissa += "0".repeat(minDigits - have);
      }
      if (!keep) {
        mantissa = trimZeros(mantissa, minDigits);
      }
      String exp = Integer.toString(Math.abs(exponent));
      int width = Math.max(2, expDigits);
      if (exp.length() < width) {
        exp = "0".repeat(width - exp.length()) + exp;
      }
      return sign(d.negative()) + mantissa + "e" + (exponent < 0 ? "-" : "+") + exp;
    }

    private String sign(boolean negative) {
      return negative ? "-" : plusSign ? "+" : "";
    }

    private static String trimZeros(String text, int minDigits) {
      int dot = text.indexOf('.');
      int end = text.length();
      while (end > dot + 1 + minDigits && text.charAt(end - 1) == '0') {
        end--;
      }
      return text.substring(0, end);
    }
  }
}
