package io.tfjni.numpy;

import io.tfjni.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * An expression of the CLI's {@code --input_exprs}: a Python literal ({@link PythonLiteral}), or
 * one of the NumPy constructors that saved_model_cli's documentation shows ({@code
 * x=np.ones((2,3))}), parsed and never evaluated: {@code np.zeros(shape)}, {@code np.ones(shape)},
 * {@code np.full(shape, fill_value)}, {@code np.arange([start,] stop[, step])} and {@code
 * np.linspace(start, stop[, num[, endpoint]])}, each with an optional {@code dtype=} ({@code
 * np.float32}, {@code 'float32'}, or Python's {@code float}, {@code int}, {@code bool}, {@code
 * complex}), then any number of {@code .reshape(...)}; {@code numpy.} works as {@code np.} does.
 *
 * <p>The elements are NumPy's: arange and linspace follow NumPy's own arithmetic in the dtype
 * NumPy computes them in (float64, or the float dtype named), so that they come out bit for bit.
 * Anything else (another function, argument or method, a call inside a list) is refused with
 * one line naming it.
 */
public final class NumpyExpression {
  /** What --input_exprs accepts, for error messages. */
  public static final String ACCEPTED = "Python literals, and np.zeros, np.ones, np.full,"
      + " np.arange, np.linspace (with dtype=) followed by .reshape(...)";

  /** More elements than a Java list can index is certainly a mistake. */
  private static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;

  /**
   * The functions and the arguments each takes here, in NumPy's positional order; dtype may
   * always be given by keyword (linspace's is its sixth parameter, after retstep).
   */
  private static final Map<String, List<String>> FUNCTIONS = Map.of(
      "zeros", List.of("shape", "dtype"),
      "ones", List.of("shape", "dtype"),
      "full", List.of("shape", "fill_value", "dtype"),
      "arange", List.of("start", "stop", "step", "dtype"),
      "linspace", List.of("start", "stop", "num", "endpoint"));

  /**
   * An array a NumPy constructor makes: its shape, its elements in C order as literal values
   * ({@link BigInteger}, {@link Double}, {@link Boolean}, {@link PythonLiteral.Complex}, {@link
   * String}, {@code byte[]}), and the dtype named by {@code dtype=}, or null when none is (the
   * elements then take the input's dtype, as a literal's do).
   *
   * @param shape the array's shape
   * @param elements its elements in C order
   * @param dtype the dtype {@code dtype=} named, or null
   */
  public record Array(long[] shape, List<Object> elements, DataType dtype) {
    /**
     * Keeps a copy of {@code shape}.
     *
     * @param shape the array's shape
     * @param elements its elements in C order
     * @param dtype the dtype {@code dtype=} named, or null
     */
    public Array {
      shape = shape.clone();
    }

    /**
     * The array's shape.
     *
     * @return a copy of it
     */
    @Override
    public long[] shape() {
      return shape.clone();
    }
  }

  private final String text;
  private int at;

  private NumpyExpression(String text) {
    this.text = text;
  }

  /**
   * A literal's value (as {@link PythonLiteral#parse}) or an {@link Array}; anything else throws
   * {@link IllegalArgumentException} saying what and where.
   *
   * @param text the expression, e.g. {@code np.ones((2, 3))}
   * @return the literal's value or the array
   */
  public static Object parse(String text) {
    NumpyExpression parser = new NumpyExpression(text);
    parser.skipSpace();
    int start = parser.at;
    String prefix = parser.identifier();
    parser.skipSpace();
    if (!isNumpy(prefix) || !parser.peek('.')) {
      return PythonLiteral.parse(text);
    }
    parser.at = start;
    return parser.call();
  }

  private static boolean isNumpy(String name) {
    return name.equals("np") || name.equals("numpy");
  }

