package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.modality.cv.Image;
import ai.djl.modality.cv.util.NDImageUtils;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tfjni.TestModels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * DJL's NDArray API on tfjni against TensorFlow Python: the cases of eager_cases.json
 * (scripts/goldens/generate_eager_cases.py) whose DJL operation means the same as the TensorFlow op the
 * case ran, each compared byte for byte (within 1e-6 where the generator marks the case
 * tolerant, with its reason).
 */
class EagerCasesTest {

  /** One DJL call per case: inputs from the case, its params. */
  @FunctionalInterface
  interface DjlOp {
    NDArray apply(NDManager m, NDArray[] in, JsonNode p);
  }

  private static final Map<String, DjlOp> OPS = new LinkedHashMap<>();

  /** An array-array op, or array-number when the case has one input and a "value". */
  private static void binary(String prefix, java.util.function.BinaryOperator<NDArray> f,
      java.util.function.BiFunction<NDArray, Number, NDArray> withNumber) {
    OPS.put(prefix, (m, in, p) -> {
      if (in.length == 1) {
        JsonNode v = p.get("value");
        return withNumber.apply(in[0], v.isIntegralNumber() ? (Number) v.asLong()
            : (Number) v.asDouble());
      }
      return f.apply(in[0], in[1]);
    });
  }

  private static void unary(String prefix, java.util.function.UnaryOperator<NDArray> f) {
    OPS.put(prefix, (m, in, p) -> f.apply(in[0]));
  }

  private static int[] ints(JsonNode array) {
    int[] out = new int[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asInt();
    }
    return out;
  }

  private static long[] longs(JsonNode array) {
    long[] out = new long[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asLong();
    }
    return out;
  }

