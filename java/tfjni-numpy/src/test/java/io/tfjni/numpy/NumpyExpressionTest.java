package io.tfjni.numpy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.DataType;
import io.tfjni.TestProcesses;
import io.tfjni.TestProcesses.Outcome;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NumPy constructors of --input_exprs against NumPy itself: every accepted form gives the
 * shape, the elements (bit for bit) and the kind of dtype that NumPy's own call gives, and every
 * other form is refused with one line naming it.
 */
class NumpyExpressionTest {
  /** Accepted forms; NumPy evaluates each one (the oracle), tfjni parses it. */
  private static final List<String> ACCEPTED = List.of(
      "np.ones((2,3))",
      "np.zeros(4)",
      "np.zeros(())",
      "np.zeros((0, 3))",
      "numpy.ones([2, 2])",
      " np . ones ( ( 2 , 3 ) ) ",
      "np.ones((2, 3), dtype=np.float32)",
      "np.ones((2, 3), np.int32)",
      "np.zeros(3, dtype='float16')",
      "np.zeros(3, dtype=\"uint8\")",
      "np.ones(3, dtype=numpy.complex64)",
      "np.ones(2, dtype=bool)",
      "np.zeros(2, dtype=np.bool_)",
      "np.ones(2, dtype=int)",
      "np.ones(2, dtype=float)",
      "np.full((2, 3), 7)",
      "np.full((2, 3), -2.5)",
      "np.full(3, True)",
      "np.full(2, 1+2j)",
      "np.full(2, 'ab')",
      "np.full(shape=(2,), fill_value=3, dtype=np.int8)",
      "np.full((2,), 1.5, dtype='float32')",
      "np.arange(6)",
      "np.arange(-3, 3)",
      "np.arange(10, 0, -3)",
      "np.arange(5, 5)",
      "np.arange(5, 1)",
      "np.arange(0, 1, 0.1)",
      "np.arange(0, 1.2, 0.1)",
      "np.arange(-1.5, 2.25, 0.25)",
      "np.arange(1e-3, 7.5e-3, 1e-3)",
      "np.arange(3.0)",
      "np.arange(0.3, 0.0, -0.03)",
      "np.arange(0, 1, 0.1, dtype=np.float32)",
      "np.arange(0.1, 2.9, 0.07, np.float32)",
      "np.arange(-2, 40, 0.3, dtype='float16')",
      "np.arange(6, dtype=np.float64)",
      "np.arange(6, dtype=np.int16)",
      "np.arange(stop=4)",
      "np.arange(1, step=2, stop=9)",
      "np.linspace(0, 1)",
      "np.linspace(0, 1, 7)",
      "np.linspace(-3.5, 10, 13, endpoint=False)",
      "np.linspace(2, 2, 4)",
      "np.linspace(0, 1, 1)",
      "np.linspace(0, 1, 0)",
      "np.linspace(1e-310, 3e-310, 5)",
      "np.linspace(0, 1, 9, dtype=np.float32)",
      "np.linspace(-2.5, 7, 11, dtype=np.int32)",
      "np.linspace(start=1, stop=0, num=6)",
      "np.arange(6).reshape(2, 3)",
      "np.arange(6).reshape((3, 2))",
      "np.arange(6).reshape([3, -1])",
      "np.arange(24).reshape(2, 3, 4).reshape(-1)",
      "np.ones(6).reshape(6, 1) ",
      "np.zeros((2, 0)).reshape(0, 5)",
      "np.full((), 4).reshape(1, 1)");

  @TempDir
  static Path work;

