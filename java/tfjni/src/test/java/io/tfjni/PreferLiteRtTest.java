package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * SavedModels loaded with {@link SessionOptions#preferLiteRt(int)}: digits and half_plus_two were
 * converted by scripts/goldens/litert_convert.py (what {@code tfjni convert} runs) into their
 * {@code litert/} layout, at batch 1 and 4 (digits' serving_default) and 3 (every signature of
 * half_plus_two; regress_x_to_y, a string input, recorded as not converting). Values through the
 * LiteRT path against TensorFlow Python's (the manifest's {@code litert} cases, within their
 * tolerance), the fallback to TensorFlow (against arithmetic: y = 0.5 x + 2), damaged layouts,
 * closing, and leaks.
 */
@ExtendWith(TestModels.NoLeaks.class)
class PreferLiteRtTest {
  private static final SessionOptions PREFER = SessionOptions.defaults().preferLiteRt(1);

  private static Path model(String name) {
    return TestModels.dir().resolve(name);
  }

  /** A LiteRT predictor's specs are static (the batch given); TensorFlow's leave it open. */
  private static boolean isStatic(Predictor predictor) {
    return predictor.inputs().stream().allMatch(s -> s.shape() != null
        && java.util.Arrays.stream(s.shape()).allMatch(d -> d >= 0));
  }

  private static long batchOf(JsonNode c) {
    for (JsonNode input : c.path("inputs")) {
      long[] shape = TestModels.shape(input);
      if (shape.length > 0) {
        return shape[0];
      }
    }
    throw new AssertionError("case " + c.path("name").asText() + " has no batched input");
  }

  @Test
  void convertedSignaturesRunOnLiteRtWithTensorFlowPythonsValues() {
    List<String> ran = new ArrayList<>();
    for (JsonNode c : LiteRtModelTest.litert().path("cases")) {
      JsonNode described = LiteRtModelTest.litert().path("models").path(c.path("model").asText());
      String source = described.path("source").asText();
      if (!described.path("path").asText().startsWith(source + "/litert/")) {
        continue; // converted with a shape of its own, not in a SavedModel's layout
      }
      String key = c.path("signature").asText();
      int batch = (int) batchOf(c);
      try (SavedModel saved = SavedModel.load(model(source), PREFER, SavedModel.DEFAULT_TAG)) {
        assertTrue(saved.liteRtBatchSizes(key).contains(batch), source + " " + key);
        Predictor predictor = saved.predictor(key, batch);
        assertTrue(isStatic(predictor), "not LiteRT's predictor: " + predictor.inputs());
        assertEquals(saved.signature(key).inputKeys(),
            predictor.inputs().stream().map(TensorSpec::key).toList());
        Tensor[] inputs = LiteRtModelTest.inputs(predictor, c);
        try (RunResult result = predictor.run(inputs)) {
          LiteRtModelTest.assertOutputs(c, result);
        } finally {
          LiteRtModelTest.close(inputs);
        }
      }
      ran.add(c.path("name").asText());
    }
    assertEquals(List.of("litert_digits_b1", "litert_digits_b4",
        "litert_half_plus_two_plus_offset"), ran);
  }