  /** {@code np.FUNCTION(ARGS)} then {@code .reshape(ARGS)} any number of times, then the end. */
  private Array call() {
    int nameAt = at;
    String function = qualifiedName();
    List<String> parameters = FUNCTIONS.get(function.substring(function.indexOf('.') + 1));
    if (parameters == null || function.indexOf('.') != function.lastIndexOf('.')) {
      at = nameAt;
      throw notAccepted("'" + function + "'");
    }
    String name = "np." + function.substring(function.indexOf('.') + 1);
    Map<String, Object> arguments = arguments(name, parameters);
    Array array = switch (name) {
      case "np.zeros", "np.ones" -> filled(name, arguments,
          name.equals("np.ones") ? 1 : 0);
      case "np.full" -> full(arguments);
      case "np.arange" -> arange(arguments);
      default -> linspace(arguments);
    };
    while (true) {
      skipSpace();
      if (at >= text.length()) {
        return array;
      }
      if (!peek('.')) {
        throw error("unexpected '" + PythonLiteral.excerpt(text.substring(at, at + 1), 0)
            + "' after " + name + "(...) (" + ACCEPTED + ")");
      }
      at++;
      skipSpace();
      int methodAt = at;
      String method = identifier();
      if (!method.equals("reshape")) {
        at = methodAt;
        throw notAccepted("'." + method + "'");
      }
      array = reshape(array, arguments(".reshape", null));
    }
  }

  /** {@code np.NAME} or {@code numpy.NAME}, possibly with more dots. */
  private String qualifiedName() {
    StringBuilder name = new StringBuilder(identifier());
    while (true) {
      skipSpace();
      if (!peek('.')) {
        return name.toString();
      }
      at++;
      skipSpace();
      int partAt = at;
      String part = identifier();
      if (part.isEmpty()) {
        at = partAt;
        throw error("expected a name after '.'");
      }
      name.append('.').append(part);
    }
  }

  /**
   * Parses {@code (a, b, key=c)}. With {@code parameters}, positional arguments take their names
   * in order and keywords must be among them; without (reshape), only positional ones, as "0",
   * "1", ...
   */
  private Map<String, Object> arguments(String function, List<String> parameters) {
    skipSpace();
    if (!peek('(')) {
      throw error("expected '(' after " + function);
    }
    int open = at++;
    Map<String, Object> arguments = new LinkedHashMap<>();
    int positional = 0;
    boolean sawKeyword = false;
    while (true) {
      skipSpace();
      if (at >= text.length()) {
        at = open;
        throw error("'(' is never closed");
      }
      if (peek(')')) {
        at++;
        return arguments;
      }
      int argumentAt = at;
      String keyword = keyword();
      String name;
      if (keyword != null) {
        if (parameters == null || !(parameters.contains(keyword) || keyword.equals("dtype"))) {
          at = argumentAt;
          throw notAccepted("'" + keyword + "=' in " + function + "(...)",
              parameters == null ? "" : "it takes " + takes(parameters));
        }
        name = keyword;
        sawKeyword = true;
      } else {
        if (sawKeyword) {
          throw error("a positional argument after a keyword argument");
        }
        if (parameters != null && positional >= parameters.size()) {
          throw notAccepted("a " + ordinal(positional + 1) + " positional argument of "
              + function, "it takes " + takes(parameters));
        }
        name = parameters == null ? Integer.toString(positional) : parameters.get(positional);
        positional++;
      }
      if (arguments.containsKey(name)) {
        at = argumentAt;
        throw error(function + " got '" + name + "' twice");
      }
      arguments.put(name, name.equals("dtype") ? dtype() : value());
      skipSpace();
      if (peek(',')) {
        at++;
      } else if (!peek(')') && at < text.length()) { // the end: the loop says '(' is not closed
        throw error("expected ',' or ')'");
      }
    }
  }

  /** {@code NAME=} (not {@code ==}) here, consumed; else null with nothing consumed. */
  private String keyword() {
    int start = at;
    String name = identifier();
    skipSpace();
    if (!name.isEmpty() && peek('=') && !text.startsWith("==", at)) {
      at++;
      return name;
    }
    at = start;
    return null;
  }

  /** A literal; a name here (np.pi, None, a variable) is refused. */
  private Object value() {
    int start = at;
    String name = identifier();
    at = start;
    if (!name.isEmpty() && !name.equals("True") && !name.equals("False")
        && !name.matches("(?i)[rbu]|br|rb")) {
      String qualified = qualifiedName();
      at = start;
      throw notAccepted("'" + qualified + "'");
    }
    PythonLiteral.Prefix literal = PythonLiteral.parsePrefix(text, at);
    at = literal.end();
    return literal.value();
  }