  @Test
  void acceptedFormsGiveWhatNumPyGives() throws IOException {
    Path cases = work.resolve("cases.json");
    new ObjectMapper().writeValue(cases.toFile(), ACCEPTED);
    // The elements as text that keeps every bit: float.hex for floats, str for ints and bools.
    String script = String.join("\n",
        "import json, sys, numpy as np",
        "d = sys.argv[1]",
        "def text(v):",
        "    if isinstance(v, (bool, np.bool_)): return 'True' if v else 'False'",
        "    if isinstance(v, (complex, np.complexfloating)):",
        "        return float(v.real).hex() + ',' + float(v.imag).hex()",
        "    if isinstance(v, (float, np.floating)): return float(v).hex()",
        "    return str(v)",
        "out = []",
        "for expr in json.load(open(d + '/cases.json')):",
        "    a = eval(expr.strip(), {'np': np, 'numpy': np})",
        "    out.append(dict(shape=list(a.shape), dtype=a.dtype.name,",
        "                    kind=a.dtype.kind, values=[text(v) for v in a.reshape(-1).tolist()]))",
        "json.dump(out, open(d + '/numpy.json', 'w'))");
    Outcome outcome = TestProcesses.runPython(script, work, 120);
    assertEquals(0, outcome.exitCode(), outcome.toString());
    JsonNode expected = new ObjectMapper().readTree(work.resolve("numpy.json").toFile());
    assertEquals(ACCEPTED.size(), expected.size());
    for (int c = 0; c < ACCEPTED.size(); c++) {
      String expression = ACCEPTED.get(c);
      JsonNode numpy = expected.get(c);
      NumpyExpression.Array array = assertInstanceOf(NumpyExpression.Array.class,
          NumpyExpression.parse(expression), expression);
      long[] shape = new long[numpy.get("shape").size()];
      for (int i = 0; i < shape.length; i++) {
        shape[i] = numpy.get("shape").get(i).asLong();
      }
      assertArrayEquals(shape, array.shape(), expression + ": shape");
      boolean dtypeNamed = expression.contains("dtype") || expression.contains(", np.");
      if (dtypeNamed) {
        assertEquals(numpy.get("dtype").asText(), Dtypes.pythonName(array.dtype()),
            expression + ": dtype");
      } else {
        assertNull(array.dtype(), expression + ": no dtype named");
      }
      JsonNode values = numpy.get("values");
      assertEquals(values.size(), array.elements().size(), expression + ": element count");
      String kind = numpy.get("kind").asText();
      DataType type = dtypeNamed ? array.dtype() : null;
      for (int i = 0; i < values.size(); i++) {
        assertEquals(values.get(i).asText(), text(array.elements().get(i), kind, type),
            expression + ": element " + i);
      }
    }
  }

  /**
   * An element as the script writes NumPy's: with no dtype named, the Java value's kind must be
   * NumPy's default dtype's (float64 a Double, int64 a BigInteger, ...); with one, the value is
   * first rounded to that dtype, as the tensor will hold it.
   */
  private static String text(Object value, String kind, DataType type) {
    switch (kind) {
      case "f": {
        double d = value instanceof BigInteger i ? i.doubleValue() : (Double) value;
        if (type == DataType.FLOAT) {
          d = (float) d;
        } else if (type == DataType.HALF) {
          d = Half.toDouble(Half.fromDouble(d));
        } else if (type == null) {
          assertInstanceOf(Double.class, value, "float64 by default");
        }
        return hex(d);
      }
      case "i":
      case "u":
        if (value instanceof Double d) {
          assertTrue(type != null && d == Math.rint(d), "a whole value for " + type);
          return Long.toString(d.longValue());
        }
        return assertInstanceOf(BigInteger.class, value).toString();
      case "b":
        if (value instanceof BigInteger i) {
          return i.signum() != 0 ? "True" : "False";
        }
        return assertInstanceOf(Boolean.class, value) ? "True" : "False";
      case "c": {
        PythonLiteral.Complex c = value instanceof PythonLiteral.Complex complex ? complex
            : new PythonLiteral.Complex((Double) value, 0);
        if (type == DataType.COMPLEX64) {
          c = new PythonLiteral.Complex((float) c.real(), (float) c.imag());
        }
        return hex(c.real()) + "," + hex(c.imag());
      }
      case "U":
        return (String) value;
      default:
        throw new AssertionError("kind " + kind);
    }
  }

  /** Python's float.hex. */
  private static String hex(double d) {
    if (d == 0) {
      return (1 / d < 0 ? "-" : "") + "0x0.0p+0";
    }
    String java = Double.toHexString(d); // 0x1.8p1, 0x0.0000000000001p-1022
    String sign = java.startsWith("-") ? "-" : "";
    String body = java.substring(sign.length() + 2);
    int p = body.indexOf('p');
    String mantissa = body.substring(0, p);
    int exponent = Integer.parseInt(body.substring(p + 1));
    String[] parts = mantissa.split("\\.");
    String fraction = (parts[1] + "0000000000000").substring(0, 13);
    return sign + "0x" + parts[0] + "." + fraction + "p" + (exponent >= 0 ? "+" : "") + exponent;
  }

  @Test
  void literalsStayLiterals() {
    assertEquals(List.of(BigInteger.ONE, BigInteger.TWO), NumpyExpression.parse("[1, 2]"));
    assertEquals(2.5, NumpyExpression.parse(" 2.5 "));
    assertEquals("np.ones(2)", NumpyExpression.parse("'np.ones(2)'"));
  }

