package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.eager.EagerContext;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input of every kind gets a clear Java exception, the JVM survives, and nothing leaks (the
 * NoLeaks extension checks the live native objects after every test).
 */
@ExtendWith(TestModels.NoLeaks.class)
class BadInputTest {
  private static SavedModel multi;

  @BeforeAll
  static void loadModel() {
    multi = TestModels.loadMultiWithMapApiPrepared();
  }

  @AfterAll
  static void closeModel() {
    if (multi != null) {
      multi.close();
    }
  }

  /** Asserts the exception type and that its message mentions every one of {@code words}. */
  private static <T extends Throwable> T assertFails(Class<T> type, Executable body,
      String... words) {
    T e = assertThrows(type, body);
    String message = String.valueOf(e.getMessage());
    for (String word : words) {
      assertTrue(message.contains(word),
          "message should mention '" + word + "': " + message);
    }
    return e;
  }

  private static TensorFlowException assertTensorFlowError(TensorFlowException.Code code,
      Executable body, String... words) {
    TensorFlowException e = assertFails(TensorFlowException.class, body, words);
    assertEquals(code, e.code(), e.getMessage());
    assertTrue(e.getMessage().startsWith(code.name() + ": "), e.getMessage());
    assertEquals(e.getMessage(), code + ": " + e.tensorFlowMessage());
    return e;
  }

  private static float[] sum(Predictor predictor, Tensor a, Tensor b) {
    try (RunResult result = predictor.run(a, b)) {
      return result.get("sum").toFloatArray();
    }
  }

  // ------------------------------------------------------------ wrong inputs to a run