  /** {@code np.float32}, {@code numpy.float32}, {@code 'float32'}, or float, int, bool, complex. */
  private DataType dtype() {
    skipSpace();
    int start = at;
    String name;
    if (peek('\'') || peek('"')) {
      Object literal = value();
      name = literal instanceof String s ? s : "";
    } else {
      String qualified = qualifiedName();
      int dot = qualified.indexOf('.');
      boolean numpy = dot > 0 && isNumpy(qualified.substring(0, dot));
      name = numpy ? qualified.substring(dot + 1) : qualified;
      if (!numpy) {
        name = switch (qualified) {
          case "float" -> "float64";
          case "int" -> "int64";
          case "bool" -> "bool";
          case "complex" -> "complex128";
          default -> "";
        };
      }
    }
    DataType type = Dtypes.numpyNamed(name);
    if (type == null) {
      int end = at;
      at = start;
      throw notAccepted("dtype=" + text.substring(start, end).strip(), "dtype= takes"
          + " np.float16/32/64, np.int8/16/32/64, np.uint8/16/32/64, np.complex64/128, np.bool,"
          + " their names as strings, or float, int, bool, complex");
    }
    return type;
  }

  private Array filled(String name, Map<String, Object> arguments, int value) {
    long[] shape = shape(name, required(name, arguments, "shape"));
    DataType dtype = (DataType) arguments.get("dtype");
    return constant(shape, dtype == null ? (Object) (double) value : valueOf(dtype, value),
        dtype);
  }

  private Array full(Map<String, Object> arguments) {
    long[] shape = shape("np.full", required("np.full", arguments, "shape"));
    Object fill = required("np.full", arguments, "fill_value");
    if (fill instanceof List<?> || fill instanceof Map<?, ?>) {
      throw error("np.full takes a single fill_value here, not " + (fill instanceof List<?>
          ? "a list" : "a dict"));
    }
    return constant(shape, fill, (DataType) arguments.get("dtype"));
  }

  private Array constant(long[] shape, Object value, DataType dtype) {
    return new Array(shape, elements(shape, i -> value), dtype);
  }

  /** 0 or 1 as a value of the dtype's kind. */
  private static Object valueOf(DataType dtype, int value) {
    if (dtype == DataType.BOOL) {
      return value != 0;
    }
    if (dtype == DataType.COMPLEX64 || dtype == DataType.COMPLEX128) {
      return new PythonLiteral.Complex(value, 0);
    }
    if (dtype == DataType.FLOAT || dtype == DataType.DOUBLE || dtype == DataType.HALF) {
      return (double) value;
    }
    return BigInteger.valueOf(value);
  }

  /**
   * NumPy's arange: the length is ceil((stop - start) / step) in Python's arithmetic, then
   * element 0 is start, element 1 is start + step, and element i is start + i * (element 1 -
   * element 0), computed in the array's dtype (float16 through float32, as NumPy does).
   */
  private Array arange(Map<String, Object> arguments) {
    Object start = arguments.get("start");
    Object stop = arguments.get("stop");
    if (stop == null) { // arange(n) is arange(0, n)
      if (start == null) {
        throw error("np.arange needs stop");
      }
      stop = start;
      start = BigInteger.ZERO;
    }
    if (start == null) {
      start = BigInteger.ZERO;
    }
    Object step = arguments.getOrDefault("step", BigInteger.ONE);
    DataType dtype = (DataType) arguments.get("dtype");
    for (Object bound : List.of(start, stop, step)) {
      requireReal("np.arange", bound);
    }
    boolean integers = start instanceof BigInteger && stop instanceof BigInteger
        && step instanceof BigInteger;
    boolean integerDtype = dtype != null && dtype.isInteger();
    if (dtype != null && !integerDtype && !isFloat(dtype)) {
      throw notAccepted("np.arange with dtype " + Dtypes.pythonName(dtype));
    }
    if (integerDtype && !integers) {
      throw notAccepted("np.arange with an integer dtype and a float argument",
          "NumPy's result there is not start + i * step");
    }
    if (real(step) == 0) {
      throw error("np.arange: step must not be zero");
    }
    if (integers && (dtype == null || integerDtype)) {
      BigInteger first = (BigInteger) start;
      BigInteger delta = (BigInteger) step;
      double quotient = new BigDecimal(((BigInteger) stop).subtract(first))
          .divide(new BigDecimal(delta), MathContext.DECIMAL128).doubleValue();
      long[] shape = {length(Math.ceil(quotient))};
      return new Array(shape, elements(shape,
          i -> first.add(delta.multiply(BigInteger.valueOf(i)))), dtype);
    }
    double first = real(start);
    double second = real(add(start, step));
    long[] shape = {length(Math.ceil((real(stop) - first) / real(step)))};
    LongFunction<Object> element;
    if (dtype == DataType.FLOAT) {
      float a0 = (float) first;
      float a1 = (float) second;
      float delta = a1 - a0;
      element = i -> (double) (i == 0 ? a0 : i == 1 ? a1 : a0 + (float) i * delta);
    } else if (dtype == DataType.HALF) {
      double a0 = Half.toDouble(Half.fromDouble(first));
      double a1 = Half.toDouble(Half.fromDouble(second));
      float delta = (float) a1 - (float) a0;
      element = i -> i == 0 ? a0 : i == 1 ? a1
          : Half.toDouble(Half.fromDouble((float) a0 + (float) i * delta));
    } else {
      double delta = second - first;
      element = i -> i == 0 ? first : i == 1 ? second : first + i * delta;
    }
    return new Array(shape, elements(shape, element), dtype);
  }