  @Test
  void theManifestReadsAsPythonWroteIt() {
    JsonNode conversions = LiteRtModelTest.litert().path("conversions");
    assertEquals(List.of("digits", "half_plus_two"), TestModels.fieldNames(conversions));
    int checked = 0;
    for (String source : TestModels.fieldNames(conversions)) {
      JsonNode signatures = conversions.path(source).path("manifest").path("signatures");
      LiteRtConversions read = LiteRtConversions.read(model(source));
      for (LiteRtConversions.Conversion c : read.all()) {
        JsonNode entry = signatures.path(c.signatureKey()).path("batch_sizes")
            .path(Integer.toString(c.batchSize()));
        assertFalse(entry.isMissingNode(), c.toString());
        assertEquals(entry.path("tensorflow_version").asText(), c.tensorFlowVersion());
        assertEquals(entry.has("file"), c.converted(), c.toString());
        if (c.converted()) {
          assertEquals(model(source).resolve("litert").resolve(entry.path("file").asText()),
              c.file());
          assertEquals(TestModels.fieldNames(entry.path("max_abs_difference")),
              List.copyOf(c.maxAbsDifference().keySet().stream().sorted().toList()));
          for (String output : c.maxAbsDifference().keySet()) {
            assertEquals(entry.path("max_abs_difference").path(output).asDouble(),
                c.maxAbsDifference().get(output));
            assertTrue(c.maxAbsDifference().get(output) < 1e-5, c.toString());
          }
        } else {
          assertEquals(entry.path("error").asText(), c.error());
        }
        checked++;
      }
    }
    assertEquals(2 + 3, checked); // digits at 1 and 4; half_plus_two's 3 signatures at 3
    LiteRtConversions.Conversion refused =
        LiteRtConversions.read(model("half_plus_two")).find("regress_x_to_y", 3).orElseThrow();
    assertFalse(refused.converted());
    TestModels.assertMentions(new IllegalStateException(refused.error()), "string");
  }

  @Test
  void sizesAndSignaturesWithoutAModelRunOnTensorFlow() {
    try (SavedModel saved = SavedModel.load(model("half_plus_two"), PREFER,
        SavedModel.DEFAULT_TAG)) {
      assertEquals(List.of(3), saved.liteRtBatchSizes("serving_default"));
      assertEquals(List.of(3), saved.liteRtBatchSizes("plus_offset"));
      assertEquals(List.of(), saved.liteRtBatchSizes("regress_x_to_y")); // did not convert
      assertTrue(isStatic(saved.predictor("serving_default", 3)));
      assertFalse(isStatic(saved.predictor("regress_x_to_y", 3)));
      for (int batch : new int[] {2, 3}) {
        Predictor predictor = saved.predictor("serving_default", batch);
        assertEquals(batch == 3, isStatic(predictor), "batch " + batch);
        float[] x = new float[batch];
        for (int i = 0; i < batch; i++) {
          x[i] = 1.5f * i - 4;
        }
        try (Tensor input = Tensor.of(x, batch, 1); RunResult result = predictor.run(input)) {
          float[] y = result.get("y").toFloatArray();
          for (int i = 0; i < batch; i++) {
            assertEquals(0.5f * x[i] + 2, y[i], "batch " + batch + " row " + i);
          }
        }
      }
    }
  }

  /**
   * liteRtPredictors (liteRtPredictor, for one size): one LiteRT predictor per converted size,
   * only for a predictor that feeds every input and fetches every output in key order (what a
   * LiteRT predictor does).
   */
  @Test
  void liteRtPredictorsBesideAPredictorInKeyOrderOnly() {
    try (SavedModel saved = SavedModel.load(model("half_plus_two"), PREFER,
        SavedModel.DEFAULT_TAG)) {
      Signature plusOffset = saved.signature("plus_offset");
      assertEquals(List.of("offset", "x"), plusOffset.inputKeys());
      java.util.Map<Integer, Predictor> inKeyOrder = saved.liteRtPredictors("plus_offset",
          plusOffset.inputKeys(), List.of());
      assertEquals(Set.of(3), inKeyOrder.keySet());
      assertTrue(isStatic(inKeyOrder.get(3)));
      assertEquals(inKeyOrder.keySet(), saved.liteRtPredictors("plus_offset",
          plusOffset.inputKeys(), plusOffset.outputKeys()).keySet());
      assertEquals(java.util.Map.of(), saved.liteRtPredictors("plus_offset",
          List.of("x", "offset"), List.of()));
      assertEquals(java.util.Map.of(), saved.liteRtPredictors("regress_x_to_y",
          saved.signature("regress_x_to_y").inputKeys(), List.of()));
      assertThrows(IllegalArgumentException.class,
          () -> saved.liteRtPredictors("nope", List.of(), List.of()));
      // One size: the same rule.
      assertTrue(isStatic(saved.liteRtPredictor("plus_offset", plusOffset.inputKeys(),
          List.of(), 3).orElseThrow()));
      assertTrue(saved.liteRtPredictor("plus_offset", plusOffset.inputKeys(), List.of(), 2)
          .isEmpty());
      assertTrue(saved.liteRtPredictor("plus_offset", List.of("x", "offset"), List.of(), 3)
          .isEmpty());
    }
    try (SavedModel saved = SavedModel.load(model("digits"))) {
      assertEquals(java.util.Map.of(), saved.liteRtPredictors("serving_default",
          List.of("images"), List.of()));
    }
  }

