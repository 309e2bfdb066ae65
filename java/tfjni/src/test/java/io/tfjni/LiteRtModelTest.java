package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * LiteRT models converted from the test models (scripts/goldens/litert_models.py): signatures and outputs
 * against TensorFlow Python's (the manifest's {@code litert} section, within its recorded
 * tolerance), the Predictor contract, damaged files, bad inputs, closing, and leaks.
 */
@ExtendWith(TestModels.NoLeaks.class)
class LiteRtModelTest {
  static JsonNode litert() {
    return TestModels.manifest().path("litert");
  }

  private static Path path(String model) {
    return TestModels.dir().resolve(litert().path("models").path(model).path("path").asText());
  }

  /** The case's inputs in the predictor's order (close them). */
  static Tensor[] inputs(Predictor predictor, JsonNode c) {
    List<Tensor> tensors = new ArrayList<>();
    for (TensorSpec spec : predictor.inputs()) {
      tensors.add(TestModels.tensor(c.path("inputs").path(spec.key())));
    }
    return tensors.toArray(new Tensor[0]);
  }

  static void close(Tensor[] tensors) {
    for (Tensor t : tensors) {
      t.close();
    }
  }

  /** Every output as TensorFlow Python's, within the case's tolerance (absolute). */
  static void assertOutputs(JsonNode c, RunResult result) {
    double tolerance = c.path("tolerance").asDouble();
    assertTrue(tolerance > 0 && tolerance < 1e-3, "tolerance " + tolerance);
    assertEquals(TestModels.fieldNames(c.path("outputs")).stream().sorted().toList(),
        result.keys().stream().sorted().toList());
    for (String key : result.keys()) {
      JsonNode expected = c.path("outputs").path(key);
      Tensor actual = result.get(key);
      String what = c.path("name").asText() + " output " + key;
      assertEquals(DataType.FLOAT, actual.dataType(), what);
      assertArrayEquals(TestModels.shape(expected), actual.shape(), what);
      float[] got = actual.toFloatArray();
      try (Tensor want = TestModels.tensor(expected)) {
        float[] wanted = want.toFloatArray();
        for (int i = 0; i < wanted.length; i++) {
          if (!(Math.abs((double) got[i] - wanted[i]) <= tolerance)) {
            fail(what + "[" + i + "] = " + got[i] + ", TensorFlow Python gave " + wanted[i]
                + " (tolerance " + tolerance + ")");
          }
        }
      }
    }
  }

  @Test
  void signaturesAreTheConvertersOwn() {
    for (String name : TestModels.fieldNames(litert().path("models"))) {
      JsonNode expected = litert().path("models").path(name).path("signatures");
      try (LiteRtModel model = LiteRtModel.load(path(name), 1)) {
        assertEquals(TestModels.fieldNames(expected).stream().sorted().toList(),
            model.signatures().stream().map(Signature::key).sorted().toList(), name);
        for (Signature signature : model.signatures()) {
          JsonNode want = expected.path(signature.key());
          for (String side : List.of("inputs", "outputs")) {
            List<TensorSpec> specs = side.equals("inputs") ? signature.inputs()
                : signature.outputs();
            assertEquals(TestModels.fieldNames(want.path(side)).size(), specs.size());
            for (TensorSpec spec : specs) {
              JsonNode w = want.path(side).path(spec.key());
              String what = name + " " + signature.key() + " " + spec.key();
              assertFalse(w.isMissingNode(), what);
              assertEquals(TestModels.dataType(w.path("dtype").asText()), spec.dataType(), what);
              assertArrayEquals(TestModels.shape(w), spec.shape(), what);
            }
          }
        }
      }
    }
  }

  @Test
  void everyCaseAgreesWithTensorFlowPythonThroughAReusedResult() {
    assertTrue(litert().path("cases").size() >= 5);
    for (JsonNode c : litert().path("cases")) {
      try (LiteRtModel model = LiteRtModel.load(path(c.path("model").asText()), 2)) {
        Predictor predictor = model.predictor(c.path("signature").asText());
        Tensor[] in = inputs(predictor, c);
        try (RunResult result = predictor.newResult()) {
          for (int i = 0; i < 3; i++) {
            predictor.run(in, result);
            assertOutputs(c, result);
          }
        } finally {
          close(in);
        }
      }
    }
  }

  /** Two inputs that do not commute: a feed in the wrong order would not match. */
  @Test
  void inputsFollowThePredictorsOrder() {
    JsonNode c = TestModels.liteRtCase("litert_half_plus_two_plus_offset");
    try (LiteRtModel model = LiteRtModel.load(path("half_plus_two"), 1)) {
      Predictor predictor = model.predictor("plus_offset");
      assertEquals(model.signature("plus_offset").inputs(), predictor.inputs());
      Tensor[] in = inputs(predictor, c);
      try (RunResult result = predictor.run(in)) {
        assertOutputs(c, result);
      } finally {
        close(in);
      }
    }
  }

  /** The one-input fast path refills the same output tensor object. */
  @Test
  void singleInputRunsRefillTheResult() {
    JsonNode c = TestModels.liteRtCase("litert_digits_b1");
    try (LiteRtModel model = LiteRtModel.load(path("digits_b1"), 1);
        Tensor images = TestModels.tensor(c.path("inputs").path("images"));
        RunResult result = model.predictor("serving_default").newResult()) {
      Predictor predictor = model.predictor("serving_default");
      try (RunResult own = predictor.newResult()) {
        predictor.run(images, own);
        Tensor first = own.get(0);
        predictor.run(images, own);
        assertTrue(first == own.get(0), "the result holds the same Tensor object");
        assertOutputs(c, own);
      }
      assertThrows(IllegalArgumentException.class, () -> predictor.run(images, result),
          "a result of another predictor");
    }
  }