  /** start + step in Python: exact for two ints, else in float64. */
  private static Object add(Object a, Object b) {
    if (a instanceof BigInteger x && b instanceof BigInteger y) {
      return x.add(y);
    }
    return real(a) + real(b);
  }

  /**
   * NumPy's linspace, in float64: element i is i * step + start with step = (stop - start) / div
   * (i / div * (stop - start) + start if that step is 0), the last is stop itself when endpoint;
   * an integer dtype takes the floor of each.
   */
  private Array linspace(Map<String, Object> arguments) {
    Object startValue = required("np.linspace", arguments, "start");
    Object stopValue = required("np.linspace", arguments, "stop");
    requireReal("np.linspace", startValue);
    requireReal("np.linspace", stopValue);
    Object numValue = arguments.getOrDefault("num", BigInteger.valueOf(50));
    if (!(numValue instanceof BigInteger count) || count.signum() < 0) {
      throw error("np.linspace: num must be a non-negative integer, not " + describe(numValue));
    }
    Object endpointValue = arguments.getOrDefault("endpoint", Boolean.TRUE);
    if (!(endpointValue instanceof Boolean endpoint)) {
      throw error("np.linspace: endpoint must be True or False, not " + describe(endpointValue));
    }
    DataType dtype = (DataType) arguments.get("dtype");
    if (dtype != null && !dtype.isInteger() && !isFloat(dtype)) {
      throw notAccepted("np.linspace with dtype " + Dtypes.pythonName(dtype));
    }
    long[] shape = {length(count.doubleValue())};
    long num = shape[0];
    double start = real(startValue);
    double stop = real(stopValue);
    long div = endpoint ? num - 1 : num;
    double delta = stop - start;
    double step = div > 0 ? delta / div : Double.NaN;
    boolean floor = dtype != null && dtype.isInteger();
    return new Array(shape, elements(shape, i -> {
      double y;
      if (div <= 0) {
        y = i * delta;
      } else if (step == 0) {
        y = (double) i / div * delta;
      } else {
        y = i * step;
      }
      y += start;
      if (endpoint && num > 1 && i == num - 1) {
        y = stop;
      }
      return floor ? Math.floor(y) : y;
    }), dtype);
  }

  /** {@code .reshape(2, 3)} or {@code .reshape((2, 3))}, with at most one -1. */
  private Array reshape(Array array, Map<String, Object> arguments) {
    Object spec = arguments.size() == 1 ? arguments.get("0") : new ArrayList<>(arguments.values());
    if (arguments.isEmpty()) {
      throw error(".reshape needs a shape");
    }
    if (!(spec instanceof List<?>)) {
      spec = List.of(spec);
    }
    List<?> dims = (List<?>) spec;
    long[] shape = new long[dims.size()];
    int unknown = -1;
    long known = 1;
    for (int i = 0; i < shape.length; i++) {
      Object dim = dims.get(i);
      if (!(dim instanceof BigInteger d) || d.compareTo(BigInteger.valueOf(-1)) < 0
          || d.bitLength() > 62) {
        throw error(".reshape: " + describe(dim) + " is not a dimension");
      }
      shape[i] = d.longValue();
      if (shape[i] == -1) {
        if (unknown >= 0) {
          throw error(".reshape: can only specify one unknown dimension");
        }
        unknown = i;
      } else {
        known = multiply(known, shape[i]);
      }
    }
    long size = array.elements().size();
    if (unknown >= 0 && known != 0 && size % known == 0) {
      shape[unknown] = size / known;
    } else if (unknown >= 0 || known != size) {
      throw error(".reshape: cannot reshape array of size " + size + " into shape "
          + Arrays.toString(shape).replace("[", "(").replace("]", ")"));
    }
    return new Array(shape, array.elements(), array.dtype());
  }