  @Test
  void wrongDtype() {
    try (Tensor ints = Tensor.of(new int[] {1, 2}, 2);
        Tensor floats = Tensor.of(new float[] {1, 2}, 2);
        Predictor predictor = multi.predictor("add", List.of("a", "b"), List.of())) {
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> multi.run("add", Map.of("a", floats, "b", ints)).close(),
          "input 'b'", "FLOAT", "INT32");
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> predictor.run(ints, floats).close(), "input 'a'", "FLOAT", "INT32");
      // The predictor and model still work afterwards.
      assertArrayEquals(new float[] {2, 4}, sum(predictor, floats, floats));
    }
  }

  @Test
  void wrongShape() {
    try (Tensor fourColumns = Tensor.of(new float[8], 2, 4);
        Tensor matrix = Tensor.of(new float[4], 2, 2);
        Tensor vector = Tensor.of(new float[2], 2);
        Tensor scalar = Tensor.scalar(1f)) {
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> multi.run("scale", Map.of("x", fourColumns)).close(), "input 'x'", "[-1,3]",
          "[2,4]");
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> multi.run("add", Map.of("a", matrix, "b", vector)).close(), "input 'a'", "[-1]",
          "[2,2]");
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> multi.run("add", Map.of("a", vector, "b", scalar)).close(), "input 'b'", "[]");
      // Shapes TensorFlow itself rejects: a + b with different lengths.
      try (Tensor three = Tensor.of(new float[3], 3)) {
        TensorFlowException e = assertThrows(TensorFlowException.class,
            () -> multi.run("add", Map.of("a", vector, "b", three)).close());
        assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("Incompatible shapes"), e.getMessage());
      }
    }
  }

  @Test
  void unknownSignatureKey() {
    try (Tensor a = Tensor.of(new float[] {1}, 1)) {
      assertFails(IllegalArgumentException.class,
          () -> multi.run("nope", Map.of("a", a)).close(), "'nope'", "add", "scale");
      assertFails(IllegalArgumentException.class, () -> multi.predictor("nope").close(),
          "'nope'", "serving_default");
      assertFails(IllegalArgumentException.class, () -> multi.signature("nope"), "'nope'");
      assertFails(IllegalArgumentException.class,
          () -> multi.predictor("nope", List.of(), List.of()).close(), "'nope'");
    }
  }

  @Test
  void unknownInputKey() {
    try (Tensor a = Tensor.of(new float[] {1}, 1)) {
      assertFails(IllegalArgumentException.class,
          () -> multi.run("add", Map.of("a", a, "c", a)).close(), "'c'", "[a, b]");
      assertFails(IllegalArgumentException.class,
          () -> multi.predictor("add", List.of("a", "z"), List.of()).close(), "'z'", "add");
      assertFails(IllegalArgumentException.class, () -> multi.signature("add").input("z"), "'z'");
    }
  }

  @Test
  void unknownOutputKey() {
    assertFails(IllegalArgumentException.class,
        () -> multi.predictor("add", List.of("a", "b"), List.of("difference")).close(),
        "'difference'", "sum");
    assertFails(IllegalArgumentException.class, () -> multi.signature("add").output("x"), "'x'");
    try (Tensor a = Tensor.of(new float[] {1}, 1);
        RunResult result = multi.run("add", Map.of("a", a, "b", a))) {
      assertFails(IllegalArgumentException.class, () -> result.get("difference"),
          "'difference'", "[sum]");
      assertThrows(IndexOutOfBoundsException.class, () -> result.get(1));
    }
  }

  @Test
  void keysGivenTwice() {
    assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
        () -> multi.predictor("add", List.of("a", "b", "a"), List.of()).close(), "'a'", "twice");
    assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
        () -> multi.predictor("scale", List.of("x"), List.of("total", "total")).close(),
        "'total'", "twice");
  }

  @Test
  void aSignatureInputLeftOutIsRefusedByName() {
    // half_plus_two's serving_default input x is parsed from the placeholder tf_example, which the
    // signature does not name: TensorFlow's own error would be about tf_example.
    try (SavedModel model = SavedModel.load(TestModels.modelPath("half_plus_two"));
        Tensor x = Tensor.of(new float[] {1, 2, 5}, 3, 1)) {
      IllegalArgumentException e = assertFails(IllegalArgumentException.class,
          () -> model.run(Map.of()).close(), "'serving_default'", "input 'x'", "are [x]");
      assertFalse(e.getMessage().contains("tf_example"), e.getMessage());
      assertFails(IllegalArgumentException.class,
          () -> model.run("plus_offset", Map.of("x", x)).close(), "'plus_offset'",
          "input 'offset'", "are [offset, x]");
      // The prepared path: a predictor for a subset of the inputs.
      assertFails(IllegalArgumentException.class,
          () -> model.predictor("plus_offset", List.of("x"), List.of()).close(),
          "input 'offset'", "are [offset, x]", "partialPredictor");
      assertFails(IllegalArgumentException.class,
          () -> multi.predictor("add", List.of(), List.of("sum")).close(), "inputs 'a', 'b'",
          "are [a, b]");
      // Asked for explicitly, a partial feed runs: offset takes its default, 2.
      try (Predictor onlyX = model.partialPredictor("plus_offset", List.of("x"), List.of());
          RunResult result = onlyX.run(x)) {
        assertArrayEquals(new float[] {2.5f, 3f, 4.5f}, result.get("z").toFloatArray());
      }
      // ... and an input the graph does need is TensorFlow's error, at run time.
      try (Predictor nothing = model.partialPredictor("serving_default", List.of(), List.of())) {
        assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
            () -> nothing.run().close(), "must feed", "tf_example");
      }
      // Every input given works, through both paths.
      try (RunResult result = model.run(Map.of("x", x))) {
        assertArrayEquals(new float[] {2.5f, 3f, 4.5f}, result.get("y").toFloatArray());
      }
      try (Tensor ten = Tensor.of(new float[] {10});
          Predictor both = model.predictor("plus_offset", List.of("offset", "x"), List.of());
          RunResult result = both.run(ten, x)) {
        assertArrayEquals(new float[] {10.5f, 11f, 12.5f}, result.get("z").toFloatArray());
      }
    }
  }

  @Test
  void wrongNumberOfInputsToAPredictor() {
    try (Predictor predictor = multi.predictor("add");
        Tensor a = Tensor.of(new float[] {1}, 1);
        RunResult result = predictor.newResult()) {
      assertEquals(List.of("a", "b"), predictor.inputs().stream().map(TensorSpec::key).toList());
      assertFails(IllegalArgumentException.class, () -> predictor.run(a, result),
          "expected 2 inputs", "[a, b]", "got 1");
      assertFails(IllegalArgumentException.class,
          () -> predictor.run(new Tensor[] {a, a, a}, result), "got 3");
      assertFails(IllegalArgumentException.class, () -> predictor.run().close(), "got 0");
      assertThrows(IllegalStateException.class, () -> result.get(0),
          "a failed run leaves no outputs to read");
    }
  }

  @Test
  void theInitOpIsNotASignature() {
    // TensorFlow's loader runs it; TensorFlow Python's `signatures` leaves it out too.
    assertFails(IllegalArgumentException.class,
        () -> multi.predictor("__saved_model_init_op").close(),
        "no signature '__saved_model_init_op'; signatures are [add, any_rank, scale, serving_default]");
    assertFalse(multi.signatures().stream().anyMatch(s -> s.key().startsWith("__")));
  }

  @Test
  void aKerasModelSavedWithoutExportNamesTheExportToUse() {
    // TensorFlow Python's session loader fails the same way; its error is the manifest's.
    JsonNode model = TestModels.manifest().path("models").path("keras_saved_unexported");
    try (SavedModel unexported = SavedModel.load(TestModels.modelPath("keras_saved_unexported"));
        Tensor x = Tensor.of(new float[] {1, 1, 1}, 1, 3)) {
      assertEquals("FAILED_PRECONDITION", model.path("error_code").asText());
      assertTensorFlowError(TensorFlowException.Code.FAILED_PRECONDITION,
          () -> unexported.run(Map.of(model.path("input_key").asText(), x)).close(),
          model.path("error").asText(), "model.export(dir)", "docs/EXPORTING.md");
    }
  }

  // ------------------------------------------------------------ null

  @Test
  void nulls() {
    try (Tensor a = Tensor.of(new float[] {1}, 1);
        Predictor predictor = multi.predictor("add");
        RunResult result = predictor.newResult()) {
      assertFails(NullPointerException.class, () -> multi.run("add", null), "inputs");
      assertFails(NullPointerException.class, () -> multi.run(null, Map.of("a", a)),
          "signatureKey");
      assertFails(NullPointerException.class, () -> multi.run((Map<String, Tensor>) null),
          "inputs");
      Map<String, Tensor> nullValue = new HashMap<>();
      nullValue.put("a", a);
      nullValue.put("b", null);
      assertFails(NullPointerException.class, () -> multi.run("add", nullValue), "'b'");
      Map<String, Tensor> nullKey = new HashMap<>();
      nullKey.put("a", a);
      nullKey.put(null, a);
      assertFails(NullPointerException.class, () -> multi.run("add", nullKey), "key is null");
      assertFails(NullPointerException.class, () -> predictor.run(a, (Tensor) null), "'b'");
      assertFails(NullPointerException.class, () -> predictor.run((Tensor[]) null, result),
          "inputs");
      assertFails(NullPointerException.class, () -> predictor.run(new Tensor[] {a, a}, null),
          "into");
      assertFails(NullPointerException.class, () -> predictor.run(a, (RunResult) null), "into");
      assertFails(NullPointerException.class, () -> multi.signature(null), "key");
      assertFails(NullPointerException.class, () -> multi.predictor("add", null, List.of()),
          "inputKeys");
      assertFails(NullPointerException.class, () -> multi.predictor("add", List.of(), null),
          "outputKeys");
      assertFails(NullPointerException.class, () -> SavedModel.load(null), "exportDir");
      assertFails(NullPointerException.class,
          () -> SavedModel.load(TestModels.modelPath("multi"), null, "serve"), "options");
      assertFails(NullPointerException.class,
          () -> SavedModel.load(TestModels.modelPath("multi"), SessionOptions.defaults(),
              "serve", null), "tag");
      assertFails(NullPointerException.class,
          () -> SavedModel.load(TestModels.modelPath("multi"), SessionOptions.defaults(),
              (String[]) null), "tags");
      assertFails(NullPointerException.class, () -> GraphModel.load(null), "graphDef");
    }
    // Tensor factories: null data, shape, dtype and elements.
    assertFails(NullPointerException.class, () -> Tensor.of((float[]) null, 1), "data");
    assertFails(NullPointerException.class, () -> Tensor.of(new float[1], (long[]) null),
        "shape");
    assertFails(NullPointerException.class, () -> Tensor.of(null, new float[1], 1),
        "dataType");
    assertFails(NullPointerException.class, () -> Tensor.of(DataType.FLOAT, (Object) null, 1),
        "data");
    assertFails(NullPointerException.class,
        () -> Tensor.of(DataType.FLOAT, (ByteBuffer) null, 1), "data");
    assertFails(NullPointerException.class,
        () -> Tensor.of(DataType.FLOAT, ByteBuffer.allocate(4), (long[]) null), "shape");
    assertFails(NullPointerException.class, () -> Tensor.allocate(null, 1), "dataType");
    assertFails(NullPointerException.class, () -> Tensor.allocate(DataType.FLOAT, (long[]) null),
        "shape");
    assertFails(NullPointerException.class, () -> Tensor.ofStrings(null, 1), "values");
    assertFails(NullPointerException.class, () -> Tensor.ofStrings(new String[] {"a", null}, 2),
        "values[1]");
    assertFails(NullPointerException.class, () -> Tensor.ofStrings(new String[] {"a"},
        (long[]) null), "shape");
    assertFails(NullPointerException.class, () -> Tensor.ofBytes(null, 1), "values");
    assertFails(NullPointerException.class, () -> Tensor.ofBytes(new byte[][] {null}, 1),
        "values[0]");
    try (GraphModel frozen = GraphModel.load(TestModels.modelPath("frozen"))) {
      assertFails(NullPointerException.class, () -> frozen.predictor(null, List.of("y")),
          "inputNames");
      assertFails(NullPointerException.class, () -> frozen.predictor(List.of("x"), null),
          "outputNames");
    }
    assertFails(NullPointerException.class, () -> SessionOptions.defaults().rawConfigProto(null),
        "configProto");
    assertFails(NullPointerException.class,
        () -> SessionOptions.defaults().gpuVisibleDevices(null), "devices");
  }

  // ------------------------------------------------------------ closed objects

  @Test
  void closedTensorAsInput() {
    Tensor closed = Tensor.of(new float[] {1}, 1);
    closed.close();
    try (Tensor open = Tensor.of(new float[] {1}, 1);
        Predictor predictor = multi.predictor("add");
        RunResult result = predictor.newResult()) {
      assertFails(IllegalStateException.class,
          () -> multi.run("add", Map.of("a", open, "b", closed)), "closed");
      assertFails(IllegalStateException.class,
          () -> predictor.run(new Tensor[] {closed, open}, result), "closed");
      assertFails(IllegalStateException.class,
          () -> predictor.run(new Tensor[] {open, closed}, result), "closed");
      assertFalse(open.isClosed(), "a failed run must not close the other inputs");
      assertArrayEquals(new float[] {2}, predictor.run(new Tensor[] {open, open}, result)
          .get(0).toFloatArray());
    }
  }

  @Test
  void closedModelPredictorAndResult() {
    SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
    Predictor predictor = model.predictor("add");
    RunResult result = predictor.newResult();
    Tensor a = Tensor.of(new float[] {1, 2}, 2);
    try {
      predictor.run(new Tensor[] {a, a}, result);
      Tensor sum = result.get(0);
      assertArrayEquals(new float[] {2, 4}, sum.toFloatArray());

      // A closed result: no runs into it, no reads from it; its tensors are freed.
      result.close();
      result.close();
      assertTrue(sum.isClosed());
      assertFails(IllegalStateException.class, () -> predictor.run(new Tensor[] {a, a}, result),
          "RunResult is closed");
      assertFails(IllegalStateException.class, () -> result.get(0), "closed");
      assertFails(IllegalStateException.class, () -> result.get("sum"), "closed");

      // A closed predictor.
      Predictor other = model.predictor("add");
      RunResult otherResult = other.newResult();
      other.close();
      other.close();
      assertTrue(other.isClosed());
      assertFails(IllegalStateException.class,
          () -> other.run(new Tensor[] {a, a}, otherResult), "Predictor is closed");
      assertFails(IllegalStateException.class, () -> other.run(a, a), "Predictor is closed");
      otherResult.close();

      // A closed model: closing it closed its predictors too.
      model.close();
      model.close();
      assertTrue(model.isClosed());
      assertTrue(predictor.isClosed(), "closing the model closes its predictors");
      try (RunResult fresh = predictor.newResult()) {
        assertFails(IllegalStateException.class, () -> predictor.run(new Tensor[] {a, a}, fresh),
            "closed");
      }
      assertFails(IllegalStateException.class, () -> model.run("add", Map.of("a", a, "b", a)),
          "closed");
      assertFails(IllegalStateException.class, () -> model.predictor("add"), "closed");
      assertFalse(a.isClosed(), "inputs belong to the caller");
    } finally {
      result.close();
      model.close();
      a.close();
    }
  }

  @Test
  void resultHolderBeforeAnyRunAndOfAnotherPredictor() {
    try (Predictor add = multi.predictor("add");
        Predictor scale = multi.predictor("scale");
        RunResult addResult = add.newResult();
        Tensor a = Tensor.of(new float[] {1}, 1);
        Tensor x = Tensor.of(new float[3], 1, 3)) {
      assertFails(IllegalStateException.class, () -> addResult.get(0), "no successful run");
      assertFails(IllegalArgumentException.class, () -> scale.run(x, addResult),
          "another predictor");
      assertArrayEquals(new float[] {2}, add.run(new Tensor[] {a, a}, addResult).get("sum")
          .toFloatArray());
    }
  }

  @Test
  void feedingAResultsOutputBackIntoTheSameResultIsRefused() {
    // An output of a RunResult is freed when the result is refilled: feeding it into the same
    // result must be refused, not hang or read freed memory.
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
          Predictor doubler = model.predictor("any_rank");
          RunResult result = doubler.newResult();
          RunResult other = doubler.newResult();
          Tensor x = Tensor.of(new float[] {1, 2}, 2)) {
        doubler.run(x, result);
        Tensor doubled = result.get(0);
        assertFails(IllegalArgumentException.class, () -> doubler.run(doubled, result),
            "input 'x'", "output");
        assertFalse(doubled.isClosed(), "a refused run leaves the result as it was");
        assertArrayEquals(new float[] {2, 4}, doubled.toFloatArray());
        // Into another result it is fine: 2 * (2 * x).
        assertArrayEquals(new float[] {4, 8}, doubler.run(doubled, other).get(0).toFloatArray());
      }
    });
  }

  // ------------------------------------------------------------ shapes and arrays

  @Test
  void negativeDims() {
    assertFails(IllegalArgumentException.class, () -> Tensor.of(new float[2], -1, -2),
        "negative");
    assertFails(IllegalArgumentException.class, () -> Tensor.allocate(DataType.FLOAT, 2, -1),
        "negative");
    assertFails(IllegalArgumentException.class, () -> Tensor.ofStrings(new String[0], -1),
        "negative");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.FLOAT, Tensor.allocateAlignedBuffer(4), -1), "negative");
  }

  @Test
  void overflowingDims() {
    long big = 1L << 40;
    assertFails(IllegalArgumentException.class, () -> Tensor.of(new float[1], big, big),
        "too many elements");
    assertFails(IllegalArgumentException.class, () -> Tensor.allocate(DataType.INT8, big, big),
        "too many elements");
    assertFails(IllegalArgumentException.class, () -> Tensor.ofStrings(new String[] {"a"}, big, big),
        "too many elements");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.FLOAT, ByteBuffer.allocate(4), big, big), "too many elements");
    // The element count fits in a long but the bytes do not.
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.DOUBLE, ByteBuffer.allocate(8), 1L << 61), "bytes");
    assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
        () -> Tensor.allocate(DataType.DOUBLE, 1L << 61).close(), "too large");
    // The bytes fit in a long but not in memory: an error, not a crash.
    assertTensorFlowError(TensorFlowException.Code.RESOURCE_EXHAUSTED,
        () -> Tensor.allocate(DataType.FLOAT, big, 1L << 20).close(), "allocate", "FLOAT");
    // Beyond TensorFlow's maximum rank.
    assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
        () -> Tensor.allocate(DataType.FLOAT, new long[300]).close(), "rank 300");
  }

  @Test
  void bufferSizeMustMatchTheShape() {
    for (ByteBuffer data : List.of(Tensor.allocateAlignedBuffer(20), ByteBuffer.allocate(20))) {
      assertFails(IllegalArgumentException.class, () -> Tensor.of(DataType.FLOAT, data, 2, 3),
          "24 bytes", "20");
      assertFails(IllegalArgumentException.class, () -> Tensor.of(DataType.FLOAT, data, 2, 2),
          "16 bytes", "20");
      assertFails(IllegalArgumentException.class, () -> Tensor.of(DataType.STRING, data, 5),
          "STRING", "ofStrings");
    }
  }

  @Test
  void arrayLengthMustMatchTheShape() {
    assertFails(IllegalArgumentException.class, () -> Tensor.of(new float[5], 2, 3), "5", "6");
    assertFails(IllegalArgumentException.class, () -> Tensor.of(new float[7], 2, 3), "7", "6");
    assertFails(IllegalArgumentException.class, () -> Tensor.of(new int[2]), "2", "1");
    assertFails(IllegalArgumentException.class, () -> Tensor.of(new int[0]), "0", "1");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.COMPLEX128, new double[3], 2), "3", "4");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.ofStrings(new String[] {"a", "b", "c"}, 2, 2), "4 elements", "3 values");
    assertFails(IllegalArgumentException.class, () -> Tensor.ofBytes(new byte[][] {{1}}, 2),
        "2 elements", "1 values");
  }

  @Test
  void arrayTypeMustMatchTheDtype() {
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.FLOAT, new int[6], 2, 3), "FLOAT", "float[]", "int[]");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.INT64, new double[1], 1), "INT64", "long[]", "double[]");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.HALF, new float[1], 1), "HALF", "short[]");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.UINT8, new short[1], 1), "UINT8", "byte[]");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.BOOL, new byte[1], 1), "BOOL", "boolean[]");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.FLOAT, new float[1][1], 1), "float[][]");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.FLOAT, "not an array", 1), "String");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.FLOAT, new Float[] {1f}, 1), "Float[]");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.STRING, new byte[1], 1), "STRING", "ofStrings");
    assertFails(IllegalArgumentException.class,
        () -> Tensor.of(DataType.RESOURCE, new byte[1], 1), "RESOURCE");
    try (Tensor f = Tensor.of(new float[] {1, 2}, 2)) {
      assertFails(IllegalStateException.class, f::toIntArray, "FLOAT", "float[]");
      assertFails(IllegalStateException.class, f::toDoubleArray, "FLOAT");
      assertFails(IllegalArgumentException.class, () -> f.copyTo(new double[2]), "float[]");
      assertFails(IllegalArgumentException.class, () -> f.copyTo(new float[3]), "3", "2");
    }
  }

  @Test
  void stringTensorAskedForAPrimitiveArray() {
    try (Tensor s = Tensor.ofStrings(new String[] {"a", "b"}, 2)) {
      assertFails(IllegalStateException.class, s::toFloatArray, "STRING");
      assertFails(IllegalStateException.class, s::toByteArray, "STRING");
      assertFails(IllegalStateException.class, s::toLongArray, "STRING");
      assertFails(IllegalArgumentException.class, () -> s.copyTo(new byte[2]), "STRING");
      assertFails(IllegalArgumentException.class, s::buffer, "STRING");
      assertArrayEquals(new String[] {"a", "b"}, s.toStringArray());
    }
  }

  // ------------------------------------------------------------ model files

  @Test
  void missingModelDirectory(@TempDir Path tmp) {
    Path missing = tmp.resolve("no_such_model");
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND,
        () -> SavedModel.load(missing).close(), missing.toString());
    // A directory without a saved_model.pb is no better.
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND, () -> SavedModel.load(tmp).close(),
        "SavedModel");
  }

  @Test
  void pathsWithCharactersOutsideTheBasicPlane(@TempDir Path tmp) {
    // JNI's modified UTF-8 is not UTF-8 for supplementary characters: paths must still work.
    for (String name : List.of("模型 ü", "model-\uD83D\uDE00-\uD834\uDD1E")) {
      Path model = tmp.resolve(name);
      TestModels.copyTree(TestModels.modelPath("shapes"), model, Set.of());
      try (SavedModel loaded = SavedModel.load(model);
          Tensor x = Tensor.scalar(5f);
          RunResult result = loaded.run("square", Map.of("x", x))) {
        assertArrayEquals(new float[] {25f}, result.get("y").toFloatArray(), name);
      }
      Path missing = model.resolve("missing \uD83D\uDE00");
      assertTensorFlowError(TensorFlowException.Code.NOT_FOUND,
          () -> SavedModel.load(missing).close(), missing.toString());
    }
    Path graph = tmp.resolve("frozen-\uD83D\uDE00.pb");
    TestModels.copyTree(TestModels.modelPath("frozen"), graph, Set.of());
    try (GraphModel loaded = GraphModel.load(graph);
        Predictor predictor = loaded.predictor(List.of("x:0"), List.of("Identity:0"))) {
      assertEquals(DataType.FLOAT, predictor.outputs().get(0).dataType());
    }
  }

  @Test
  void corruptSavedModelPb(@TempDir Path tmp) throws IOException {
    Path model = tmp.resolve("counter");
    TestModels.copyTree(TestModels.modelPath("counter"), model, Set.of());
    byte[] garbage = new byte[4096];
    new java.util.Random(42).nextBytes(garbage);
    Files.write(model.resolve("saved_model.pb"), garbage);
    // Which code TensorFlow's proto parser reports depends on where the bytes go wrong.
    Set<TensorFlowException.Code> parseErrors = Set.of(TensorFlowException.Code.DATA_LOSS,
        TensorFlowException.Code.INVALID_ARGUMENT, TensorFlowException.Code.OUT_OF_RANGE);
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> SavedModel.load(model).close());
    assertTrue(parseErrors.contains(e.code()), e.getMessage());
    // Truncated rather than random.
    byte[] real = Files.readAllBytes(TestModels.modelPath("counter").resolve("saved_model.pb"));
    Files.write(model.resolve("saved_model.pb"), Arrays.copyOf(real, real.length / 2));
    assertTensorFlowError(TensorFlowException.Code.DATA_LOSS,
        () -> SavedModel.load(model).close(), model.resolve("saved_model.pb") + "' ("
            + real.length / 2 + " bytes) is damaged, cut short");
    // An empty file is a valid, empty SavedModel proto, with no MetaGraphDef at all.
    Files.write(model.resolve("saved_model.pb"), new byte[0]);
    assertTensorFlowError(TensorFlowException.Code.DATA_LOSS,
        () -> SavedModel.load(model).close(), model.resolve("saved_model.pb") + "' (0 bytes)"
            + " holds no MetaGraphDef");
  }

  @Test
  void missingVariablesDirectory(@TempDir Path tmp) throws IOException {
    Path model = tmp.resolve("counter");
    TestModels.copyTree(TestModels.modelPath("counter"), model, Set.of("variables"));
    assertFalse(Files.exists(model.resolve("variables")));
    // TensorFlow itself would load it with a log line and fail at the first use of the
    // variable; tfjni refuses it at load, naming the missing file.
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND,
        () -> SavedModel.load(model).close(), "variables", "variables.index");
    // An empty variables/ directory is no better.
    Files.createDirectories(model.resolve("variables"));
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND,
        () -> SavedModel.load(model).close(), "variables.index");
    // TensorFlow Python refuses a TF2 export without its checkpoint even when it holds no
    // variables (multi): so does tfjni.
    Path stateless = tmp.resolve("multi");
    TestModels.copyTree(TestModels.modelPath("multi"), stateless, Set.of("variables"));
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND,
        () -> SavedModel.load(stateless).close(), "variables.index");
  }

  @Test
  void wrongTags() {
    Path path = TestModels.modelPath("multi");
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND,
        () -> SavedModel.load(path, SessionOptions.defaults(), "train").close(),
        "has no MetaGraphDef tagged {train}; its tag-sets are {serve}");
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND,
        () -> SavedModel.load(path, SessionOptions.defaults(), "serve", "gpu").close(),
        "tagged {gpu, serve}; its tag-sets are {serve}");
    assertFails(IllegalArgumentException.class,
        () -> SavedModel.load(path, SessionOptions.defaults()).close(), "tag");
  }

  /**
   * A graph that calls Python (tf.py_function's op) is refused at load: tfjni runs models without
   * Python, and on Windows the op's kernel would call into a Python that is not there. The
   * GraphDef is written by hand (GraphDef.node, field 1: a NodeDef of name "p", field 1, and op
   * "EagerPyFunc", field 2); make test also loads a SavedModel made by tf.py_function through the
   * CLI on Linux and under Wine.
   */
  @Test
  void aGraphThatCallsPythonIsRefusedAtLoad(@TempDir Path tmp) throws IOException {
    byte[] op = "EagerPyFunc".getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream node = new ByteArrayOutputStream();
    node.write(new byte[] {0x0a, 1, 'p', 0x12, (byte) op.length});
    node.write(op);
    ByteArrayOutputStream graph = new ByteArrayOutputStream();
    graph.write(new byte[] {0x0a, (byte) node.size()});
    node.writeTo(graph);
    Path file = tmp.resolve("calls_python.pb");
    Files.write(file, graph.toByteArray());
    assertTensorFlowError(TensorFlowException.Code.UNIMPLEMENTED,
        () -> GraphModel.load(file).close(),
        "the GraphDef calls Python at run time: op 'EagerPyFunc' (node 'p')", "tf.py_function");
  }

  @Test
  void graphModelBadFiles(@TempDir Path tmp) throws IOException {
    Path missing = tmp.resolve("missing.pb");
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND,
        () -> GraphModel.load(missing).close(), missing.toString());
    assertTensorFlowError(TensorFlowException.Code.NOT_FOUND, () -> GraphModel.load(tmp).close(),
        "not a file");
    Path garbage = tmp.resolve("garbage.pb");
    Files.write(garbage, "this is not a GraphDef \u0000\u00ff".getBytes(StandardCharsets.UTF_8));
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> GraphModel.load(garbage).close());
    assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
    assertTrue(e.getMessage().contains("GraphDef"), e.getMessage());
  }

  @Test
  void graphModelUnknownTensorNames() {
    try (GraphModel frozen = GraphModel.load(TestModels.modelPath("frozen"))) {
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> frozen.predictor(List.of("nope:0"), List.of("Identity:0")).close(), "'nope'");
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> frozen.predictor(List.of("x:0"), List.of("missing_output")).close(),
          "'missing_output'");
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> frozen.predictor(List.of("x:0"), List.of("Identity:7")).close(), "Identity",
          "no output 7");
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> frozen.predictor(List.of("x:0"), List.of()).close(), "output");
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> frozen.predictor(List.of("x:0", "x:0"), List.of("Identity:0")).close(), "twice");
      // Wrong dtype and shape against the graph's own shapes.
      try (Predictor predictor = frozen.predictor(List.of("x:0"), List.of("Identity:0"));
          Tensor ints = Tensor.of(new int[2], 1, 2);
          Tensor wide = Tensor.of(new float[3], 1, 3)) {
        assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
            () -> predictor.run(ints).close(), "x:0", "INT32");
        assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
            () -> predictor.run(wide).close(), "x:0", "[-1,2]");
      }
    }
  }

  // ------------------------------------------------------------ more kinds (docs/RELIABILITY.md)

  @Test
  void aStringTensorForANumericInput() {
    try (Tensor text = Tensor.ofStrings(new String[] {"1"}, 1)) {
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
          () -> multi.run("add", Map.of("a", text, "b", text)).close(),
          "input 'a' expects a FLOAT tensor of shape [-1], got STRING [1]");
    }
  }

  @Test
  void anEagerResultTooLargeForMemoryIsResourceExhausted() {
    // 2^60 floats (4 EiB): more than any address space, so the allocation fails at once and
    // nothing is touched, whatever the machine and its overcommit setting.
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray dims = m.create(new long[] {1L << 40, 1L << 20}, 2);
      TensorFlowException fill = assertTensorFlowError(
          TensorFlowException.Code.RESOURCE_EXHAUSTED,
          () -> m.opBuilder("Fill").addInput(dims).addInput(m.scalar(1f)).build(),
          "OOM when allocating tensor with shape[1099511627776,1048576] and type float");
      assertTrue(fill.getMessage().contains("CPU:0"), fill.getMessage());
      assertTensorFlowError(TensorFlowException.Code.RESOURCE_EXHAUSTED,
          () -> m.zeros(DataType.FLOAT, 1L << 40, 1L << 20), "OOM when allocating");
      // TensorFlow and the manager carry on.
      assertArrayEquals(new float[] {3, 3}, m.opBuilder("Fill")
          .addInput(m.create(new long[] {2}, 1)).addInput(m.scalar(3f)).build().toFloatArray());
    }
  }

  @Test
  void aFileWhereASavedModelDirectoryBelongs() {
    Path file = TestModels.modelPath("frozen");
    assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
        () -> SavedModel.load(file).close(), "'" + file + "' is a file, not a directory");
    Path pb = TestModels.modelPath("multi").resolve("saved_model.pb");
    assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
        () -> SavedModel.load(pb).close(), "give the directory that holds saved_model.pb",
        "('" + TestModels.modelPath("multi") + "')");
    // And a SavedModel's proto where a frozen GraphDef belongs.
    assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT,
        () -> GraphModel.load(TestModels.modelPath("multi").resolve("saved_model.pb")).close(),
        "Invalid GraphDef");
  }

  @Test
  void anUnknownAttributeNameIsIgnoredByTensorFlow() {
    // TensorFlow logs "NodeDef mentions attribute nope which is not in the op definition" and
    // runs the op; tfjni does not look attributes up per op (it would cost every eager op).
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.create(new float[] {1, 2}, 2);
      assertArrayEquals(new float[] {1, 2},
          m.opBuilder("Identity").addInput(x).setAttr("nope", 1L).build().toFloatArray());
    }
  }

  @Test
  void loneSurrogatesInJavaStringsBecomeQuestionMarks() {
    // Java's UTF-8 encoder replaces an unpaired surrogate with '?': ofBytes keeps any bytes.
    try (Tensor t = Tensor.ofStrings(new String[] {"a\uD800b", "\uDC00"}, 2)) {
      assertBytesArraysEqual(new byte[][] {{'a', '?', 'b'}, {'?'}}, t.toBytesArray());
      assertArrayEquals(new String[] {"a?b", "?"}, t.toStringArray());
    }
  }

  private static void assertBytesArraysEqual(byte[][] expected, byte[][] actual) {
    assertEquals(expected.length, actual.length);
    for (int i = 0; i < expected.length; i++) {
      assertArrayEquals(expected[i], actual[i], "element " + i);
    }
  }

  @Test
  void theSharedEagerContextCannotBeClosed() {
    assertFails(IllegalStateException.class, () -> EagerContext.shared().close(),
        "the shared context lives as long as the process");
    try (NDManager m = NDManager.newBaseManager()) {
      assertArrayEquals(new float[] {2}, m.create(new float[] {1}, 1).add(1f).toFloatArray());
    }
  }

  @Test
  void gpuOptionsOnACpuOnlyTensorFlowAreAcceptedAndIgnored() {
    SessionOptions gpu = SessionOptions.defaults().gpuVisibleDevices("7").gpuAllowGrowth(true)
        .gpuMemoryFraction(0.25);
    try (SavedModel model = SavedModel.load(TestModels.modelPath("shapes"), gpu, "serve");
        Tensor x = Tensor.scalar(3f);
        RunResult result = model.run("square", Map.of("x", x))) {
      assertArrayEquals(new float[] {9f}, result.get("y").toFloatArray());
    }
    try (EagerContext context = EagerContext.create(gpu, false,
        EagerContext.DevicePlacement.SILENT)) {
      assertTrue(context.devices().stream().allMatch(d -> d.endsWith("CPU:0")),
          String.valueOf(context.devices()));
    }
  }

  // ------------------------------------------------------------ session options

  @Test
  void sessionOptionsRejectBadValues() {
    SessionOptions options = SessionOptions.defaults();
    assertFails(IllegalArgumentException.class, () -> options.intraOpThreads(-1), "-1");
    assertFails(IllegalArgumentException.class, () -> options.interOpThreads(-2), "-2");
    assertFails(IllegalArgumentException.class,
        () -> options.addSessionInterOpThreadPool(-3, "pool"), "-3");
    assertFails(IllegalArgumentException.class, () -> options.gpuMemoryFraction(Double.NaN),
        "NaN");
    assertFails(IllegalArgumentException.class, () -> options.gpuMemoryFraction(-0.5), "-0.5");
    assertFails(IllegalArgumentException.class,
        () -> options.gpuMemoryFraction(Double.POSITIVE_INFINITY), "Infinity");
    // Rejected values leave the options as they were: they still load a model.
    try (SavedModel model = SavedModel.load(TestModels.modelPath("shapes"), options, "serve");
        Tensor x = Tensor.scalar(4f);
        RunResult result = model.run("square", Map.of("x", x))) {
      assertArrayEquals(new float[] {16f}, result.get("y").toFloatArray());
    }
  }

  @Test
  void unparseableRawConfigProto() {
    SessionOptions options = SessionOptions.defaults().rawConfigProto(new byte[] {(byte) 0xff,
        (byte) 0xff, (byte) 0xff});
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> SavedModel.load(TestModels.modelPath("multi"), options, "serve").close());
    assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
    assertThrows(TensorFlowException.class,
        () -> GraphModel.load(TestModels.modelPath("frozen"), options).close());
  }

  private static byte[] configProto(String name) {
    for (JsonNode config : TestModels.manifest().path("config_protos")) {
      if (config.path("name").asText().equals(name)) {
        return Base64.getDecoder().decode(config.path("bytes").asText());
      }
    }
    throw new AssertionError("no config proto '" + name + "' in the manifest");
  }

  @Test
  void sessionOptionsStillGiveTheRightAnswer() {
    byte[] raw = configProto("single_thread_soft_placement");
    assertTrue(raw.length > 0);
    Map<String, SessionOptions> variants = Map.of(
        "intra 1, inter 1", SessionOptions.defaults().intraOpThreads(1).interOpThreads(1),
        "per-session threads", SessionOptions.defaults().usePerSessionThreads(true)
            .intraOpThreads(2),
        "session inter-op pools", SessionOptions.defaults()
            .addSessionInterOpThreadPool(2, "tfjni_bad_input_test_pool")
            .addSessionInterOpThreadPool(1, null),
        "raw ConfigProto", SessionOptions.defaults().rawConfigProto(raw),
        "raw ConfigProto and fields", SessionOptions.defaults().rawConfigProto(raw)
            .intraOpThreads(2).allowSoftPlacement(true).gpuAllowGrowth(true)
            .gpuMemoryFraction(0.5));
    JsonNode call = TestModels.testCase("digits_batch7").path("calls").get(0);
    JsonNode frozenCall = TestModels.testCase("frozen_tanh_batch4").path("calls").get(0);
    for (Map.Entry<String, SessionOptions> variant : variants.entrySet()) {
      String what = variant.getKey();
      try (SavedModel model = SavedModel.load(TestModels.modelPath("digits"), variant.getValue(),
          SavedModel.DEFAULT_TAG)) {
        Map<String, Tensor> inputs = TestModels.tensors(call.path("inputs"));
        try (RunResult result = model.run(call.path("signature").asText(), inputs)) {
          TestModels.assertTensor(call.path("outputs").path("output_0"), result.get("output_0"),
              false, what);
        } finally {
          inputs.values().forEach(Tensor::close);
        }
      }
      try (GraphModel model = GraphModel.load(TestModels.modelPath("frozen"), variant.getValue());
          Predictor predictor = model.predictor(List.of("x:0"), List.of("Identity:0"));
          Tensor x = TestModels.tensor(frozenCall.path("inputs").path("x:0"));
          RunResult result = predictor.run(x)) {
        TestModels.assertTensor(frozenCall.path("outputs").path("Identity:0"), result.get(0),
            false, what + " (GraphModel)");
      }
    }
  }
}
