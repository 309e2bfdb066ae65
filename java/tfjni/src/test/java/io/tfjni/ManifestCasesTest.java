package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs every case of the manifest (TensorFlow Python's outputs) through tfjni's APIs, and checks
 * the signatures tfjni reports against the ones Python read from the MetaGraphDef.
 */
@ExtendWith(TestModels.NoLeaks.class)
class ManifestCasesTest {

  /** Models whose outputs are copies of their inputs (Identity, Reverse): compared bit for bit. */
  private static boolean exact(JsonNode testCase) {
    String model = testCase.path("model").asText();
    return !model.equals("digits") && !model.equals("multi") && !model.equals("shapes")
        && !model.equals("frozen");
  }

  /** Cases whose model has state: their calls run once each, in order. */
  private static boolean stateful(JsonNode testCase) {
    return testCase.path("model").asText().equals("counter");
  }

  /**
   * The expected outputs were computed by the TensorFlow this JVM loaded (the C++ core checks the
   * same): run against another version, this fails first and says which one was loaded
   * (scripts/test/tf-versions.sh does so on purpose).
   */
  @Test
  void manifestComesFromTheLoadedTensorFlow() {
    assertEquals(TestModels.manifest().path("tensorflow_version").asText(), TensorFlow.version(),
        "the test models' TensorFlow vs the loaded " + TensorFlow.libraryPath());
  }

  @Test
  void manifestCoversEveryKindOfCase() {
    List<JsonNode> cases = TestModels.cases();
    assertTrue(cases.size() >= 30, "expected the full manifest, got " + cases.size() + " cases");
    long graphCases = cases.stream()
        .filter(c -> TestModels.modelKind(c.path("model").asText()).equals("graph_def")).count();
    assertTrue(graphCases >= 1, "no graph_def case");
    assertTrue(cases.stream().anyMatch(c -> c.path("calls").size() > 1), "no multi-call case");
  }

  @TestFactory
  Stream<DynamicNode> everyCase() {
    return TestModels.cases().stream().map(c -> {
      String name = c.path("name").asText();
      boolean saved = TestModels.modelKind(c.path("model").asText()).equals("saved_model");
      List<DynamicNode> tests = new ArrayList<>();
      if (saved) {
        tests.add(dynamicTest("map API",
            () -> TestModels.assertNoLeak(name, () -> runMapApi(c))));
        tests.add(dynamicTest("prepared predictor, reused RunResult",
            () -> TestModels.assertNoLeak(name, () -> runSavedModelPredictor(c))));
        tests.add(dynamicTest("every reader",
            () -> TestModels.assertNoLeak(name, () -> readEveryWay(c))));
      } else {
        tests.add(dynamicTest("prepared predictor, reused RunResult",
            () -> TestModels.assertNoLeak(name, () -> runGraphPredictor(c, true))));
        tests.add(dynamicTest("prepared predictor, new RunResult per run",
            () -> TestModels.assertNoLeak(name, () -> runGraphPredictor(c, false))));
      }
      return dynamicContainer(name, tests);
    });
  }

  /** model.run(signature, Map) for each call, on one fresh load. */
  private static void runMapApi(JsonNode c) {
    String name = c.path("name").asText();
    try (SavedModel model = SavedModel.load(TestModels.modelPath(c.path("model").asText()))) {
      int index = 0;
      for (JsonNode call : c.path("calls")) {
        String what = name + " call " + index++ + " (map API)";
        String signature = call.path("signature").asText();
        // Zero-copy inputs here; arrays through the predictor; plain direct buffers for readers.
        Map<String, Tensor> inputs = TestModels.tensors(call.path("inputs"),
            TestModels.Creation.ALIGNED_BUFFER);
        try {
          int repeats = stateful(c) ? 1 : 2;
          for (int r = 0; r < repeats; r++) {
            try (RunResult result = model.run(signature, inputs)) {
              List<String> expectedKeys = TestModels.fieldNames(call.path("outputs"));
              Collections.sort(expectedKeys);
              assertEquals(expectedKeys, result.keys(), what + ": output keys");
              assertEquals(expectedKeys.size(), result.size(), what);
              for (int i = 0; i < result.size(); i++) {
                String key = expectedKeys.get(i);
                assertSame(result.get(key), result.get(i), what + ": get(key) vs get(index)");
                TestModels.assertTensor(call.path("outputs").path(key), result.get(key), exact(c),
                    what + " output '" + key + "'");
              }
            }
          }
        } finally {
          inputs.values().forEach(Tensor::close);
        }
      }
    }
  }

  /**
   * model.predictor(signature, inputKeys, outputKeys) with keys in reverse order (so the order
   * given is the order used), and predictor.run(Tensor[], RunResult) into one RunResult per
   * signature, reused across calls and runs.
   */
  private static void runSavedModelPredictor(JsonNode c) {
    String name = c.path("name").asText();
    Map<String, Predictor> predictors = new HashMap<>();
    Map<String, RunResult> results = new HashMap<>();
    try (SavedModel model = SavedModel.load(TestModels.modelPath(c.path("model").asText()))) {
      int index = 0;
      for (JsonNode call : c.path("calls")) {
        String what = name + " call " + index++ + " (predictor)";
        String signature = call.path("signature").asText();
        List<String> inputKeys = TestModels.fieldNames(call.path("inputs"));
        Collections.sort(inputKeys, Collections.reverseOrder());
        List<String> outputKeys = TestModels.fieldNames(call.path("outputs"));
        Collections.sort(outputKeys, Collections.reverseOrder());
        Predictor predictor = predictors.computeIfAbsent(signature,
            s -> model.predictor(s, inputKeys, outputKeys));
        RunResult result = results.computeIfAbsent(signature, s -> predictor.newResult());

        Signature sig = model.signature(signature);
        assertEquals(inputKeys.size(), predictor.inputs().size(), what);
        for (int i = 0; i < inputKeys.size(); i++) {
          assertEquals(sig.input(inputKeys.get(i)), predictor.inputs().get(i),
              what + ": predictor input " + i);
        }
        for (int i = 0; i < outputKeys.size(); i++) {
          assertEquals(sig.output(outputKeys.get(i)), predictor.outputs().get(i),
              what + ": predictor output " + i);
        }
        assertEquals(outputKeys, result.keys(), what + ": RunResult keys in the requested order");

        Map<String, Tensor> byKey = TestModels.tensors(call.path("inputs"),
            TestModels.Creation.ARRAY);
        try {
          Tensor[] inputs = new Tensor[inputKeys.size()];
          for (int i = 0; i < inputs.length; i++) {
            inputs[i] = byKey.get(inputKeys.get(i));
          }
          int repeats = stateful(c) ? 1 : 2;
          for (int r = 0; r < repeats; r++) {
            assertSame(result, predictor.run(inputs, result), what);
            for (int i = 0; i < outputKeys.size(); i++) {
              String key = outputKeys.get(i);
              assertSame(result.get(key), result.get(i), what);
              TestModels.assertTensor(call.path("outputs").path(key), result.get(i), exact(c),
                  what + " run " + r + " output '" + key + "'");
            }
          }
        } finally {
          byKey.values().forEach(Tensor::close);
        }
      }
    } finally {
      results.values().forEach(RunResult::close);
    }
    // Closing the model closed its predictors.
    predictors.values().forEach(p -> assertTrue(p.isClosed(), name + ": predictor left open"));
  }

  /** GraphModel.load + predictor(inputNames, outputNames). */
  private static void runGraphPredictor(JsonNode c, boolean reuseResult) {
    String name = c.path("name").asText();
    JsonNode entry = TestModels.manifest().path("models").path(c.path("model").asText());
    List<String> inputNames = new ArrayList<>();
    entry.path("inputs").forEach(n -> inputNames.add(n.asText()));
    List<String> outputNames = new ArrayList<>();
    entry.path("outputs").forEach(n -> outputNames.add(n.asText()));
    try (GraphModel model = GraphModel.load(TestModels.modelPath(c.path("model").asText()));
        Predictor predictor = model.predictor(inputNames, outputNames);
        RunResult reused = predictor.newResult()) {
      assertEquals(outputNames, reused.keys(), name);
      for (int i = 0; i < inputNames.size(); i++) {
        assertEquals(inputNames.get(i), predictor.inputs().get(i).tensorName(), name);
        assertEquals(inputNames.get(i), predictor.inputs().get(i).key(), name);
      }
      int index = 0;
      for (JsonNode call : c.path("calls")) {
        String what = name + " call " + index++;
        Map<String, Tensor> byName = TestModels.tensors(call.path("inputs"),
            reuseResult ? TestModels.Creation.ARRAY : TestModels.Creation.ALIGNED_BUFFER);
        try {
          Tensor[] inputs = new Tensor[inputNames.size()];
          for (int i = 0; i < inputs.length; i++) {
            inputs[i] = byName.get(inputNames.get(i));
            assertNotNull(inputs[i], what + ": the call does not feed " + inputNames.get(i));
            assertEquals(inputs[i].dataType(), predictor.inputs().get(i).dataType(), what);
          }
          for (int r = 0; r < 2; r++) {
            RunResult result = reuseResult ? predictor.run(inputs, reused) : predictor.run(inputs);
            try {
              for (int i = 0; i < outputNames.size(); i++) {
                TestModels.assertTensor(call.path("outputs").path(outputNames.get(i)),
                    result.get(outputNames.get(i)), exact(c), what + " run " + r + " output "
                        + outputNames.get(i));
                assertEquals(result.get(i).dataType(), predictor.outputs().get(i).dataType(),
                    what);
              }
            } finally {
              if (!reuseResult) {
                result.close();
              }
            }
          }
        } finally {
          byName.values().forEach(Tensor::close);
        }
      }
    }
  }

  /** Every output read through every reader that fits its dtype gives the manifest's values. */
  private static void readEveryWay(JsonNode c) {
    String name = c.path("name").asText();
    try (SavedModel model = SavedModel.load(TestModels.modelPath(c.path("model").asText()))) {
      int index = 0;
      for (JsonNode call : c.path("calls")) {
        String callName = name + " call " + index++;
        Map<String, Tensor> inputs = TestModels.tensors(call.path("inputs"));
        try (RunResult result = model.run(call.path("signature").asText(), inputs)) {
          for (String key : result.keys()) {
            checkReaders(call.path("outputs").path(key), result.get(key), exact(c),
                callName + " output '" + key + "'");
          }
        } finally {
          inputs.values().forEach(Tensor::close);
        }
      }
    }
  }

  private static void checkReaders(JsonNode expected, Tensor tensor, boolean exact, String what) {
    DataType type = TestModels.dataType(expected.path("dtype").asText());
    assertEquals(type, tensor.dataType(), what);
    long[] shape = TestModels.shape(expected);
    assertArrayEquals(shape, tensor.shape(), what);
    assertEquals(shape.length, tensor.rank(), what);
    long elements = 1;
    for (long d : shape) {
      elements *= d;
    }
    assertEquals(elements, tensor.numElements(), what);
    if (type == DataType.STRING) {
      byte[][] strings = TestModels.strings(expected);
      TestModels.assertBytesArrays(strings, tensor.toBytesArray(), what + " toBytesArray");
      String[] decoded = tensor.toStringArray();
      assertEquals(strings.length, decoded.length, what);
      for (int i = 0; i < strings.length; i++) {
        assertEquals(new String(strings[i], StandardCharsets.UTF_8), decoded[i],
            what + " toStringArray " + i);
      }
      assertThrows(IllegalArgumentException.class, tensor::buffer, what + " buffer()");
      assertThrows(IllegalStateException.class, tensor::toFloatArray, what);
      return;
    }
    byte[] data = TestModels.data(expected);
    assertEquals(data.length, tensor.byteSize(), what + " byteSize()");
    ByteBuffer buffer = tensor.buffer();
    assertTrue(buffer.isReadOnly(), what + ": outputs of a run are read-only");
    assertEquals(ByteOrder.nativeOrder(), buffer.order(), what);
    TestModels.assertData(type, data, TestModels.bufferBytes(tensor), exact, what + " buffer()");

    Class<?> component = type.javaComponent();
    int length = Math.toIntExact(elements * type.componentsPerElement());
    Object viaToArray = toArray(tensor, component);
    assertEquals(length, Array.getLength(viaToArray), what);
    TestModels.assertData(type, data, bytesOf(viaToArray), exact, what + " to" + component
        + "Array");
    Object viaCopyTo = Array.newInstance(component, length);
    tensor.copyTo(viaCopyTo);
    TestModels.assertData(type, data, bytesOf(viaCopyTo), exact, what + " copyTo");
    // A reader of another type is refused, not reinterpreted.
    Class<?> other = component == float.class ? int.class : float.class;
    assertThrows(IllegalStateException.class, () -> toArray(tensor, other), what);
    assertThrows(IllegalStateException.class, tensor::toStringArray, what);
    assertThrows(IllegalArgumentException.class,
        () -> tensor.copyTo(Array.newInstance(other, length)), what);
  }

  private static Object toArray(Tensor tensor, Class<?> component) {
    if (component == float.class) {
      return tensor.toFloatArray();
    } else if (component == double.class) {
      return tensor.toDoubleArray();
    } else if (component == int.class) {
      return tensor.toIntArray();
    } else if (component == long.class) {
      return tensor.toLongArray();
    } else if (component == short.class) {
      return tensor.toShortArray();
    } else if (component == byte.class) {
      return tensor.toByteArray();
    } else if (component == boolean.class) {
      return tensor.toBooleanArray();
    }
    throw new AssertionError("no reader for " + component);
  }

  /** A primitive array's values as little-endian bytes. */
  static byte[] bytesOf(Object array) {
    int n = Array.getLength(array);
    if (array instanceof boolean[] b) {
      byte[] out = new byte[n];
      for (int i = 0; i < n; i++) {
        out[i] = (byte) (b[i] ? 1 : 0);
      }
      return out;
    }
    if (array instanceof byte[] b) {
      return b.clone();
    }
    int width = array instanceof short[] ? 2
        : array instanceof int[] || array instanceof float[] ? 4 : 8;
    ByteBuffer out = ByteBuffer.allocate(n * width).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      if (array instanceof short[] s) {
        out.putShort(s[i]);
      } else if (array instanceof int[] v) {
        out.putInt(v[i]);
      } else if (array instanceof float[] v) {
        out.putFloat(v[i]);
      } else if (array instanceof long[] v) {
        out.putLong(v[i]);
      } else if (array instanceof double[] v) {
        out.putDouble(v[i]);
      }
    }
    return out.array();
  }

  // ---------------------------------------------------------------- signatures

  @TestFactory
  Stream<DynamicNode> signaturesMatchTheManifest() {
    JsonNode all = TestModels.manifest().path("signatures");
    List<String> models = TestModels.fieldNames(all);
    assertFalse(models.isEmpty(), "the manifest lists no signatures");
    models.removeIf(TestModels::isLeftOut);
    return models.stream().map(m -> dynamicTest(m, () -> TestModels.assertNoLeak(m, () -> {
      try (SavedModel model = SavedModel.load(TestModels.modelPath(m))) {
        checkSignatures(m, all.path(m), model);
      }
    })));
  }

  private static void checkSignatures(String m, JsonNode expected, SavedModel model) {
    List<String> keys = TestModels.fieldNames(expected);
    keys.remove("__saved_model_init_op");  // run by TensorFlow's loader, not a signature
    Collections.sort(keys);
    assertEquals(keys, model.signatures().stream().map(Signature::key).toList(),
        m + ": signature keys (sorted)");
    for (String key : keys) {
      JsonNode sig = expected.path(key);
      Signature actual = model.signature(key);
      String what = m + "/" + key;
      assertEquals(key, actual.key(), what);
      assertEquals(sig.path("method").asText(), actual.methodName(), what + ": method");
      checkSpecs(what + " inputs", sig.path("inputs"), actual.inputs());
      checkSpecs(what + " outputs", sig.path("outputs"), actual.outputs());
      assertEquals(actual.inputs().stream().map(TensorSpec::key).toList(), actual.inputKeys(),
          what);
      assertEquals(actual.outputs().stream().map(TensorSpec::key).toList(), actual.outputKeys(),
          what);
    }
  }

  private static void checkSpecs(String what, JsonNode expected, List<TensorSpec> actual) {
    List<String> keys = TestModels.fieldNames(expected);
    Collections.sort(keys);
    assertEquals(keys, actual.stream().map(TensorSpec::key).toList(), what + ": keys (sorted)");
    for (int i = 0; i < keys.size(); i++) {
      JsonNode info = expected.path(keys.get(i));
      TensorSpec spec = actual.get(i);
      String where = what + " '" + keys.get(i) + "'";
      assertEquals(info.path("name").asText(), spec.tensorName(), where + ": tensor name");
      assertEquals(info.path("dtype_enum").asInt(), spec.dataType().code(), where + ": dtype");
      assertEquals(TestModels.dataType(info.path("dtype").asText()), spec.dataType(), where);
      JsonNode shape = info.path("shape");
      if (shape.isNull()) {
        assertNull(spec.shape(), where + ": unknown rank");
        assertTrue(spec.hasUnknownRank(), where);
      } else {
        assertFalse(spec.hasUnknownRank(), where);
        assertArrayEquals(TestModels.shape(info), spec.shape(), where + ": shape");
      }
    }
  }

  @Test
  void signatureShapesIncludeUnknownDimsUnknownRankAndScalars() {
    // Guards the signature comparison above against a manifest that lost these features.
    JsonNode all = TestModels.manifest().path("signatures");
    assertTrue(all.path("multi").path("any_rank").path("inputs").path("x").path("shape").isNull());
    assertEquals(-1, all.path("multi").path("add").path("inputs").path("a").path("shape").get(0)
        .asInt());
    assertEquals(0, all.path("shapes").path("square").path("inputs").path("x").path("shape")
        .size());
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"))) {
      assertNull(model.signature("any_rank").input("x").shape());
      assertArrayEquals(new long[] {-1, 3}, model.signature("scale").input("x").shape());
      assertArrayEquals(new long[0], model.signature("scale").output("total").shape());
      // The shape handed out is a copy.
      model.signature("scale").input("x").shape()[0] = 99;
      assertArrayEquals(new long[] {-1, 3}, model.signature("scale").input("x").shape());
    }
  }

  @Test
  void oneResultRefilledWithOutputsOfOtherShapes() {
    // batch 1, batch 7, batch 1 again through one RunResult: the shape read after each run is
    // that run's, not one remembered from before.
    List<JsonNode> calls = List.of(
        TestModels.testCase("digits_batch1").path("calls").get(0),
        TestModels.testCase("digits_batch7").path("calls").get(0),
        TestModels.testCase("digits_batch1").path("calls").get(0));
    try (SavedModel model = SavedModel.load(TestModels.modelPath("digits"));
        Predictor predictor = model.predictor("serving_default");
        RunResult result = predictor.newResult()) {
      Tensor held = null;
      for (JsonNode call : calls) {
        try (Tensor images = TestModels.tensor(call.path("inputs").path("images"))) {
          predictor.run(images, result);
        }
        Tensor output = result.get("output_0");
        if (held != null) {
          assertSame(held, output, "the result refills the same Tensor objects");
        }
        held = output;
        TestModels.assertTensor(call.path("outputs").path("output_0"), output, false,
            "batch of " + TestModels.shape(call.path("outputs").path("output_0"))[0]);
        assertEquals(TestModels.shape(call.path("outputs").path("output_0"))[0] * 10,
            output.numElements());
      }
    }
  }

  @Test
  void graphModelPredictorReportsGraphShapes() {
    Path path = TestModels.modelPath("frozen");
    try (GraphModel model = GraphModel.load(path);
        Predictor predictor = model.predictor(List.of("x:0"), List.of("Identity:0"))) {
      TensorSpec x = predictor.inputs().get(0);
      assertEquals(DataType.FLOAT, x.dataType());
      assertArrayEquals(new long[] {-1, 2}, x.shape());
      TensorSpec y = predictor.outputs().get(0);
      assertEquals("Identity:0", y.tensorName());
      assertEquals(DataType.FLOAT, y.dataType());
      assertArrayEquals(new long[] {-1, 3}, y.shape());
      // "op" alone means output 0 of that op.
      try (Predictor shortNames = model.predictor(List.of("x"), List.of("Identity"));
          RunResult result = shortNames.newResult()) {
        JsonNode call = TestModels.testCase("frozen_tanh_batch4").path("calls").get(0);
        try (Tensor input = TestModels.tensor(call.path("inputs").path("x:0"))) {
          shortNames.run(input, result);
          TestModels.assertTensor(call.path("outputs").path("Identity:0"), result.get("Identity"),
              false, "Identity");
        }
      }
    }
  }
}