  @Test
  void runOptionsAndMetadataAreTensorFlowsOnly() {
    try (LiteRtModel model = LiteRtModel.load(path("dense_b4"), 1);
        Tensor x = Tensor.allocate(DataType.FLOAT, 4, 2)) {
      Predictor predictor = model.predictor("serving_default");
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> predictor.withOptions(RunOptions.defaults().withTimeoutMillis(1000)));
      assertEquals(TensorFlowException.Code.UNIMPLEMENTED, e.code());
      try (RunResult result = predictor.newResult()) {
        e = assertThrows(TensorFlowException.class,
            () -> predictor.runWithMetadata(new Tensor[] {x}, result));
        assertEquals(TensorFlowException.Code.UNIMPLEMENTED, e.code());
        TestModels.assertMentions(e, "LiteRT");
      }
    }
  }

  @Test
  void wrongInputsAreRefusedWithTheirSpec() {
    try (LiteRtModel model = LiteRtModel.load(path("digits_b1"), 1);
        Tensor batchOfTwo = Tensor.allocate(DataType.FLOAT, 2, 8, 8, 1);
        Tensor doubles = Tensor.allocate(DataType.DOUBLE, 1, 8, 8, 1)) {
      Predictor predictor = model.predictor("serving_default");
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> predictor.run(batchOfTwo).close());
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
      TestModels.assertMentions(e, "'images'", "[1,8,8,1]", "[2,8,8,1]");
      e = assertThrows(TensorFlowException.class, () -> predictor.run(doubles).close());
      TestModels.assertMentions(e, "'images'", "FLOAT", "DOUBLE");
      assertThrows(IllegalArgumentException.class, () -> predictor.run().close());
      assertThrows(IllegalArgumentException.class, () -> model.predictor("nope"));
    }
  }

  @Test
  void damagedFilesAreClearExceptions(@TempDir Path dir) throws IOException {
    byte[] good = Files.readAllBytes(path("digits_b1"));
    byte[] noise = new byte[good.length];
    new Random(1234).nextBytes(noise);
    byte[] identifier = good.clone();
    identifier[4] = 'X';  // "TFL3" at bytes 4..7 names the format
    List<byte[]> damaged = List.of(Arrays.copyOf(good, good.length / 2), noise, identifier,
        new byte[0]);
    for (int i = 0; i < damaged.size(); i++) {
      Path file = dir.resolve("damaged" + i + ".tflite");
      Files.write(file, damaged.get(i));
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> LiteRtModel.load(file, 1).close(), file.toString());
      TestModels.assertMentions(e, "LiteRT", file.toString());
    }
    TensorFlowException missing = assertThrows(TensorFlowException.class,
        () -> LiteRtModel.load(dir.resolve("none.tflite"), 1));
    assertEquals(TensorFlowException.Code.NOT_FOUND, missing.code());
    assertThrows(IllegalArgumentException.class, () -> LiteRtModel.load(path("digits_b1"), 0));
    assertThrows(NullPointerException.class, () -> LiteRtModel.load(null, 1));
  }

  @Test
  void useAfterCloseAndDoubleClose() {
    LiteRtModel model = LiteRtModel.load(path("dense_b4"), 1);
    Predictor predictor = model.predictor("serving_default");
    Predictor early = model.predictor("serving_default");
    early.close();
    early.close();
    try (Tensor x = Tensor.allocate(DataType.FLOAT, 4, 2)) {
      assertThrows(IllegalStateException.class, () -> early.run(x));
      predictor.run(x).close();
      model.close();
      assertTrue(predictor.isClosed(), "closing a model closes its predictors");
      assertThrows(IllegalStateException.class, () -> predictor.run(x));
      assertThrows(IllegalStateException.class, () -> model.predictor("serving_default"));
      model.close();
    }
  }

  /** Closing the model while threads run waits for them and rejects what comes after. */
  @Test
  void closeUnderLoadWaitsForRunsInFlight() throws Exception {
    JsonNode c = TestModels.liteRtCase("litert_digits_b4");
    LiteRtModel model = LiteRtModel.load(path("digits_b4"), 1);
    Predictor predictor = model.predictor("serving_default");
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch running = new CountDownLatch(threads);
    AtomicInteger rejected = new AtomicInteger();
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      workers.add(pool.submit(() -> {
        Tensor[] in = inputs(predictor, c);
        try (RunResult result = predictor.newResult()) {
          for (int i = 0; ; i++) {
            try {
              predictor.run(in, result);
            } catch (IllegalStateException e) {
              TestModels.assertMentions(e, "closed");
              rejected.incrementAndGet();
              return null;
            }
            assertOutputs(c, result);
            if (i == 3) {
              running.countDown();
            }
          }
        } finally {
          close(in);
        }
      }));
    }
    assertTrue(running.await(120, TimeUnit.SECONDS));
    model.close();
    for (Future<?> worker : workers) {
      worker.get(120, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertEquals(threads, rejected.get());
  }

  @Test
  void liveObjectsCountTheModel() {
    long before = TensorFlow.liveObjects().liteRtModels();
    try (LiteRtModel model = LiteRtModel.load(path("dense_b4"), 1)) {
      assertEquals(before + 1, TensorFlow.liveObjects().liteRtModels());
      model.predictor("serving_default");
    }
    assertEquals(before, TensorFlow.liveObjects().liteRtModels());
  }
}