  @Test
  void withoutThePreferenceEverySizeRunsOnTensorFlow() {
    try (SavedModel saved = SavedModel.load(model("half_plus_two"))) {
      assertEquals(List.of(), saved.liteRtBatchSizes("serving_default"));
      assertFalse(isStatic(saved.predictor("serving_default", 3)));
    }
  }

  @Test
  void choosingLiteRtIsLogged() {
    Logger logger = Logger.getLogger("io.tfjni");
    ConcurrentLinkedQueue<LogRecord> records = new ConcurrentLinkedQueue<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        records.add(record);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(capture);
    try (SavedModel saved = SavedModel.load(model("digits"), PREFER, SavedModel.DEFAULT_TAG)) {
      saved.predictor("serving_default", 2);
      assertTrue(records.stream().noneMatch(r -> r.getLevel() == java.util.logging.Level.INFO),
          "TensorFlow's predictor was logged as LiteRT's");
      saved.predictor("serving_default", 4);
      saved.predictor("serving_default", 4);  // once per model: the second at DEBUG
      List<LogRecord> info = records.stream()
          .filter(r -> r.getLevel() == java.util.logging.Level.INFO).toList();
      assertEquals(1, info.size(), "INFO once per model, signature and size");
      LogRecord record = info.get(0);
      TestModels.assertMentions(new IllegalStateException(record.getMessage()),
          "'serving_default' at batch 4 runs on LiteRT",
          Path.of("litert", "serving_default", "batch-4.tflite").toString(), "TensorFlow 2.");
    } finally {
      logger.removeHandler(capture);
    }
  }

  @Test
  void closingTheSavedModelClosesItsLiteRtPredictors() {
    SavedModel saved = SavedModel.load(model("digits"), PREFER, SavedModel.DEFAULT_TAG);
    Predictor liteRt = saved.predictor("serving_default", 1);
    Predictor tensorFlow = saved.predictor("serving_default", 2);
    saved.close();
    assertTrue(liteRt.isClosed());
    assertTrue(tensorFlow.isClosed());
    assertThrows(IllegalStateException.class, () -> saved.predictor("serving_default", 1));
    try (Tensor images = Tensor.allocate(DataType.FLOAT, 1, 8, 8, 1)) {
      assertThrows(IllegalStateException.class, () -> liteRt.run(images));
    }
    saved.close(); // twice: nothing happens
    liteRt.close();
  }

  @Test
  void badArguments() {
    assertThrows(IllegalArgumentException.class, () -> SessionOptions.defaults().preferLiteRt(-1));
    try (SavedModel saved = SavedModel.load(model("digits"), PREFER, SavedModel.DEFAULT_TAG)) {
      assertThrows(IllegalArgumentException.class, () -> saved.predictor("serving_default", 0));
      assertThrows(IllegalArgumentException.class, () -> saved.predictor("nope", 1));
      assertThrows(IllegalArgumentException.class, () -> saved.liteRtBatchSizes("nope"));
      assertThrows(NullPointerException.class, () -> saved.predictor(null, 1));
    }
  }

  /** half_plus_two copied with its layout, to damage. */
  private static Path copyOfHalfPlusTwo(Path tmp) {
    Path copy = tmp.resolve("half_plus_two");
    TestModels.copyTree(model("half_plus_two"), copy, Set.of());
    return copy;
  }