  static {
    binary("add", NDArray::add, NDArray::add);
    binary("sub", NDArray::sub, NDArray::sub);
    binary("mul", NDArray::mul, NDArray::mul);
    binary("div", NDArray::div, NDArray::div);
    binary("mod", NDArray::mod, NDArray::mod);
    binary("pow", NDArray::pow, NDArray::pow);
    binary("maximum", NDArray::maximum, NDArray::maximum);
    binary("minimum", NDArray::minimum, NDArray::minimum);
    binary("eq", NDArray::eq, NDArray::eq);
    binary("neq", NDArray::neq, NDArray::neq);
    binary("gt", NDArray::gt, NDArray::gt);
    binary("gte", NDArray::gte, NDArray::gte);
    binary("lt", NDArray::lt, NDArray::lt);
    binary("lte", NDArray::lte, NDArray::lte);
    binary("logicalAnd", NDArray::logicalAnd, null);
    binary("logicalOr", NDArray::logicalOr, null);
    binary("logicalXor", NDArray::logicalXor, null);
    unary("logicalNot", NDArray::logicalNot);
    unary("exp", NDArray::exp);
    unary("log", NDArray::log);
    unary("log10", NDArray::log10);
    unary("log2", NDArray::log2);
    unary("cbrt", NDArray::cbrt);
    unary("sqrt", NDArray::sqrt);
    unary("square", NDArray::square);
    unary("abs", NDArray::abs);
    unary("neg", NDArray::neg);
    unary("sign", NDArray::sign);
    unary("floor", NDArray::floor);
    unary("ceil", NDArray::ceil);
    unary("trunc", NDArray::trunc);
    unary("round", NDArray::round);
    unary("sin", NDArray::sin);
    unary("cos", NDArray::cos);
    unary("tan", NDArray::tan);
    unary("asin", NDArray::asin);
    unary("acos", NDArray::acos);
    unary("atan", NDArray::atan);
    unary("sinh", NDArray::sinh);
    unary("cosh", NDArray::cosh);
    unary("tanh", NDArray::tanh);
    unary("erf", NDArray::erf);
    unary("erfinv", NDArray::erfinv);
    unary("asinh", NDArray::asinh);
    unary("acosh", NDArray::acosh);
    unary("atanh", NDArray::atanh);
    unary("lgamma", NDArray::gammaln);
    binary("atan2", NDArray::atan2, null);
    binary("xlogy", NDArray::xlogy, null);
    unary("copy", NDArray::duplicate);
    unary("softsign", Activation::softSign);
    unary("inverse", NDArray::inverse);
    OPS.put("cumSum", (m, in, p) -> in[0].cumSum(p.get("axis").asInt()));
    OPS.put("cumProd", (m, in, p) -> in[0].cumProd(p.get("axis").asInt()));
    OPS.put("flip", (m, in, p) -> in[0].flip(ints(p.get("axes"))));
    OPS.put("diagonal", (m, in, p) -> in[0].diagonal(p.get("offset").asInt(),
        p.path("axis1").asInt(0), p.path("axis2").asInt(1)));
    unary("isNaN", NDArray::isNaN);
    unary("isInf", NDArray::isInfinite);
    unary("relu", Activation::relu);
    unary("sigmoid", Activation::sigmoid);
    unary("softplus", Activation::softPlus);
    unary("selu", Activation::selu);
    unary("elu", a -> Activation.elu(a, 1f));
    OPS.put("elu_alpha", (m, in, p) -> Activation.elu(in[0], (float) p.get("alpha").asDouble()));
    unary("gelu_exact", Activation::gelu);
    OPS.put("leakyRelu_default", (m, in, p) -> Activation.leakyRelu(in[0], 0.2f));
    OPS.put("leakyRelu_alpha", (m, in, p) -> Activation.leakyRelu(in[0],
        (float) p.get("alpha").asDouble()));
    OPS.put("clip", (m, in, p) -> in[0].getDataType().isFloating()
        ? in[0].clip(p.get("min").asDouble(), p.get("max").asDouble())
        : in[0].clip(p.get("min").asInt(), p.get("max").asInt()));
    OPS.put("softmax", (m, in, p) -> in[0].softmax(p.path("axis").asInt(-1)));
    OPS.put("logSoftmax", (m, in, p) -> in[0].logSoftmax(p.path("axis").asInt(-1)));
    for (String r : new String[] {"sum", "mean", "max", "min", "prod"}) {
      OPS.put(r, (m, in, p) -> reduce(r, in[0], p));
    }
    OPS.put("argMax", (m, in, p) -> p.has("axis") ? in[0].argMax(p.get("axis").asInt())
        : in[0].argMax());
    OPS.put("argMin", (m, in, p) -> p.has("axis") ? in[0].argMin(p.get("axis").asInt())
        : in[0].argMin());
    OPS.put("matMul_plain", (m, in, p) -> in[0].matMul(in[1]));
    OPS.put("matMul_int32", (m, in, p) -> in[0].matMul(in[1]));
    OPS.put("matMul_batch", (m, in, p) -> in[0].matMul(in[1]));
    OPS.put("batchMatMul_plain", (m, in, p) -> in[0].batchMatMul(in[1]));
    OPS.put("batchMatMul_broadcast", (m, in, p) -> in[0].batchMatMul(in[1]));
    OPS.put("reshape", (m, in, p) -> in[0].reshape(new Shape(longs(p.get("shape")))));
    OPS.put("flatten", (m, in, p) -> p.has("first")
        ? in[0].flatten(p.get("first").asInt(), p.get("last").asInt()) : in[0].flatten());
    OPS.put("transpose_default", (m, in, p) -> in[0].transpose());
    OPS.put("transpose_perm", (m, in, p) -> in[0].transpose(ints(p.get("perm"))));
    OPS.put("squeeze", (m, in, p) -> p.has("axes") ? in[0].squeeze(ints(p.get("axes")))
        : in[0].squeeze());
    OPS.put("expandDims", (m, in, p) -> in[0].expandDims(p.get("axis").asInt()));
    OPS.put("concat", (m, in, p) -> NDArrays.concat(new NDList(in), p.get("axis").asInt()));
    OPS.put("stack", (m, in, p) -> NDArrays.stack(new NDList(in), p.get("axis").asInt()));
    OPS.put("tile", (m, in, p) -> in[0].tile(longs(p.get("repeats"))));
    OPS.put("broadcastTo", (m, in, p) -> in[0].broadcast(new Shape(longs(p.get("shape")))));
    for (String name : new String[] {"oneHot_default", "oneHot_float_indices",
        "oneHot_int16_indices"}) {
      OPS.put(name, (m, in, p) -> in[0].oneHot(p.get("depth").asInt()));
    }
    OPS.put("sequenceMask", (m, in, p) -> in[0].sequenceMask(in[1],
        (float) p.get("value").asDouble()));
    // The p-norms DJL's int order can name (not the infinities).
    OPS.put("norm_p2", (m, in, p) -> in[0].norm(2, ints(p.get("axes")), false));
    OPS.put("norm_p1", (m, in, p) -> in[0].norm(1, ints(p.get("axes")), true));
    OPS.put("norm_p0", (m, in, p) -> in[0].norm(0, ints(p.get("axes")), false));
    OPS.put("norm_p3", (m, in, p) -> in[0].norm(3, ints(p.get("axes")), false));
    OPS.put("where_select", (m, in, p) -> NDArrays.where(in[0], in[1], in[2]));
    OPS.put("zeros", (m, in, p) -> m.zeros(new Shape(longs(p.get("shape"))), outType(p)));
    OPS.put("ones", (m, in, p) -> m.ones(new Shape(longs(p.get("shape"))), outType(p)));
    OPS.put("full", (m, in, p) -> m.full(new Shape(longs(p.get("shape"))),
        (float) p.get("value").asDouble(), outType(p)));
    OPS.put("arange_stop", (m, in, p) -> m.arange(p.get("stop").asInt()));
    OPS.put("arange_int", (m, in, p) -> m.arange(p.get("start").asInt(), p.get("stop").asInt(),
        p.get("step").asInt()));
    OPS.put("arange_float", (m, in, p) -> m.arange((float) p.get("start").asDouble(),
        (float) p.get("stop").asDouble(), (float) p.get("step").asDouble()));
    OPS.put("linspace", (m, in, p) -> m.linspace((float) p.get("start").asDouble(),
        (float) p.get("stop").asDouble(), p.get("num").asInt()));
    OPS.put("eye_square", (m, in, p) -> m.eye(p.get("n").asInt()));
    OPS.put("eye_rect_int32", (m, in, p) -> m.eye(p.get("rows").asInt(), p.get("cols").asInt(),
        0, DataType.INT32));
    OPS.put("resize_bilinear", (m, in, p) -> NDImageUtils.resize(in[0],
        p.get("width").asInt(), p.get("height").asInt(), Image.Interpolation.BILINEAR));
    OPS.put("resize_nearest", (m, in, p) -> NDImageUtils.resize(in[0],
        p.get("width").asInt(), p.get("height").asInt(), Image.Interpolation.NEAREST));
  }