  /** A shape argument: an int, or a tuple or list of ints, none negative. */
  private long[] shape(String function, Object value) {
    List<?> dims = value instanceof List<?> list ? list : List.of(value);
    long[] shape = new long[dims.size()];
    for (int i = 0; i < shape.length; i++) {
      if (!(dims.get(i) instanceof BigInteger dim) || dim.bitLength() > 62) {
        throw error(function + ": the shape must be an int or a tuple of ints, not "
            + describe(value));
      }
      if (dim.signum() < 0) {
        throw error(function + ": negative dimensions are not allowed");
      }
      shape[i] = dim.longValue();
    }
    return shape;
  }

  /** A lazy list: {@code element} computes element i when asked, so no copy is held. */
  private List<Object> elements(long[] shape, LongFunction<Object> element) {
    long count = 1;
    for (long dim : shape) {
      count = multiply(count, dim);
    }
    int size = (int) count;
    return new AbstractList<>() {
      @Override
      public Object get(int index) {
        if (index < 0 || index >= size) {
          throw new IndexOutOfBoundsException(index);
        }
        return element.apply(index);
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  private long multiply(long a, long b) {
    long product;
    try {
      product = Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      product = Long.MAX_VALUE;
    }
    if (product > MAX_ELEMENTS) {
      throw error("more than " + MAX_ELEMENTS + " elements");
    }
    return product;
  }

  private long length(double ceiling) {
    if (Double.isNaN(ceiling)) {
      throw error("the length of the range is not a number");
    }
    if (ceiling > MAX_ELEMENTS) {
      throw error("more than " + MAX_ELEMENTS + " elements");
    }
    return Math.max(0, (long) ceiling);
  }

  private Object required(String function, Map<String, Object> arguments, String name) {
    Object value = arguments.get(name);
    if (value == null) {
      throw error(function + " needs " + name);
    }
    return value;
  }

  private void requireReal(String function, Object value) {
    if (!(value instanceof BigInteger) && !(value instanceof Double)) {
      throw error(function + " takes int or float bounds here, not " + describe(value));
    }
  }

  private static boolean isFloat(DataType type) {
    return type == DataType.HALF || type == DataType.FLOAT || type == DataType.DOUBLE;
  }

  private static double real(Object value) {
    return value instanceof BigInteger integer ? integer.doubleValue() : (Double) value;
  }

  private static String takes(List<String> parameters) {
    return String.join(", ", parameters) + (parameters.contains("dtype") ? "" : ", dtype=");
  }

  private static String ordinal(int n) {
    return n + (n == 1 ? "st" : n == 2 ? "nd" : n == 3 ? "rd" : "th");
  }

  private static String describe(Object value) {
    if (value instanceof List<?> list) {
      return "a sequence of " + list.size();
    }
    if (value instanceof String || value instanceof byte[]) {
      return "a string";
    }
    if (value instanceof PythonLiteral.Complex) {
      return "a complex number";
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    return String.valueOf(value);
  }

  private String identifier() {
    int start = at;
    while (at < text.length()
        && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
      if (at == start && Character.isDigit(text.charAt(at))) {
        break;
      }
      at++;
    }
    return text.substring(start, at);
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private IllegalArgumentException notAccepted(String what) {
    return notAccepted(what, "");
  }

  /** "WHAT is not accepted (WHY; --input_exprs takes ...)": the one line for every refusal. */
  private IllegalArgumentException notAccepted(String what, String why) {
    return error(what + " is not accepted (" + (why.isEmpty() ? "" : why + "; ")
        + "--input_exprs takes " + ACCEPTED + ")");
  }

  /** "WHAT at column N of 'TEXT'", as {@link PythonLiteral}'s errors read. */
  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at column " + (at + 1) + " of '"
        + PythonLiteral.excerpt(text, at) + "'");
  }
}