  @Test
  void aDamagedModelFileFailsTheLoadNamingIt(@TempDir Path tmp) throws IOException {
    Path copy = copyOfHalfPlusTwo(tmp);
    Path file = copy.resolve("litert/plus_offset/batch-3.tflite");
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 3)); // cut short
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> SavedModel.load(copy, PREFER, SavedModel.DEFAULT_TAG));
    TestModels.assertMentions(e, "'plus_offset' at batch 3", file.toString());

    Files.delete(file);
    e = assertThrows(TensorFlowException.class,
        () -> SavedModel.load(copy, PREFER, SavedModel.DEFAULT_TAG));
    assertEquals(TensorFlowException.Code.NOT_FOUND, e.code());
    TestModels.assertMentions(e, file.toString());

    // Without the preference the layout is not read at all.
    try (SavedModel saved = SavedModel.load(copy)) {
      assertFalse(isStatic(saved.predictor("plus_offset", 3)));
    }
  }

  @Test
  void aModelOfAnotherSignatureOrSizeIsRefused(@TempDir Path tmp) throws IOException {
    Path copy = copyOfHalfPlusTwo(tmp);
    Path plusOffset = copy.resolve("litert/plus_offset/batch-3.tflite");
    byte[] original = Files.readAllBytes(plusOffset);
    Files.copy(copy.resolve("litert/serving_default/batch-3.tflite"), plusOffset,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> SavedModel.load(copy, PREFER, SavedModel.DEFAULT_TAG));
    assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
    TestModels.assertMentions(e, "'plus_offset' at batch 3", "does not fit",
        "it has signatures [serving_default]");
    Files.write(plusOffset, original);

    // The manifest says batch 2, the file takes 3.
    Path manifest = copy.resolve("litert/conversion.json");
    ObjectMapper json = new ObjectMapper();
    ObjectNode root = (ObjectNode) json.readTree(manifest.toFile());
    ObjectNode sizes = (ObjectNode) root.path("signatures").path("serving_default")
        .path("batch_sizes");
    sizes.set("2", sizes.remove("3"));
    json.writeValue(manifest.toFile(), root);
    e = assertThrows(TensorFlowException.class,
        () -> SavedModel.load(copy, PREFER, SavedModel.DEFAULT_TAG));
    assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
    TestModels.assertMentions(e, "'serving_default' at batch 2", "input x: FLOAT [3, 1]");
  }

  @Test
  void aMalformedManifestFailsTheLoadNamingIt(@TempDir Path tmp) throws IOException {
    Path copy = copyOfHalfPlusTwo(tmp);
    Path manifest = copy.resolve("litert/conversion.json");
    Files.writeString(manifest, Files.readString(manifest).replace("\"format\": 1",
        "\"format\": 7"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SavedModel.load(copy, PREFER, SavedModel.DEFAULT_TAG));
    TestModels.assertMentions(e, manifest.toString(), "format");
    Files.writeString(manifest, "{\"format\": 1, \"signatures\": {\"serving_default\":"
        + " {\"batch_sizes\": {\"3\": {\"error\": \"a\"}, \"03\": {\"error\": \"b\"}}}}}");
    e = assertThrows(IllegalArgumentException.class, () -> LiteRtConversions.read(copy));
    TestModels.assertMentions(e, manifest.toString(), "batch 3 twice");
    Files.writeString(manifest, "{\"format\": 1, \"signatures\": ");
    e = assertThrows(IllegalArgumentException.class, () -> LiteRtConversions.read(copy));
    TestModels.assertMentions(e, manifest.toString(), "not JSON");
  }

  @Test
  void aSavedModelWithoutALayoutHasNoConversions() {
    LiteRtConversions none = LiteRtConversions.read(model("multi"));
    assertEquals(List.of(), none.all());
    assertEquals(model("multi").resolve("litert").resolve("conversion.json"), none.manifest());
    try (SavedModel saved = SavedModel.load(model("multi"), PREFER, SavedModel.DEFAULT_TAG)) {
      assertEquals(List.of(), saved.liteRtBatchSizes("add"));
      assertArrayEquals(new long[] {-1}, saved.predictor("add", 4).inputs().get(0).shape());
    }
  }
}
