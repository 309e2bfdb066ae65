package io.tfjni.eager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import io.tfjni.internal.Platform;
import io.tfjni.internal.TensorFlowVersions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every eager op against TensorFlow Python: scripts/goldens/generate_eager_cases.py ran each case with
 * TensorFlow's Python API and wrote eager_cases.json next to the models; here a table maps each
 * case name to the same computation through tfjni's NDArray / NDManager API. Case names start
 * with the tfjni method's name and "_". The table and the JSON must match exactly, and every
 * public op method must have a case.
 *
 * <p>The generator marks each case {@code "compare": "exact"} (bit for bit) or {@code "tolerant"}
 * (floating-point results within {@link TestModels#FLOAT_TOLERANCE}, absolute plus relative;
 * integers, booleans and strings still exactly), with the reason in {@code "why"}. Each case runs in its own
 * manager; after the op only its outputs may be live (no temporary left open), and after close
 * nothing.
 */
@ExtendWith(TestModels.NoLeaks.class)
class EagerOpsTest {

  /** A call of tfjni's API: returns an NDArray or an NDArray[] (several outputs). */
  @FunctionalInterface
  interface EagerOp {
    Object apply(NDManager m, NDArray[] in, Params p);
  }

  private static final Map<String, EagerOp> TABLE = table();

  /** NDArray / NDManager public methods that are not ops (no case needed). */
  private static final Set<String> NOT_OPS = Set.of(
      // NDArray
      "getManager", "dataType", "shape", "size", "device", "toTensor", "toDevice", "toFloatArray",
      "toDoubleArray", "toIntArray", "toLongArray", "toBooleanArray", "toByteArray",
      "toShortArray", "toStringArray", "toBytesArray", "toString", "close", "isClosed",
      // NDManager
      "newBaseManager", "newSubManager", "context", "parent", "opBuilder", "from", "share",
      "create", "scalar");

  /**
   * Cases of an elementwise op whose input holds numbers the op has no value for (the logarithm
   * of -inf and of -1.5, acosh of 0.5), for which it returns a NaN it makes itself. IEEE 754
   * leaves the sign and payload of such a NaN to the implementation, and TensorFlow's builds
   * differ: on Linux x86-64 its scalar code returns 0x7fc00000 for log and 0xffc00000 for acosh,
   * its 8-wide vector code 0xffffffff for log; its Windows build calls the C runtime's logf and
   * acoshf for short arrays, which return 0xffc00000 and 0x7fc00000 (under Wine; TensorFlow
   * Python on Windows runs the same code). At those elements an output must be a NaN, of any
   * bits; a NaN the input carries, and every other element, is compared as the case says.
   */
  private static final Set<String> MADE_NAN_CASES = Set.of("log_special", "acosh_float");

  /**
   * Whether this JVM runs TensorFlow's Windows build of 2.19 or later (the `tensorflow` wheel;
   * up to 2.18 Intel's `tensorflow-intel`), whose elementwise kernels round differently from the
   * Linux build that made the expected values (measured under Wine on 2.21.0; 2.18.0's Windows
   * build matched these cases bit for bit).
   */
  private static final boolean WINDOWS_FROM_2_19 = Platform.current() == Platform.WINDOWS_X86_64
      && TensorFlowVersions.atLeast(TensorFlow.version(), 2, 19);

  /**
   * Exact cases whose float results that Windows build computes 1 to 4 ulps away from the Linux
   * build (rsqrt, asin, acos, atan, atan2, the exp and log of logSoftmax, gelu's erfc): there they
   * are compared as the generator's tolerant cases are; everywhere else bit for bit.
   */
  private static final Set<String> WINDOWS_FROM_2_19_ROUNDING_CASES = Set.of("rsqrt_float",
      "asin_float", "acos_float", "atan_float", "atan2_float", "logSoftmax_axis0", "gelu_exact");

  private static List<JsonNode> cases;

  static synchronized List<JsonNode> cases() {
    if (cases == null) {
      Path file = TestModels.dir().resolve("eager_cases.json");
      if (!Files.isRegularFile(file)) {
        fail("no " + file + ": scripts/setup.sh writes it with scripts/goldens/generate_eager_cases.py");
      }
      try {
        List<JsonNode> list = new ArrayList<>();
        new ObjectMapper().readTree(file.toFile()).forEach(list::add);
        cases = list;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return cases;
  }

  @Test
  void tableAndCasesMatch() {
    Set<String> inJson = new TreeSet<>();
    cases().forEach(c -> inJson.add(c.path("name").asText()));
    Set<String> unmapped = new TreeSet<>(inJson);
    unmapped.removeAll(TABLE.keySet());
    Set<String> withoutCase = new TreeSet<>(TABLE.keySet());
    withoutCase.removeAll(inJson);
    assertTrue(unmapped.isEmpty() && withoutCase.isEmpty(), "cases in eager_cases.json without "
        + "a mapping in EagerOpsTest: " + unmapped + "; mappings without a case in "
        + "eager_cases.json (scripts/goldens/generate_eager_cases.py): " + withoutCase);
    assertEquals(inJson.size(), cases().size(), "duplicate case names");
    assertTrue(inJson.containsAll(MADE_NAN_CASES), "MADE_NAN_CASES names no case: "
        + MADE_NAN_CASES);
  }

  @Test
  void everyOpHasACase() {
    Set<String> ops = ops();
    assertTrue(ops.size() >= 80, "only " + ops.size() + " ops: " + ops);
    Set<String> prefixes = new TreeSet<>();
    TABLE.keySet().forEach(name -> prefixes.add(name.substring(0, name.indexOf('_'))));
    Set<String> untested = new TreeSet<>(ops);
    untested.removeAll(prefixes);
    assertTrue(untested.isEmpty(), "ops without a case: " + untested);
    Set<String> unknown = new TreeSet<>(prefixes);
    unknown.removeAll(ops);
    assertTrue(unknown.isEmpty(), "case names that start with no op's name: " + unknown);
  }

  /**
   * The names of the public op methods: the instance methods of NDArray and NDManager, the static
   * ones of Signal and Nn.
   */
  static Set<String> ops() {
    Set<String> ops = new TreeSet<>();
    for (Class<?> type : List.of(NDArray.class, NDManager.class, Signal.class, Nn.class)) {
      boolean staticOps = type == Signal.class || type == Nn.class;
      for (Method method : type.getDeclaredMethods()) {
        if (Modifier.isPublic(method.getModifiers())
            && Modifier.isStatic(method.getModifiers()) == staticOps
            && !NOT_OPS.contains(method.getName())) {
          ops.add(method.getName());
        }
      }
    }
    return ops;
  }

  @TestFactory
  Stream<DynamicTest> everyCase() {
    return cases().stream().map(c -> {
      String name = c.path("name").asText();
      return dynamicTest(name, () -> {
        EagerOp op = TABLE.get(name);
        if (op == null) {
          fail("case '" + name + "' has no mapping in EagerOpsTest's table");
        }
        TestModels.assertNoLeak(name, () -> run(c, op));
      });
    });
  }

  private static void run(JsonNode c, EagerOp op) {
    String name = c.path("name").asText();
    try (NDManager m = NDManager.newBaseManager()) {
      JsonNode inputs = c.path("inputs");
      NDArray[] in = new NDArray[inputs.size()];
      for (int i = 0; i < in.length; i++) {
        try (Tensor t = TestModels.tensor(inputs.get(i))) {
          in[i] = m.from(t);
        }
      }
      long handlesBefore = TensorFlow.liveObjects().tensorHandles();
      Object result = op.apply(m, in, new Params(c.path("params")));
      NDArray[] outputs = result instanceof NDArray[] ? (NDArray[]) result
          : new NDArray[] {(NDArray) result};
      assertEquals(handlesBefore + outputs.length, TensorFlow.liveObjects().tensorHandles(),
          name + ": the op left temporary arrays open");
      JsonNode expected = c.path("outputs");
      assertEquals(expected.size(), outputs.length, name + ": number of outputs");
      for (int i = 0; i < outputs.length; i++) {
        assertSame(m, outputs[i], name);
        try (Tensor actual = outputs[i].toTensor()) {
          String what = name + " output " + i;
          JsonNode output = MADE_NAN_CASES.contains(name)
              ? withMadeNansOf(expected.get(i), inputs.get(0), actual, what)
              : expected.get(i);
          boolean exact = exact(c)
              && !(WINDOWS_FROM_2_19 && WINDOWS_FROM_2_19_ROUNDING_CASES.contains(name));
          TestModels.assertTensor(output, actual, exact, what);
        }
      }
    }
  }

  /**
   * The expected float32 output with the NaNs the op made (a NaN where the input has none) set
   * to the actual output's bits, after checking that the actual output is a NaN there. On
   * TensorFlow's Windows build from 2.19 on a NaN input gives a NaN of other bits than on Linux
   * too, so there every NaN of the output is taken so.
   */
  private static JsonNode withMadeNansOf(JsonNode expected, JsonNode input, Tensor actual,
      String what) {
    assertEquals("float32", expected.path("dtype").asText(), what + ": MADE_NAN_CASES' dtype");
    assertEquals("float32", input.path("dtype").asText(), what + ": MADE_NAN_CASES' input dtype");
    FloatBuffer want = floats(TestModels.data(expected));
    FloatBuffer in = floats(TestModels.data(input));
    FloatBuffer got = floats(TestModels.bufferBytes(actual));
    assertEquals(want.capacity(), in.capacity(), what + ": an elementwise op's input and output");
    assertEquals(want.capacity(), got.capacity(), what + ": number of elements");
    for (int j = 0; j < want.capacity(); j++) {
      if (Float.isNaN(want.get(j)) && (!Float.isNaN(in.get(j)) || WINDOWS_FROM_2_19)) {
        assertTrue(Float.isNaN(got.get(j)), what + ": element " + j + " of " + in.get(j)
            + " must be a NaN, was " + got.get(j));
        want.put(j, got.get(j));
      }
    }
    ByteBuffer bytes = ByteBuffer.allocate(want.capacity() * Float.BYTES)
        .order(ByteOrder.LITTLE_ENDIAN);
    bytes.asFloatBuffer().put(want.rewind());
    return ((ObjectNode) expected.deepCopy())
        .put("data", Base64.getEncoder().encodeToString(bytes.array()));
  }

  private static FloatBuffer floats(byte[] littleEndian) {
    return ByteBuffer.wrap(littleEndian).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
  }

  /** The generator's marking; a case without one fails rather than defaulting either way. */
  private static boolean exact(JsonNode c) {
    String compare = c.path("compare").asText();
    if (!compare.equals("exact") && !compare.equals("tolerant")) {
      fail(c.path("name").asText() + ": \"compare\" must be \"exact\" or \"tolerant\", is '"
          + compare + "' (scripts/goldens/generate_eager_cases.py)");
    }
    if (c.path("why").asText().isBlank()) {
      fail(c.path("name").asText() + ": no \"why\" for comparing " + compare);
    }
    return compare.equals("exact");
  }

  @Test
  void mostCasesAreExact() {
    long tolerant = cases().stream().filter(c -> !exact(c)).count();
    assertTrue(tolerant * 20 < cases().size(),
        tolerant + " of " + cases().size() + " cases are compared with a tolerance");
  }

  private static void assertSame(NDManager m, NDArray output, String name) {
    if (output.getManager() != m) {
      fail(name + ": the result belongs to another manager");
    }
  }

  /** The case's non-tensor arguments. */
  static final class Params {
    private final JsonNode json;

    Params(JsonNode json) {
      this.json = json;
    }

    private JsonNode get(String key) {
      JsonNode value = json.get(key);
      if (value == null) {
        fail("the case has no parameter '" + key + "'");
      }
      return value;
    }

    int i(String key) {
      return get(key).asInt();
    }

    float f(String key) {
      return (float) get(key).asDouble();
    }

    double d(String key) {
      return get(key).asDouble();
    }

    String s(String key) {
      return get(key).asText();
    }

    /** A Long for integral JSON numbers, else a Double (as Python's int and float). */
    Number num(String key) {
      JsonNode value = get(key);
      return value.isIntegralNumber() ? (Number) value.asLong() : (Number) value.asDouble();
    }

    int[] ints(String key) {
      JsonNode array = get(key);
      int[] values = new int[array.size()];
      for (int j = 0; j < values.length; j++) {
        values[j] = array.get(j).asInt();
      }
      return values;
    }

    long[] longs(String key) {
      JsonNode array = get(key);
      long[] values = new long[array.size()];
      for (int j = 0; j < values.length; j++) {
        values[j] = array.get(j).asLong();
      }
      return values;
    }

    boolean flag(String key) {
      return get(key).asBoolean();
    }

    long[][] pairs(String key) {
      JsonNode array = get(key);
      long[][] values = new long[array.size()][];
      for (int j = 0; j < values.length; j++) {
        values[j] = new long[] {array.get(j).get(0).asLong(), array.get(j).get(1).asLong()};
      }
      return values;
    }
  }

  // The table: one entry per case of scripts/goldens/generate_eager_cases.py, in the same order.
  private static Map<String, EagerOp> table() {
    Map<String, EagerOp> t = new LinkedHashMap<>();
    // Element-wise arithmetic.
    t.put("add_same_shape", (m, in, p) -> in[0].add(in[1]));
    t.put("add_broadcast_row", (m, in, p) -> in[0].add(in[1]));
    t.put("add_broadcast_column", (m, in, p) -> in[0].add(in[1]));
    t.put("add_scalar", (m, in, p) -> in[0].add(p.num("value")));
    t.put("add_int32_scalar", (m, in, p) -> in[0].add(p.num("value")));
    t.put("add_int64", (m, in, p) -> in[0].add(in[1]));
    t.put("add_uint8_wraps", (m, in, p) -> in[0].add(in[1]));
    t.put("add_double", (m, in, p) -> in[0].add(in[1]));
    t.put("add_empty", (m, in, p) -> in[0].add(in[1]));
    t.put("add_strings", (m, in, p) -> in[0].add(in[1]));
    t.put("sub_broadcast", (m, in, p) -> in[0].sub(in[1]));
    t.put("sub_scalar", (m, in, p) -> in[0].sub(p.num("value")));
    t.put("sub_int32", (m, in, p) -> in[0].sub(in[1]));
    t.put("mul_broadcast", (m, in, p) -> in[0].mul(in[1]));
    t.put("mul_scalar", (m, in, p) -> in[0].mul(p.num("value")));
    t.put("mul_int64", (m, in, p) -> in[0].mul(in[1]));
    t.put("mul_uint8_wraps", (m, in, p) -> in[0].mul(in[1]));
    t.put("div_float", (m, in, p) -> in[0].div(in[1]));
    t.put("div_scalar", (m, in, p) -> in[0].div(p.num("value")));
    t.put("div_double", (m, in, p) -> in[0].div(in[1]));
    t.put("div_int32_matrix", (m, in, p) -> in[0].div(in[1]));
    t.put("div_int64_scalar", (m, in, p) -> in[0].div(p.num("value")));
    for (String type : new String[] {"int8", "int16", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64"}) {
      t.put("div_" + type + "_truncates", (m, in, p) -> in[0].div(in[1]));
    }
    t.put("floorDiv_float", (m, in, p) -> in[0].floorDiv(in[1]));
    t.put("floorDiv_int32", (m, in, p) -> in[0].floorDiv(in[1]));
    t.put("floorDiv_scalar", (m, in, p) -> in[0].floorDiv(p.num("value")));
    t.put("mod_float", (m, in, p) -> in[0].mod(in[1]));
    t.put("mod_int32", (m, in, p) -> in[0].mod(in[1]));
    t.put("mod_scalar", (m, in, p) -> in[0].mod(p.num("value")));
    t.put("pow_float", (m, in, p) -> in[0].pow(in[1]));
    t.put("pow_scalar", (m, in, p) -> in[0].pow(p.num("value")));
    t.put("pow_int32", (m, in, p) -> in[0].pow(in[1]));
    t.put("maximum_broadcast", (m, in, p) -> in[0].maximum(in[1]));
    t.put("maximum_scalar", (m, in, p) -> in[0].maximum(p.num("value")));
    t.put("maximum_nan", (m, in, p) -> in[0].maximum(in[1]));
    t.put("minimum_broadcast", (m, in, p) -> in[0].minimum(in[1]));
    t.put("minimum_scalar", (m, in, p) -> in[0].minimum(p.num("value")));
    t.put("minimum_uint8", (m, in, p) -> in[0].minimum(in[1]));
    t.put("squaredDifference_broadcast", (m, in, p) -> in[0].squaredDifference(in[1]));
    t.put("squaredDifference_int32", (m, in, p) -> in[0].squaredDifference(in[1]));
    // Comparisons and logic.
    t.put("eq_broadcast", (m, in, p) -> in[0].eq(in[1]));
    t.put("eq_scalar", (m, in, p) -> in[0].eq(p.num("value")));
    t.put("eq_strings", (m, in, p) -> in[0].eq(in[1]));
    t.put("eq_nan", (m, in, p) -> in[0].eq(in[1]));
    t.put("neq_broadcast", (m, in, p) -> in[0].neq(in[1]));
    t.put("neq_scalar", (m, in, p) -> in[0].neq(p.num("value")));
    t.put("gt_broadcast", (m, in, p) -> in[0].gt(in[1]));
    t.put("gt_scalar", (m, in, p) -> in[0].gt(p.num("value")));
    t.put("gte_int32", (m, in, p) -> in[0].gte(in[1]));
    t.put("gte_scalar", (m, in, p) -> in[0].gte(p.num("value")));
    t.put("lt_broadcast", (m, in, p) -> in[0].lt(in[1]));
    t.put("lt_uint8", (m, in, p) -> in[0].lt(in[1]));
    t.put("lt_scalar", (m, in, p) -> in[0].lt(p.num("value")));
    t.put("lte_double", (m, in, p) -> in[0].lte(in[1]));
    t.put("lte_scalar", (m, in, p) -> in[0].lte(p.num("value")));
    t.put("lte_empty", (m, in, p) -> in[0].lte(in[1]));
    t.put("logicalAnd_same_shape", (m, in, p) -> in[0].logicalAnd(in[1]));
    t.put("logicalAnd_broadcast", (m, in, p) -> in[0].logicalAnd(in[1]));
    t.put("logicalOr_same_shape", (m, in, p) -> in[0].logicalOr(in[1]));
    t.put("logicalNot_vector", (m, in, p) -> in[0].logicalNot());
    t.put("logicalXor_same_shape", (m, in, p) -> in[0].logicalXor(in[1]));
    t.put("logicalXor_broadcast", (m, in, p) -> in[0].logicalXor(in[1]));
    // Element-wise math.
    t.put("exp_float", (m, in, p) -> in[0].exp());
    t.put("exp_double", (m, in, p) -> in[0].exp());
    t.put("exp_empty", (m, in, p) -> in[0].exp());
    t.put("log_float", (m, in, p) -> in[0].log());
    t.put("log_special", (m, in, p) -> in[0].log());
    t.put("log1p_float", (m, in, p) -> in[0].log1p());
    t.put("log10_float", (m, in, p) -> in[0].log10());
    t.put("log2_float", (m, in, p) -> in[0].log2());
    t.put("cbrt_float", (m, in, p) -> in[0].cbrt());
    t.put("sqrt_float", (m, in, p) -> in[0].sqrt());
    t.put("sqrt_double", (m, in, p) -> in[0].sqrt());
    t.put("rsqrt_float", (m, in, p) -> in[0].rsqrt());
    t.put("square_float", (m, in, p) -> in[0].square());
    t.put("square_int32", (m, in, p) -> in[0].square());
    t.put("abs_float", (m, in, p) -> in[0].abs());
    t.put("abs_int64", (m, in, p) -> in[0].abs());
    t.put("neg_float", (m, in, p) -> in[0].neg());
    t.put("neg_int32", (m, in, p) -> in[0].neg());
    t.put("sign_float", (m, in, p) -> in[0].sign());
    t.put("sign_int64", (m, in, p) -> in[0].sign());
    t.put("floor_float", (m, in, p) -> in[0].floor());
    t.put("ceil_float", (m, in, p) -> in[0].ceil());
    t.put("ceil_double", (m, in, p) -> in[0].ceil());
    t.put("floor_int32", (m, in, p) -> in[0].floor());
    t.put("ceil_int64", (m, in, p) -> in[0].ceil());
    t.put("trunc_float", (m, in, p) -> in[0].trunc());
    t.put("trunc_int32", (m, in, p) -> in[0].trunc());
    t.put("round_half_to_even", (m, in, p) -> in[0].round());
    t.put("round_double", (m, in, p) -> in[0].round());
    t.put("sin_float", (m, in, p) -> in[0].sin());
    t.put("cos_float", (m, in, p) -> in[0].cos());
    t.put("tan_float", (m, in, p) -> in[0].tan());
    t.put("asin_float", (m, in, p) -> in[0].asin());
    t.put("acos_float", (m, in, p) -> in[0].acos());
    t.put("atan_float", (m, in, p) -> in[0].atan());
    t.put("sinh_float", (m, in, p) -> in[0].sinh());
    t.put("cosh_float", (m, in, p) -> in[0].cosh());
    t.put("tanh_float", (m, in, p) -> in[0].tanh());
    t.put("tanh_double", (m, in, p) -> in[0].tanh());
    t.put("erf_float", (m, in, p) -> in[0].erf());
    t.put("erfinv_float", (m, in, p) -> in[0].erfinv());
    t.put("asinh_float", (m, in, p) -> in[0].asinh());
    t.put("acosh_float", (m, in, p) -> in[0].acosh());
    t.put("atanh_float", (m, in, p) -> in[0].atanh());
    t.put("lgamma_float", (m, in, p) -> in[0].lgamma());
    t.put("atan2_float", (m, in, p) -> in[0].atan2(in[1]));
    t.put("xlogy_float", (m, in, p) -> in[0].xlogy(in[1]));
    t.put("copy_float", (m, in, p) -> in[0].copy());
    t.put("copy_strings", (m, in, p) -> in[0].copy());
    t.put("reciprocal_float", (m, in, p) -> in[0].reciprocal());
    t.put("isNaN_special", (m, in, p) -> in[0].isNaN());
    t.put("isInf_special", (m, in, p) -> in[0].isInf());
    t.put("clip_float", (m, in, p) -> in[0].clip(p.num("min"), p.num("max")));
    t.put("clip_int32", (m, in, p) -> in[0].clip(p.num("min"), p.num("max")));
    // Activations.
    t.put("relu_float", (m, in, p) -> in[0].relu());
    t.put("relu_int32", (m, in, p) -> in[0].relu());
    t.put("relu6_float", (m, in, p) -> in[0].relu6());
    t.put("sigmoid_float", (m, in, p) -> in[0].sigmoid());
    t.put("softmax_last_axis", (m, in, p) -> in[0].softmax());
    t.put("softmax_axis0", (m, in, p) -> in[0].softmax(p.i("axis")));
    t.put("softmax_rank3_axis1", (m, in, p) -> in[0].softmax(p.i("axis")));
    t.put("logSoftmax_last_axis", (m, in, p) -> in[0].logSoftmax());
    t.put("logSoftmax_axis0", (m, in, p) -> in[0].logSoftmax(p.i("axis")));
    t.put("gelu_exact", (m, in, p) -> in[0].gelu());
    t.put("gelu_approximate", (m, in, p) -> in[0].gelu(true));
    t.put("gelu_double", (m, in, p) -> in[0].gelu(false));
    t.put("gelu_double_approximate", (m, in, p) -> in[0].gelu(true));
    t.put("elu_float", (m, in, p) -> in[0].elu());
    t.put("elu_alpha", (m, in, p) -> in[0].elu(p.f("alpha")));
    t.put("softsign_float", (m, in, p) -> in[0].softsign());
    t.put("selu_float", (m, in, p) -> in[0].selu());
    t.put("softplus_float", (m, in, p) -> in[0].softplus());
    t.put("leakyRelu_default", (m, in, p) -> in[0].leakyRelu());
    t.put("leakyRelu_alpha", (m, in, p) -> in[0].leakyRelu(p.f("alpha")));
    // Reductions.
    t.put("sum_all", (m, in, p) -> in[0].sum());
    t.put("sum_axis1", (m, in, p) -> in[0].sum(p.ints("axes")));
    t.put("sum_axes_keepdims", (m, in, p) -> in[0].sum(p.ints("axes"), true));
    t.put("sum_negative_axis", (m, in, p) -> in[0].sum(p.ints("axes")));
    t.put("sum_int32", (m, in, p) -> in[0].sum(p.ints("axes")));
    t.put("sum_empty", (m, in, p) -> in[0].sum());
    t.put("sum_empty_axis0", (m, in, p) -> in[0].sum(p.ints("axes"), false));
    t.put("mean_all", (m, in, p) -> in[0].mean());
    t.put("mean_axis0", (m, in, p) -> in[0].mean(p.ints("axes")));
    t.put("mean_int32_truncates", (m, in, p) -> in[0].mean(p.ints("axes")));
    t.put("mean_keepdims", (m, in, p) -> in[0].mean(p.ints("axes"), true));
    t.put("max_all", (m, in, p) -> in[0].max());
    t.put("max_axes", (m, in, p) -> in[0].max(p.ints("axes")));
    t.put("max_int64", (m, in, p) -> in[0].max(p.ints("axes")));
    t.put("min_all", (m, in, p) -> in[0].min());
    t.put("min_keepdims", (m, in, p) -> in[0].min(p.ints("axes"), true));
    t.put("prod_all", (m, in, p) -> in[0].prod());
    t.put("prod_axis1", (m, in, p) -> in[0].prod(p.ints("axes")));
    t.put("all_all", (m, in, p) -> in[0].all());
    t.put("all_axis0", (m, in, p) -> in[0].all(p.ints("axes")));
    t.put("all_empty", (m, in, p) -> in[0].all());
    t.put("any_all", (m, in, p) -> in[0].any());
    t.put("any_axis1_keepdims", (m, in, p) -> in[0].any(p.ints("axes"), true));
    // Indices, top-k, sorting.
    t.put("cumSum_axis1", (m, in, p) -> in[0].cumSum(p.i("axis")));
    t.put("cumSum_int32_last", (m, in, p) -> in[0].cumSum(p.i("axis")));
    t.put("cumProd_axis0", (m, in, p) -> in[0].cumProd(p.i("axis")));
    t.put("cumProd_int64", (m, in, p) -> in[0].cumProd(p.i("axis")));
    t.put("norm_p2_axis1", (m, in, p) -> in[0].norm(2, p.ints("axes"), false));
    t.put("norm_p1_keepdims", (m, in, p) -> in[0].norm(1, p.ints("axes"), true));
    t.put("norm_p0", (m, in, p) -> in[0].norm(0, p.ints("axes"), false));
    t.put("norm_inf", (m, in, p) -> in[0].norm(Double.POSITIVE_INFINITY, p.ints("axes"), false));
    t.put("norm_negInf", (m, in, p) ->
        in[0].norm(Double.NEGATIVE_INFINITY, p.ints("axes"), false));
    t.put("norm_p3", (m, in, p) -> in[0].norm(3, p.ints("axes"), false));
    for (String name : new String[] {"percentile_all", "percentile_axes_0_2",
        "percentile_axis1_q0"}) {
      t.put(name, (m, in, p) -> in[0].percentile(p.d("q"), p.ints("axes")));
    }
    t.put("diff_once_last", (m, in, p) -> in[0].diff(p.i("n"), p.i("axis")));
    t.put("diff_twice_axis0_int32", (m, in, p) -> in[0].diff(p.i("n"), p.i("axis")));
    t.put("argMax_axis1", (m, in, p) -> in[0].argMax(p.i("axis")));
    t.put("argMax_all", (m, in, p) -> in[0].argMax());
    t.put("argMax_int32_axis0", (m, in, p) -> in[0].argMax(p.i("axis")));
    t.put("argMin_axis0", (m, in, p) -> in[0].argMin(p.i("axis")));
    t.put("argMin_all", (m, in, p) -> in[0].argMin());
    t.put("topK_float", (m, in, p) -> in[0].topK(p.i("k")));
    t.put("topK_int32", (m, in, p) -> in[0].topK(p.i("k")));
    for (String name : new String[] {"topK_smallest_int32", "topK_smallest_uint8",
        "topK_smallest_float_axis0", "topK_largest_axis0", "topK_largest_rank3_axis1"}) {
      t.put(name, (m, in, p) -> in[0].topK(p.i("k"), p.i("axis"), p.flag("largest"),
          p.flag("sorted")));
    }
    t.put("sort_ascending", (m, in, p) -> in[0].sort());
    t.put("sort_descending", (m, in, p) -> in[0].sort(p.i("axis"), true));
    t.put("sort_axis0", (m, in, p) -> in[0].sort(p.i("axis"), false));
    t.put("sort_rank3_axis1_descending", (m, in, p) -> in[0].sort(p.i("axis"), true));
    t.put("sort_int32_ascending", (m, in, p) -> in[0].sort());
    t.put("sort_uint8_ascending", (m, in, p) -> in[0].sort());
    t.put("sort_empty", (m, in, p) -> in[0].sort());
    t.put("argSort_ascending", (m, in, p) -> in[0].argSort());
    t.put("argSort_descending", (m, in, p) -> in[0].argSort(p.i("axis"), true));
    t.put("argSort_axis0", (m, in, p) -> in[0].argSort(p.i("axis"), false));
    t.put("argSort_int32", (m, in, p) -> in[0].argSort());
    t.put("argSort_uint8", (m, in, p) -> in[0].argSort());
    // Matrix products.
    for (String name : new String[] {"matMul_vector_matrix", "matMul_matrix_vector",
        "matMul_vector_vector", "matMul_batch_vector"}) {
      t.put(name, (m, in, p) -> in[0].matMul(in[1]));
    }
    t.put("inverse_batch", (m, in, p) -> in[0].inverse());
    t.put("diagonal_main", (m, in, p) -> in[0].diagonal(p.i("offset")));
    t.put("diagonal_above", (m, in, p) -> in[0].diagonal(p.i("offset")));
    t.put("diagonal_axes_2_0", (m, in, p) -> in[0].diagonal(p.i("offset"), p.i("axis1"),
        p.i("axis2")));
    t.put("diagonal_below_int32", (m, in, p) -> in[0].diagonal(p.i("offset")));
    t.put("matMul_plain", (m, in, p) -> in[0].matMul(in[1]));
    t.put("matMul_transposeA", (m, in, p) -> in[0].matMul(in[1], true, false));
    t.put("matMul_transposeB", (m, in, p) -> in[0].matMul(in[1], false, true));
    t.put("matMul_int32", (m, in, p) -> in[0].matMul(in[1]));
    t.put("matMul_batch", (m, in, p) -> in[0].matMul(in[1]));
    t.put("matMul_empty", (m, in, p) -> in[0].matMul(in[1]));
    t.put("batchMatMul_plain", (m, in, p) -> in[0].batchMatMul(in[1]));
    t.put("batchMatMul_broadcast", (m, in, p) -> in[0].batchMatMul(in[1]));
    t.put("batchMatMul_adjoint", (m, in, p) -> in[0].batchMatMul(in[1], true, true));
    // Shapes, indexing, combining.
    t.put("reshape_infer", (m, in, p) -> in[0].reshape(p.longs("shape")));
    t.put("reshape_scalar", (m, in, p) -> in[0].reshape(p.longs("shape")));
    t.put("reshape_empty", (m, in, p) -> in[0].reshape(p.longs("shape")));
    t.put("flatten_rank3", (m, in, p) -> in[0].flatten());
    for (String name : new String[] {"flatten_axes_1_2", "flatten_axes_0_minus2",
        "flatten_axes_minus1_minus1"}) {
      t.put(name, (m, in, p) -> in[0].flatten(p.i("first"), p.i("last")));
    }
    t.put("flip_axes", (m, in, p) -> in[0].flip(p.ints("axes")));
    t.put("flip_last_strings", (m, in, p) -> in[0].flip(p.ints("axes")));
    for (String name : new String[] {"rot90_k1", "rot90_k2", "rot90_k3", "rot90_kminus1"}) {
      t.put(name, (m, in, p) -> in[0].rot90(p.i("k"), p.ints("axes")[0], p.ints("axes")[1]));
    }
    t.put("repeat_axis1", (m, in, p) -> in[0].repeat(p.i("repeats"), p.i("axis")));
    t.put("repeat_strings_last", (m, in, p) -> in[0].repeat(p.i("repeats"), p.i("axis")));
    t.put("transpose_default", (m, in, p) -> in[0].transpose());
    t.put("transpose_perm", (m, in, p) -> in[0].transpose(p.ints("perm")));
    t.put("transpose_strings", (m, in, p) -> in[0].transpose());
    t.put("squeeze_all", (m, in, p) -> in[0].squeeze());
    t.put("squeeze_axes", (m, in, p) -> in[0].squeeze(p.ints("axes")));
    t.put("expandDims_axis1", (m, in, p) -> in[0].expandDims(p.i("axis")));
    t.put("expandDims_negative", (m, in, p) -> in[0].expandDims(p.i("axis")));
    t.put("concat_axis0", (m, in, p) -> in[0].concat(p.i("axis"), in[1]));
    t.put("concat_three_axis1", (m, in, p) -> in[0].concat(p.i("axis"), in[1], in[2]));
    t.put("concat_empty", (m, in, p) -> in[0].concat(p.i("axis"), in[1]));
    t.put("concat_strings", (m, in, p) -> in[0].concat(p.i("axis"), in[1]));
    t.put("stack_axis0", (m, in, p) -> in[0].stack(p.i("axis"), in[1]));
    t.put("stack_three_axis1", (m, in, p) -> in[0].stack(p.i("axis"), in[1], in[2]));
    t.put("split_equal", (m, in, p) -> in[0].split(p.i("parts"), p.i("axis")));
    t.put("split_equal_rows", (m, in, p) -> in[0].split(p.i("parts"), p.i("axis")));
    t.put("split_sizes", (m, in, p) -> in[0].split(p.longs("sizes"), p.i("axis")));
    t.put("slice_block", (m, in, p) -> in[0].slice(p.longs("begin"), p.longs("size")));
    t.put("slice_empty", (m, in, p) -> in[0].slice(p.longs("begin"), p.longs("size")));
    t.put("gather_axis0", (m, in, p) -> in[0].gather(in[1]));
    t.put("gather_axis1", (m, in, p) -> in[0].gather(in[1], p.i("axis")));
    t.put("gather_strings", (m, in, p) -> in[0].gather(in[1]));
    t.put("tile_rows", (m, in, p) -> in[0].tile(p.longs("repeats")));
    t.put("tile_both", (m, in, p) -> in[0].tile(p.longs("repeats")));
    t.put("tile_fewer_repeats", (m, in, p) -> in[0].tile(p.longs("repeats")));
    t.put("tile_more_repeats", (m, in, p) -> in[0].tile(p.longs("repeats")));
    t.put("pad_zeros", (m, in, p) -> in[0].pad(p.pairs("paddings")));
    t.put("pad_value", (m, in, p) -> in[0].pad(p.pairs("paddings"), p.num("value")));
    t.put("pad_empty", (m, in, p) -> in[0].pad(p.pairs("paddings")));
    t.put("oneHot_default", (m, in, p) -> in[0].oneHot(p.i("depth")));
    t.put("oneHot_values", (m, in, p) ->
        in[0].oneHot(p.i("depth"), p.num("on"), p.num("off"), DataType.INT64));
    t.put("oneHot_float_indices", (m, in, p) -> in[0].oneHot(p.i("depth")));
    t.put("oneHot_int16_indices", (m, in, p) -> in[0].oneHot(p.i("depth")));
    t.put("sequenceMask_int_lengths", (m, in, p) -> in[0].sequenceMask(in[1], p.num("value")));
    t.put("sequenceMask_float_lengths", (m, in, p) ->
        in[0].sequenceMask(in[1], p.num("value")));
    t.put("cast_float_to_int32", (m, in, p) -> in[0].cast(DataType.INT32));
    t.put("cast_int32_to_float", (m, in, p) -> in[0].cast(DataType.FLOAT));
    t.put("cast_float_to_bool", (m, in, p) -> in[0].cast(DataType.BOOL));
    t.put("cast_float_to_half", (m, in, p) -> in[0].cast(DataType.HALF));
    t.put("cast_int64_to_uint8", (m, in, p) -> in[0].cast(DataType.UINT8));
    t.put("cast_double_to_float", (m, in, p) -> in[0].cast(DataType.FLOAT));
    t.put("where_select", (m, in, p) -> in[0].where(in[1], in[2]));
    t.put("where_select_broadcast", (m, in, p) -> in[0].where(in[1], in[2]));
    t.put("where_indices", (m, in, p) -> in[0].where());
    t.put("where_indices_nonzero", (m, in, p) -> in[0].where());
    t.put("where_indices_none", (m, in, p) -> in[0].where());
    t.put("broadcastTo_rows", (m, in, p) -> in[0].broadcastTo(p.longs("shape")));
    t.put("broadcastTo_rank3", (m, in, p) -> in[0].broadcastTo(p.longs("shape")));
    // Creation.
    t.put("zeros_float", (m, in, p) -> m.zeros(DataType.FLOAT, p.longs("shape")));
    t.put("zeros_int64", (m, in, p) -> m.zeros(DataType.INT64, p.longs("shape")));
    t.put("zeros_empty", (m, in, p) -> m.zeros(DataType.FLOAT, p.longs("shape")));
    t.put("ones_float", (m, in, p) -> m.ones(DataType.FLOAT, p.longs("shape")));
    t.put("ones_bool", (m, in, p) -> m.ones(DataType.BOOL, p.longs("shape")));
    t.put("ones_uint8", (m, in, p) -> m.ones(DataType.UINT8, p.longs("shape")));
    t.put("full_float", (m, in, p) -> m.full(DataType.FLOAT, p.num("value"), p.longs("shape")));
    t.put("full_int32", (m, in, p) -> m.full(DataType.INT32, p.num("value"), p.longs("shape")));
    t.put("full_scalar", (m, in, p) -> m.full(DataType.DOUBLE, p.num("value"), p.longs("shape")));
    t.put("arange_stop", (m, in, p) -> m.arange(p.i("stop")));
    t.put("arange_int", (m, in, p) -> m.arange(p.i("start"), p.i("stop"), p.i("step")));
    t.put("arange_float", (m, in, p) -> m.arange(p.f("start"), p.f("stop"), p.f("step")));
    t.put("arange_empty", (m, in, p) -> m.arange(p.i("start"), p.i("stop"), p.i("step")));
    t.put("linspace_five", (m, in, p) -> m.linspace(p.f("start"), p.f("stop"), p.i("num")));
    t.put("linspace_negative", (m, in, p) -> m.linspace(p.f("start"), p.f("stop"), p.i("num")));
    t.put("eye_square", (m, in, p) -> m.eye(p.i("n")));
    t.put("eye_rect_int32", (m, in, p) -> m.eye(p.i("rows"), p.i("cols"), DataType.INT32));
    t.put("randomUniform_unit", (m, in, p) ->
        m.randomUniform(p.longs("seed"), 0, 1, DataType.FLOAT, p.longs("shape")));
    t.put("randomUniform_range", (m, in, p) -> m.randomUniform(p.longs("seed"), p.d("low"),
        p.d("high"), DataType.FLOAT, p.longs("shape")));
    t.put("randomUniform_double", (m, in, p) -> m.randomUniform(p.longs("seed"), p.d("low"),
        p.d("high"), DataType.DOUBLE, p.longs("shape")));
    t.put("randomNormal_standard", (m, in, p) ->
        m.randomNormal(p.longs("seed"), 0, 1, DataType.FLOAT, p.longs("shape")));
    t.put("randomNormal_mean_stddev", (m, in, p) -> m.randomNormal(p.longs("seed"),
        p.d("mean"), p.d("stddev"), DataType.FLOAT, p.longs("shape")));
    // Images: decoding from an NDArray of bytes, and from byte[] through NDManager.
    t.put("decodePng_rgb", (m, in, p) -> in[0].decodePng(p.i("channels")));
    t.put("decodePng_as_encoded", (m, in, p) ->
        m.decodePng(in[0].toBytesArray()[0], p.i("channels")));
    t.put("decodePng_gray_to_rgb", (m, in, p) -> in[0].decodePng(p.i("channels")));
    t.put("decodeJpeg_rgb", (m, in, p) -> in[0].decodeJpeg(p.i("channels")));
    t.put("decodeJpeg_rgb_to_gray", (m, in, p) ->
        m.decodeJpeg(in[0].toBytesArray()[0], p.i("channels")));
    t.put("decodeJpeg_gray", (m, in, p) -> in[0].decodeJpeg(p.i("channels")));
    t.put("decodeImage_png", (m, in, p) -> in[0].decodeImage(p.i("channels")));
    t.put("decodeImage_jpeg", (m, in, p) ->
        m.decodeImage(in[0].toBytesArray()[0], p.i("channels")));
    t.put("resize_bilinear_up", (m, in, p) ->
        in[0].resize(p.i("height"), p.i("width"), ResizeMethod.BILINEAR));
    t.put("resize_bilinear_down", (m, in, p) ->
        in[0].resize(p.i("height"), p.i("width"), ResizeMethod.BILINEAR));
    t.put("resize_bilinear_batch", (m, in, p) ->
        in[0].resize(p.i("height"), p.i("width"), ResizeMethod.BILINEAR));
    t.put("resize_nearest_up", (m, in, p) ->
        in[0].resize(p.i("height"), p.i("width"), ResizeMethod.NEAREST));
    t.put("resize_nearest_down", (m, in, p) ->
        in[0].resize(p.i("height"), p.i("width"), ResizeMethod.NEAREST));
    t.put("resize_area_down", (m, in, p) ->
        in[0].resize(p.i("height"), p.i("width"), ResizeMethod.AREA));
    t.put("resize_bicubic_up", (m, in, p) ->
        in[0].resize(p.i("height"), p.i("width"), ResizeMethod.BICUBIC));
    for (String method : new String[] {"bilinear", "nearest", "bicubic", "area"}) {
      t.put("resize_" + method + "_v1", (m, in, p) -> in[0].resize(p.i("height"), p.i("width"),
          ResizeMethod.valueOf(p.s("method").toUpperCase(java.util.Locale.ROOT)), false));
    }
    t.put("convertImageDtype_uint8_to_float", (m, in, p) ->
        in[0].convertImageDtype(DataType.FLOAT));
    t.put("convertImageDtype_float_to_uint8", (m, in, p) ->
        in[0].convertImageDtype(DataType.UINT8));
    t.put("convertImageDtype_uint8_to_int16", (m, in, p) ->
        in[0].convertImageDtype(DataType.INT16));
    t.put("convertImageDtype_int32_to_uint8", (m, in, p) ->
        in[0].convertImageDtype(DataType.UINT8));
    t.put("convertImageDtype_float_to_double", (m, in, p) ->
        in[0].convertImageDtype(DataType.DOUBLE));
    // Strings.
    t.put("split_whitespace", (m, in, p) -> in[0].split(p.s("separator")));
    t.put("split_separator", (m, in, p) -> in[0].split(p.s("separator")));
    t.put("split_maxsplit", (m, in, p) -> in[0].split(p.s("separator"), p.i("maxSplit")));
    t.put("split_scalar", (m, in, p) -> in[0].split(p.s("separator")));
    t.put("lower_ascii", (m, in, p) -> in[0].lower());
    t.put("upper_ascii", (m, in, p) -> in[0].upper());
    t.put("regexReplace_global", (m, in, p) ->
        in[0].regexReplace(p.s("pattern"), p.s("rewrite")));
    t.put("regexReplace_groups_first", (m, in, p) ->
        in[0].regexReplace(p.s("pattern"), p.s("rewrite"), false));
    t.put("toNumber_float", (m, in, p) -> in[0].toNumber(DataType.FLOAT));
    t.put("toNumber_double", (m, in, p) -> in[0].toNumber(DataType.DOUBLE));
    t.put("toNumber_int32", (m, in, p) -> in[0].toNumber(DataType.INT32));
    t.put("toNumber_int64", (m, in, p) -> in[0].toNumber(DataType.INT64));
    t.put("stringLength_bytes", (m, in, p) -> in[0].stringLength());
    t.put("join_elementwise", (m, in, p) -> in[0].join(p.s("separator"), in[1]));
    t.put("join_broadcast", (m, in, p) -> in[0].join(p.s("separator"), in[1], in[2]));
    t.put("reduceJoin_all", (m, in, p) -> in[0].reduceJoin(p.s("separator")));
    t.put("reduceJoin_axis", (m, in, p) -> in[0].reduceJoin(p.i("axis"), p.s("separator")));
    // Creation: typed ranges, offset diagonals, more stateless samplers.
    t.put("arange_dtype_int64", (m, in, p) -> m.arange(DataType.INT64, p.num("start"),
        p.num("stop"), p.num("step")));
    t.put("arange_dtype_double", (m, in, p) -> m.arange(DataType.DOUBLE, p.num("start"),
        p.num("stop"), p.num("step")));
    t.put("eye_offset_above", (m, in, p) ->
        m.eye(p.i("rows"), p.i("cols"), p.i("k"), DataType.FLOAT));
    t.put("eye_offset_below_int64", (m, in, p) ->
        m.eye(p.i("rows"), p.i("cols"), p.i("k"), DataType.INT64));
    t.put("eye_offset_outside", (m, in, p) ->
        m.eye(p.i("rows"), p.i("cols"), p.i("k"), DataType.FLOAT));
    t.put("randomInteger_int32", (m, in, p) -> m.randomInteger(p.longs("seed"),
        p.num("low").longValue(), p.num("high").longValue(), DataType.INT32, p.longs("shape")));
    t.put("randomInteger_int64", (m, in, p) -> m.randomInteger(p.longs("seed"),
        p.num("low").longValue(), p.num("high").longValue(), DataType.INT64, p.longs("shape")));
    t.put("truncatedNormal_float", (m, in, p) -> m.truncatedNormal(p.longs("seed"),
        p.d("mean"), p.d("stddev"), DataType.FLOAT, p.longs("shape")));
    t.put("truncatedNormal_double", (m, in, p) -> m.truncatedNormal(p.longs("seed"),
        p.d("mean"), p.d("stddev"), DataType.DOUBLE, p.longs("shape")));
    t.put("randomPoisson_float", (m, in, p) ->
        m.randomPoisson(p.longs("seed"), in[0], DataType.FLOAT, p.longs("shape")));
    t.put("randomPoisson_int64", (m, in, p) ->
        m.randomPoisson(p.longs("seed"), in[0], DataType.INT64, p.longs("shape")));
    t.put("randomGamma_float", (m, in, p) ->
        m.randomGamma(p.longs("seed"), in[0], p.longs("shape")));
    t.put("randomGamma_double", (m, in, p) ->
        m.randomGamma(p.longs("seed"), in[0], p.longs("shape")));
    // Gathers, scatters, strided slices, unique, reflection.
    t.put("unstack_axis1", (m, in, p) -> in[0].unstack(p.i("axis")));
    t.put("unstack_strings_last", (m, in, p) -> in[0].unstack(p.i("axis")));
    t.put("gather_batch_dims", (m, in, p) -> in[0].gather(in[1], p.i("axis"), p.i("batchDims")));
    t.put("gather_batch_dims_rows", (m, in, p) ->
        in[0].gather(in[1], p.i("axis"), p.i("batchDims")));
    t.put("gatherNd_elements", (m, in, p) -> in[0].gatherNd(in[1]));
    t.put("gatherNd_slices", (m, in, p) -> in[0].gatherNd(in[1]));
    t.put("gatherNd_strings", (m, in, p) -> in[0].gatherNd(in[1]));
    t.put("tensorScatterUpdate_elements", (m, in, p) -> in[0].tensorScatterUpdate(in[1], in[2]));
    t.put("tensorScatterUpdate_rows", (m, in, p) -> in[0].tensorScatterUpdate(in[1], in[2]));
    t.put("stridedSlice_reversed_steps", (m, in, p) ->
        in[0].stridedSlice(p.longs("begin"), p.longs("end"), p.longs("strides")));
    for (String name : new String[] {"shrink_and_new_axis", "begin_end_masks"}) {
      t.put("stridedSlice_" + name, (m, in, p) -> in[0].stridedSlice(p.longs("begin"),
          p.longs("end"), p.longs("strides"), p.i("beginMask"), p.i("endMask"),
          p.i("shrinkAxisMask"), p.i("newAxisMask")));
    }
    for (String name : new String[] {"every_other_column", "int32_reversed"}) {
      t.put("stridedSliceUpdate_" + name, (m, in, p) -> in[0].stridedSliceUpdate(
          p.longs("begin"), p.longs("end"), p.longs("strides"), in[1]));
    }
    for (String name : new String[] {"vector", "rows", "columns", "strings"}) {
      t.put("uniqueWithCounts_" + name, (m, in, p) -> in[0].uniqueWithCounts(p.i("axis")));
    }
    t.put("padReflect_matrix", (m, in, p) -> in[0].padReflect(p.pairs("paddings")));
    t.put("padReflect_int32_last", (m, in, p) -> in[0].padReflect(p.pairs("paddings")));
    // Complex numbers.
    t.put("complex_float", (m, in, p) -> in[0].complex(in[1]));
    t.put("complex_double_broadcast", (m, in, p) -> in[0].complex(in[1]));
    t.put("real_complex64", (m, in, p) -> in[0].real());
    t.put("real_complex128", (m, in, p) -> in[0].real());
    t.put("imag_complex64", (m, in, p) -> in[0].imag());
    t.put("imag_complex128", (m, in, p) -> in[0].imag());
    t.put("conj_complex64", (m, in, p) -> in[0].conj());
    t.put("conj_complex128", (m, in, p) -> in[0].conj());
    t.put("conj_real_copied", (m, in, p) -> in[0].conj());
    // Fourier transforms and frames (Signal).
    for (String name : new String[] {"last_axis", "axis0_padded", "cropped_double"}) {
      t.put("fft_" + name, (m, in, p) -> Signal.fft(in[0], p.i("length"), p.i("axis")));
      t.put("ifft_" + name, (m, in, p) -> Signal.ifft(in[0], p.i("length"), p.i("axis")));
    }
    for (String name : new String[] {"last_axis_padded", "axis0_cropped_double"}) {
      t.put("rfft_" + name, (m, in, p) -> Signal.rfft(in[0], p.i("length"), p.i("axis")));
    }
    for (String name : new String[] {"last_axis", "axis0_padded_double", "cropped"}) {
      t.put("irfft_" + name, (m, in, p) -> Signal.irfft(in[0], p.i("length"), p.i("axis")));
    }
    for (String name : new String[] {"overlapping", "int32_exact", "too_short"}) {
      t.put("frame_" + name, (m, in, p) ->
          Signal.frame(in[0], p.i("frameLength"), p.i("frameStep")));
    }
    // Images: antialiased and corner-aligned resizing, colour adjustments.
    for (String name : new String[] {"bilinear_down", "bilinear_up", "bicubic_down",
        "bicubic_up", "area"}) {
      t.put("resizeAntialiased_" + name, (m, in, p) -> in[0].resizeAntialiased(p.i("height"),
          p.i("width"), ResizeMethod.valueOf(p.s("method").toUpperCase(java.util.Locale.ROOT))));
    }
    for (String name : new String[] {"bilinear", "bicubic", "nearest", "bilinear_up"}) {
      t.put("resizeAlignCorners_" + name, (m, in, p) -> in[0].resizeAlignCorners(p.i("height"),
          p.i("width"), ResizeMethod.valueOf(p.s("method").toUpperCase(java.util.Locale.ROOT))));
    }
    t.put("adjustHue_quarter_turn", (m, in, p) -> in[0].adjustHue(p.f("delta")));
    t.put("adjustHue_batch_negative", (m, in, p) -> in[0].adjustHue(p.f("delta")));
    t.put("adjustSaturation_more", (m, in, p) -> in[0].adjustSaturation(p.f("factor")));
    t.put("adjustSaturation_grey", (m, in, p) -> in[0].adjustSaturation(p.f("factor")));
    t.put("adjustContrast_less", (m, in, p) -> in[0].adjustContrast(p.f("factor")));
    t.put("adjustContrast_batch", (m, in, p) -> in[0].adjustContrast(p.f("factor")));
    // Layers (Nn).
    for (String name : new String[] {"2d_strided", "1d", "2d_dilated", "3d"}) {
      t.put("convolution_" + name, (m, in, p) ->
          Nn.convolution(in[0], in[1], p.longs("strides"), p.longs("dilations")));
    }
    for (String name : new String[] {"2d_extra_row", "1d", "2d_dilated", "3d"}) {
      t.put("convolutionTranspose_" + name, (m, in, p) -> Nn.convolutionTranspose(in[0], in[1],
          p.longs("outputShape"), p.longs("strides"), p.longs("dilations")));
    }
    for (String name : new String[] {"2d", "1d", "3d"}) {
      t.put("maxPool_" + name, (m, in, p) ->
          Nn.maxPool(in[0], p.longs("windows"), p.longs("strides")));
      t.put("avgPool_" + name, (m, in, p) ->
          Nn.avgPool(in[0], p.longs("windows"), p.longs("strides")));
    }
    t.put("biasAdd_rank3", (m, in, p) -> Nn.biasAdd(in[0], in[1]));
    t.put("biasAdd_int32", (m, in, p) -> Nn.biasAdd(in[0], in[1]));
    t.put("blockLstm_three_steps", (m, in, p) -> Nn.blockLstm(in[0], in[1], in[2], in[3], in[4]));
    return t;
  }
}