  /** Each refused form, and what its one line must name. */
  @Test
  void everyOtherFormIsRefusedWithOneLineNamingIt() {
    String[][] refused = {
        {"np.eye(3)", "'np.eye' is not accepted"},
        {"np.random.rand(3)", "'np.random.rand' is not accepted"},
        {"numpy.array([1, 2])", "'numpy.array' is not accepted"},
        {"np.ones", "expected '(' after np.ones"},
        {"np.ones(2).astype(np.float32)", "'.astype' is not accepted"},
        {"np.ones(2).T", "'.T' is not accepted"},
        {"np.ones(2) + 1", "unexpected '+' after np.ones(...)"},
        {"np.ones(2) * np.ones(2)", "unexpected '*'"},
        {"np.ones(2); import os", "unexpected ';'"},
        {"np.ones(2, order='F')", "'order=' in np.ones(...) is not accepted"},
        {"np.ones(2, np.float32, 'C')", "a 3rd positional argument of np.ones"},
        {"np.linspace(0, 1, 5, True, True)", "a 5th positional argument of np.linspace"},
        {"np.linspace(0, 1, retstep=True)", "'retstep=' in np.linspace(...) is not accepted"},
        {"np.ones(2, dtype=np.float128)", "dtype=np.float128 is not accepted"},
        {"np.ones(2, dtype='float128')", "dtype='float128' is not accepted"},
        {"np.ones(2, dtype=np.bfloat16)", "dtype=np.bfloat16 is not accepted"},
        {"np.ones(2, dtype=str)", "dtype=str is not accepted"},
        {"np.ones(2, dtype=object)", "dtype=object is not accepted"},
        {"np.ones(n)", "'n' is not accepted"},
        {"np.ones(__import__('os').getcwd())", "'__import__' is not accepted"},
        {"np.full(2, np.pi)", "'np.pi' is not accepted"},
        {"np.full(2, None)", "'None' is not accepted"},
        {"np.ones(-1)", "np.ones: negative dimensions are not allowed"},
        {"np.ones(2.0)", "np.ones: the shape must be an int or a tuple of ints, not 2.0"},
        {"np.ones((2, '3'))", "the shape must be an int or a tuple of ints"},
        {"np.ones()", "np.ones needs shape"},
        {"np.full((2,))", "np.full needs fill_value"},
        {"np.full(2, [1, 2])", "np.full takes a single fill_value here, not a list"},
        {"np.ones(2, dtype=np.float32, dtype=np.int8)", "np.ones got 'dtype' twice"},
        {"np.ones(shape=2, 3)", "a positional argument after a keyword argument"},
        {"np.ones(2", "'(' is never closed"},
        {"np.arange()", "np.arange needs stop"},
        {"np.arange(0, 1, 0)", "np.arange: step must not be zero"},
        {"np.arange(0.5, dtype=np.int32)", "np.arange with an integer dtype and a float"},
        {"np.arange(3, dtype=np.complex64)", "np.arange with dtype complex64 is not accepted"},
        {"np.arange(1j)", "np.arange takes int or float bounds here, not a complex number"},
        {"np.arange(True)", "np.arange takes int or float bounds here, not True"},
        {"np.arange(0, 1e300, 1e-300)", "more than"},
        {"np.linspace(0, 1, 2.5)", "np.linspace: num must be a non-negative integer, not 2.5"},
        {"np.linspace(0, 1, -1)", "num must be a non-negative integer, not -1"},
        {"np.linspace(0, 1, endpoint=1)", "np.linspace: endpoint must be True or False, not 1"},
        {"np.linspace(0, 1, dtype=bool)", "np.linspace with dtype bool is not accepted"},
        {"np.linspace(0)", "np.linspace needs stop"},
        {"np.zeros((100000, 100000, 100000))", "more than"},
        {"np.arange(6).reshape(4, 2)", "cannot reshape array of size 6 into shape (4, 2)"},
        {"np.arange(6).reshape(-1, -1)", "can only specify one unknown dimension"},
        {"np.arange(6).reshape(-1, 4)", "cannot reshape array of size 6 into shape (-1, 4)"},
        {"np.arange(6).reshape(-2, 3)", ".reshape: -2 is not a dimension"},
        {"np.arange(6).reshape()", ".reshape needs a shape"},
        {"np.arange(6).reshape(2, 3, order='F')", "'order=' in .reshape(...) is not accepted"},
        {"[np.ones(2)]", "'np' is not a literal"},
    };
    for (String[] form : refused) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> NumpyExpression.parse(form[0]), form[0]);
      assertTrue(e.getMessage().contains(form[1]), form[0] + ": " + e.getMessage());
      assertTrue(e.getMessage().contains(" at column "), form[0] + ": " + e.getMessage());
      assertFalse(e.getMessage().contains("\n"), form[0] + ": " + e.getMessage());
      if (form[1].contains("is not accepted")) {
        assertTrue(e.getMessage().contains(NumpyExpression.ACCEPTED), e.getMessage());
      }
    }
  }

  @Test
  void elementsAreComputedWhenReadNotHeld() {
    // 2^30 float64 elements would be 8 GiB held; the list computes each one when asked.
    NumpyExpression.Array array = (NumpyExpression.Array) NumpyExpression.parse(
        "np.arange(0, 1, 2 ** -30)".replace("2 ** -30", Double.toString(Math.scalb(1.0, -30))));
    assertEquals(1 << 30, array.elements().size());
    assertEquals(Math.scalb(1.0, -30) * 12345, array.elements().get(12345));
  }
}