  /** Cases whose DJL meaning differs from the TensorFlow op the generator ran. */
  private static final List<String> DIFFERENT_IN_DJL = List.of(
      // DJL sums and multiplies integers into INT64 (TensorFlow keeps INT32).
      "sum_int32", "prod_axis1", "sum_empty_axis0", "cumSum_int32_last",
      // tf.compat.v1.image.resize's sampling: DJL's resize has half-pixel centers by default.
      "resize_bilinear_v1", "resize_nearest_v1",
      // DJL's full takes a float value: 0.1 cannot reach a FLOAT64 array unrounded.
      "full_scalar");

  /**
   * What a DJL call needs beyond the case's own params, read from TensorFlow Python's output:
   * its dtype (for the creation ops) and whether a reduction kept its axes (the same rank).
   */
  private static final String OUT_DTYPE = "djl_out_dtype";
  private static final String KEEP_DIMS = "djl_keep_dims";

  private static JsonNode paramsOf(JsonNode c) {
    ObjectNode params = c.get("params").deepCopy();
    JsonNode output = c.get("outputs").get(0);
    params.put(OUT_DTYPE, output.get("dtype").asText());
    params.put(KEEP_DIMS, c.get("inputs").size() > 0 && TestModels.shape(output).length
        == TestModels.shape(c.get("inputs").get(0)).length);
    return params;
  }

  private static DataType outType(JsonNode p) {
    return DataTypes.fromTf(TestModels.dataType(p.get(OUT_DTYPE).asText()));
  }

  private static NDArray reduce(String op, NDArray a, JsonNode p) {
    boolean keep = p.get(KEEP_DIMS).asBoolean();
    if (!p.has("axes")) {
      switch (op) {
        case "sum":
          return a.sum();
        case "mean":
          return a.mean();
        case "max":
          return a.max();
        case "min":
          return a.min();
        default:
          return a.prod();
      }
    }
    int[] axes = ints(p.get("axes"));
    switch (op) {
      case "sum":
        return a.sum(axes, keep);
      case "mean":
        return a.mean(axes, keep);
      case "max":
        return a.max(axes, keep);
      case "min":
        return a.min(axes, keep);
      default:
        return a.prod(axes, keep);
    }
  }

  private static DjlOp opFor(String name) {
    DjlOp best = null;
    int bestLength = -1;
    for (Map.Entry<String, DjlOp> e : OPS.entrySet()) {
      String k = e.getKey();
      if ((name.equals(k) || name.startsWith(k + "_")) && k.length() > bestLength) {
        best = e.getValue();
        bestLength = k.length();
      }
    }
    return best;
  }

  private static List<JsonNode> cases() throws IOException {
    JsonNode all = new ObjectMapper().readTree(
        TestModels.dir().resolve("eager_cases.json").toFile());
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode c : all) {
      out.add(c);
    }
    return out;
  }

  private static NDArray input(NDManager m, JsonNode t) {
    io.tfjni.DataType tfType = TestModels.dataType(t.get("dtype").asText());
    Shape shape = new Shape(TestModels.shape(t));
    ByteBuffer bytes = ByteBuffer.wrap(TestModels.data(t)).order(ByteOrder.LITTLE_ENDIAN);
    return m.create(bytes, shape, DataTypes.fromTf(tfType));
  }

  @TestFactory
  Stream<DynamicTest> djlOperationsGiveTensorFlowPythonsValues() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : cases()) {
      String name = c.get("name").asText();
      DjlOp op = opFor(name);
      boolean strings = false;
      for (JsonNode t : c.get("inputs")) {
        strings |= "string".equals(t.get("dtype").asText());
      }
      if (op == null || strings || DIFFERENT_IN_DJL.contains(name)
          || c.get("outputs").size() != 1) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest(name, () -> run(c, op)));
    }
    assertTrue(tests.size() >= 120, "only " + tests.size() + " cases map to DJL operations");
    return tests.stream();
  }

  private static void run(JsonNode c, DjlOp op) {
    String name = c.get("name").asText();
    JsonNode expected = c.get("outputs").get(0);
    io.tfjni.DataType expectedType = TestModels.dataType(expected.get("dtype").asText());
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray[] in = new NDArray[c.get("inputs").size()];
      for (int i = 0; i < in.length; i++) {
        in[i] = input(m, c.get("inputs").get(i));
      }
      NDArray out = op.apply(m, in, paramsOf(c));
      assertEquals(DataTypes.fromTf(expectedType), out.getDataType(), name + ": dtype");
      assertArrayEquals(TestModels.shape(expected), out.getShape().getShape(), name + ": shape");
      TestModels.assertData(expectedType, TestModels.data(expected), out.toByteArray(),
          "exact".equals(c.get("compare").asText()), name);
    }
  }
}
