package io.tfjni.batching;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.AllocationTest;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.TestModels;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The batching predictor's semantics, one by one. A batch is made deterministic without timing:
 * the delay is an hour, so a batch runs exactly when its rows reach the maximum batch size.
 * Expected values come from arithmetic (multi's add: a + b; checked's double: 2x) or from
 * TensorFlow Python (the digits case of the manifest).
 */
@ExtendWith(TestModels.NoLeaks.class)
class BatchingPredictorTest {
  private static final Duration NEVER = Duration.ofHours(1);

  private static BatchingPredictor.Builder waitForFullBatches(Predictor predictor, int rows) {
    return BatchingPredictor.builder(predictor).maxBatchSize(rows).maxDelay(NEVER)
        .callerLeads(false);
  }

  private static float[] sumOf(CompletableFuture<BatchedResult> answer) throws Exception {
    try (BatchedResult result = answer.get()) {
      return result.get("sum").toFloatArray();
    }
  }

  private static Throwable failureOf(CompletableFuture<BatchedResult> answer) {
    return assertThrows(ExecutionException.class, answer::get).getCause();
  }

  @Test
  void eachCallerGetsItsOwnRowsOfOneRun() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        BatchingPredictor batcher = waitForFullBatches(add, 4).build()) {
      List<CompletableFuture<BatchedResult>> answers = new ArrayList<>();
      try (Tensor a1 = Tensor.of(new float[] {1}, 1); Tensor b1 = Tensor.of(new float[] {10}, 1);
          Tensor a2 = Tensor.of(new float[] {2, 3}, 2);
          Tensor b2 = Tensor.of(new float[] {20, 30}, 2);
          Tensor a3 = Tensor.of(new float[] {4}, 1);
          Tensor b3 = Tensor.of(new float[] {40}, 1)) {
        answers.add(batcher.submit(a1, b1));
        answers.add(batcher.submit(a2, b2));
        answers.add(batcher.submit(a3, b3));
      }
      // The inputs are closed: the batch must have copied them.
      assertArrayEquals(new float[] {11}, sumOf(answers.get(0)));
      assertArrayEquals(new float[] {22, 33}, sumOf(answers.get(1)));
      assertArrayEquals(new float[] {44}, sumOf(answers.get(2)));
      assertEquals(1, batcher.batchesRun());
      assertEquals(4, batcher.rowsRun());
    }
  }

  /**
   * predictorsBySize: a run of exactly a listed size goes through its own predictor, any other
   * size through the batcher's. The predictor of size 2 is closed on purpose, so a run that goes
   * through it fails and one that does not succeeds (a + b).
   */
  @Test
  void aBatchOfAListedSizeRunsThroughItsOwnPredictor() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add")) {
      Predictor ofTwo = model.predictor("add");
      ofTwo.close();
      try (BatchingPredictor batcher = waitForFullBatches(add, 2)
          .predictorsBySize(java.util.Map.of(2, ofTwo)).build();
          Tensor a1 = Tensor.of(new float[] {1}, 1); Tensor b1 = Tensor.of(new float[] {10}, 1);
          Tensor a2 = Tensor.of(new float[] {2}, 1); Tensor b2 = Tensor.of(new float[] {20}, 1)) {
        CompletableFuture<BatchedResult> first = batcher.submit(a1, b1);
        CompletableFuture<BatchedResult> second = batcher.submit(a2, b2);
        assertInstanceOf(IllegalStateException.class, failureOf(first));
        assertInstanceOf(IllegalStateException.class, failureOf(second));
      }
      try (Predictor open = model.predictor("add");
          BatchingPredictor batcher = waitForFullBatches(add, 3)
              .predictorsBySize(java.util.Map.of(2, ofTwo, 3, open)).build();
          Tensor a = Tensor.of(new float[] {1, 2, 3}, 3);
          Tensor b = Tensor.of(new float[] {10, 20, 30}, 3)) {
        assertArrayEquals(new float[] {11, 22, 33}, sumOf(batcher.submit(a, b)));
      }
    }
  }

  @Test
  void aPredictorBySizeMustTakeAndGiveWhatTheBatchersDoes() {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        Predictor swapped = model.predictor("add", List.of("b", "a"), List.of());
        Predictor scale = model.predictor("scale")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(add).predictorsBySize(java.util.Map.of(4, swapped)));
      TestModels.assertMentions(e, "batch size 4", "inputs [b, a]", "[a, b]");
      e = assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(add).predictorsBySize(java.util.Map.of(1, scale)));
      TestModels.assertMentions(e, "batch size 1", "[x]");
      assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(add).predictorsBySize(java.util.Map.of(0, add)));
    }
  }

  @ParameterizedTest(name = "rows given as {0}")
  @ValueSource(strings = {"tensors", "arrays"})
  void digitsRowsFromManyCallersMatchTensorFlowPython(String rowsGivenAs) throws Exception {
    JsonNode call = TestModels.testCase("digits_batch7").path("calls").get(0);
    JsonNode images = call.path("inputs").elements().next();
    String outputKey = call.path("outputs").fieldNames().next();
    ByteBuffer pixels = ByteBuffer.wrap(TestModels.data(images)).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer probs = ByteBuffer.wrap(TestModels.data(call.path("outputs").path(outputKey)))
        .order(ByteOrder.LITTLE_ENDIAN);
    int rows = (int) TestModels.shape(images)[0];
    try (SavedModel model = SavedModel.load(TestModels.modelPath("digits"));
        Predictor predictor = model.predictor("serving_default");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(rows)
            .maxDelay(NEVER).callerLeads(true).build()) {
      ExecutorService callers = Executors.newFixedThreadPool(rows);
      List<Future<float[]>> answers = new ArrayList<>();
      for (int r = 0; r < rows; r++) {
        float[] image = new float[64];
        pixels.asFloatBuffer().get(r * 64, image);
        // Blocking callers on threads of their own: the first finds the model idle and leads.
        answers.add(callers.submit(() -> {
          if (rowsGivenAs.equals("arrays")) {
            try (BatchedResult result = batcher.predictRow((Object) image)) {
              return result.get(0).toFloatArray();
            }
          }
          try (Tensor row = Tensor.of(image, 1, 8, 8, 1);
              BatchedResult result = batcher.predict(row)) {
            return result.get(0).toFloatArray();
          }
        }));
      }
      callers.shutdown();
      for (int r = 0; r < rows; r++) {
        float[] expected = new float[10];
        probs.asFloatBuffer().get(r * 10, expected);
        assertArrayEquals(expected, answers.get(r).get(), 1e-6f, "row " + r);
      }
      assertEquals(1, batcher.batchesRun());
    }
  }

  @Test
  void aRowThatDoesNotFitFailsAloneAndItsBatchRuns() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        BatchingPredictor batcher = waitForFullBatches(predictor, 2).build();
        Tensor first = Tensor.of(new float[] {1, 2}, 1, 2);
        Tensor wide = Tensor.of(new float[] {1, 2, 3}, 1, 3);
        Tensor ints = Tensor.of(new int[] {1, 2}, 1, 2);
        Tensor flat = Tensor.of(new float[] {1, 2}, 2);
        Tensor second = Tensor.of(new float[] {-3, 0.5f}, 1, 2)) {
      CompletableFuture<BatchedResult> firstAnswer = batcher.submit(first);
      IllegalArgumentException shape =
          assertThrows(IllegalArgumentException.class, () -> batcher.submit(wide));
      assertEquals("input 'x' has shape [1, 3], the signature wants [-1, 2]", shape.getMessage());
      IllegalArgumentException dtype =
          assertThrows(IllegalArgumentException.class, () -> batcher.submit(ints));
      assertEquals("input 'x' is INT32, the signature wants FLOAT", dtype.getMessage());
      IllegalArgumentException rank =
          assertThrows(IllegalArgumentException.class, () -> batcher.submit(flat));
      assertTrue(rank.getMessage().startsWith("input 'x' has shape [2]"), rank.getMessage());
      try (BatchedResult own = batcher.predict(second)) {
        assertArrayEquals(new float[] {-6, 1}, own.get("doubled").toFloatArray());
      }
      try (BatchedResult own = firstAnswer.get()) {
        assertArrayEquals(new float[] {2, 4}, own.get("doubled").toFloatArray());
      }
    }
  }

  @Test
  void aFailingRunFailsExactlyTheCallersOfItsBatch() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        BatchingPredictor batcher = waitForFullBatches(predictor, 3).build()) {
      List<CompletableFuture<BatchedResult>> failing = new ArrayList<>();
      float[][] rows = {{1, 2}, {Float.NaN, 0}, {3, 4}};
      for (float[] row : rows) {
        try (Tensor x = Tensor.of(row, 1, 2)) {
          failing.add(batcher.submit(x));
        }
      }
      for (CompletableFuture<BatchedResult> answer : failing) {
        TensorFlowException e = assertInstanceOf(TensorFlowException.class, failureOf(answer));
        assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
        assertTrue(e.getMessage().contains("row is not finite"), e.getMessage());
      }
      // The next batch has its own fate, and a blocking caller sees TensorFlow's code too.
      List<CompletableFuture<BatchedResult>> fine = new ArrayList<>();
      try (Tensor x = Tensor.of(new float[] {5, 6}, 1, 2)) {
        fine.add(batcher.submit(x));
        fine.add(batcher.submit(x));
        try (BatchedResult own = batcher.predict(x)) {
          assertArrayEquals(new float[] {10, 12}, own.get(0).toFloatArray());
        }
      }
      for (CompletableFuture<BatchedResult> answer : fine) {
        try (BatchedResult own = answer.get()) {
          assertArrayEquals(new float[] {10, 12}, own.get(0).toFloatArray());
        }
      }
      try (Tensor good = Tensor.of(new float[] {1, 1}, 1, 2);
          Tensor bad = Tensor.of(new float[] {Float.POSITIVE_INFINITY, 1}, 1, 2)) {
        CompletableFuture<BatchedResult> goodAnswer = batcher.submit(good);
        CompletableFuture<BatchedResult> badAnswer = batcher.submit(bad);
        TensorFlowException blocking =
            assertThrows(TensorFlowException.class, () -> batcher.predict(good));
        assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, blocking.code());
        assertInstanceOf(TensorFlowException.class, failureOf(goodAnswer));
        assertInstanceOf(TensorFlowException.class, failureOf(badAnswer));
      }
    }
  }

  /**
   * Listeners hear each batch before its callers are answered (its callers, rows, and whether it
   * failed) and each caller's start; one that throws changes no caller's answer.
   */
  @Test
  void listenersHearEveryBatchAndOneThatThrowsChangesNoAnswer() throws Exception {
    List<String> heard = java.util.Collections.synchronizedList(new ArrayList<>());
    BatchListener recording = new BatchListener() {
      @Override
      public void onCallerStarted(long waitNanos) {
        heard.add(waitNanos >= 0 ? "caller" : "negative wait " + waitNanos);
      }

      @Override
      public void onRun(int callers, int rows, long runNanos, boolean failed) {
        heard.add("run of " + callers + " callers, " + rows + " rows" + (failed ? ", failed" : ""));
      }
    };
    BatchListener throwing = new BatchListener() {
      @Override
      public void onCallerStarted(long waitNanos) {
        throw new IllegalStateException("a broken listener");
      }

      @Override
      public void onRun(int callers, int rows, long runNanos, boolean failed) {
        throw new IllegalStateException("a broken listener");
      }
    };
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        BatchingPredictor batcher = waitForFullBatches(predictor, 3).listener(throwing)
            .listener(recording).build();
        Tensor one = Tensor.of(new float[] {1, 2}, 1, 2);
        Tensor two = Tensor.of(new float[] {3, 4, 5, 6}, 2, 2);
        Tensor notFinite = Tensor.of(new float[] {Float.NaN, 0}, 1, 2)) {
      CompletableFuture<BatchedResult> first = batcher.submit(one);
      CompletableFuture<BatchedResult> second = batcher.submit(two);
      assertArrayEquals(new float[] {2, 4}, first.get().get(0).toFloatArray());
      first.get().close();
      assertArrayEquals(new float[] {6, 8, 10, 12}, second.get().get(0).toFloatArray());
      second.get().close();
      List<CompletableFuture<BatchedResult>> failing = List.of(batcher.submit(one),
          batcher.submit(notFinite), batcher.submit(one));
      for (CompletableFuture<BatchedResult> answer : failing) {
        assertInstanceOf(TensorFlowException.class, failureOf(answer));
      }
      assertEquals(List.of("caller", "caller", "run of 2 callers, 3 rows", "caller", "caller",
          "caller", "run of 3 callers, 3 rows, failed"), heard);
    }
  }

  /**
   * Listeners hear which predictor each run goes through: its rows, its size after padding to the
   * allowed sizes, and whether that size has a predictor of its own (here only 4).
   */
  @Test
  void listenersHearWhichPredictorEachRunGoesThrough() throws Exception {
    List<String> chosen = java.util.Collections.synchronizedList(new ArrayList<>());
    BatchListener recording = new BatchListener() {
      @Override
      public void onCallerStarted(long waitNanos) {}

      @Override
      public void onRun(int callers, int rows, long runNanos, boolean failed) {}

      @Override
      public void onPredictorChosen(int rows, int batchSize, boolean ofItsSize) {
        chosen.add(rows + " rows as " + batchSize + (ofItsSize ? ", its own" : ", the batcher's"));
      }
    };
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        Predictor ofFour = model.predictor("double");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(4)
            .allowedBatchSizes(2, 4).predictorsBySize(java.util.Map.of(4, ofFour))
            .listener(recording).build();
        Tensor one = Tensor.of(new float[] {1, 2}, 1, 2);
        Tensor three = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 3, 2);
        Tensor four = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8}, 4, 2)) {
      for (Tensor rows : new Tensor[] {one, three, four}) {
        try (BatchedResult result = batcher.predict(rows)) {
          float[] doubled = rows.toFloatArray();
          for (int i = 0; i < doubled.length; i++) {
            doubled[i] *= 2;
          }
          assertArrayEquals(doubled, result.get(0).toFloatArray());
        }
      }
    }
    assertEquals(List.of("1 rows as 2, the batcher's", "3 rows as 4, its own",
        "4 rows as 4, its own"), chosen);
  }

  @Test
  void closeFailsTheWaitingCallersAndRefusesNewOnes() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add")) {
      BatchingPredictor batcher = waitForFullBatches(add, 8).build();
      List<CompletableFuture<BatchedResult>> waiting = new ArrayList<>();
      try (Tensor a = Tensor.of(new float[] {1}, 1); Tensor b = Tensor.of(new float[] {2}, 1)) {
        for (int i = 0; i < 3; i++) {
          waiting.add(batcher.submit(a, b));
        }
        batcher.close();
        for (CompletableFuture<BatchedResult> answer : waiting) {
          IllegalStateException e =
              assertInstanceOf(IllegalStateException.class, failureOf(answer));
          assertEquals("the batching predictor was closed before these rows ran", e.getMessage());
        }
        assertThrows(IllegalStateException.class, () -> batcher.submit(a, b));
        assertThrows(IllegalStateException.class, () -> batcher.predict(a, b));
        batcher.close();  // idempotent
      }
    }
  }

  @Test
  void anOutputThatIsNotBatchMajorIsRefusedByName() {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor scale = model.predictor("scale")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(scale).build());
      assertTrue(e.getMessage().startsWith("output 'total' has shape [], which is not"
          + " batch-major"), e.getMessage());
    }
  }

  @Test
  void anInputOfUnknownRankIsRefusedByName() {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor anyRank = model.predictor("any_rank")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(anyRank).build());
      assertTrue(e.getMessage().startsWith("input 'x' has an unknown rank"), e.getMessage());
    }
  }

  @Test
  void aFullQueueRejectsAtOnce() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add")) {
      BatchingPredictor batcher = waitForFullBatches(add, 8).queueCapacity(3).build();
      try (Tensor a = Tensor.of(new float[] {1, 2}, 2); Tensor b = Tensor.of(new float[] {1, 2}, 2);
          Tensor a1 = Tensor.of(new float[] {1}, 1); Tensor b1 = Tensor.of(new float[] {1}, 1)) {
        CompletableFuture<BatchedResult> first = batcher.submit(a, b);
        RejectedExecutionException full =
            assertThrows(RejectedExecutionException.class, () -> batcher.submit(a, b));
        assertEquals("the batching queue is full: 2 rows wait, the capacity is 3; the model"
            + " cannot keep up", full.getMessage());
        CompletableFuture<BatchedResult> fits = batcher.submit(a1, b1);
        assertThrows(RejectedExecutionException.class, () -> batcher.predict(a1, b1));
        batcher.close();
        assertInstanceOf(IllegalStateException.class, failureOf(first));
        assertInstanceOf(IllegalStateException.class, failureOf(fits));
      }
    }
  }

  @Test
  void aCallerPastItsTimeoutGetsDeadlineExceeded() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        BatchingPredictor batcher = waitForFullBatches(add, 2)
            .callTimeout(Duration.ofMillis(20)).build();
        Tensor a = Tensor.of(new float[] {1}, 1); Tensor b = Tensor.of(new float[] {2}, 1)) {
      TensorFlowException e = assertThrows(TensorFlowException.class, () -> batcher.predict(a, b));
      assertEquals(TensorFlowException.Code.DEADLINE_EXCEEDED, e.code());
      assertInstanceOf(TimeoutException.class, failureOf(batcher.submit(a, b)));
    }
  }

  @Test
  void anAnswerWhoseCallerGaveUpIsFreed() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        BatchingPredictor batcher = waitForFullBatches(add, 3).build();
        Tensor a = Tensor.of(new float[] {1}, 1); Tensor b = Tensor.of(new float[] {2}, 1)) {
      // Answers go out in batch order, and a callback runs on the answering thread: the second
      // caller gives up after its rows ran and before its answer arrives.
      AtomicReference<CompletableFuture<BatchedResult>> second = new AtomicReference<>();
      CompletableFuture<BatchedResult> first = batcher.submit(a, b);
      CompletableFuture<Boolean> gaveUp = first.thenApply(result -> second.get().cancel(false));
      second.set(batcher.submit(a, b));
      CompletableFuture<BatchedResult> third = batcher.submit(a, b);  // the batch is full: it runs
      assertTrue(gaveUp.get());
      assertTrue(second.get().isCancelled());
      assertArrayEquals(new float[] {3}, sumOf(first));
      assertArrayEquals(new float[] {3}, sumOf(third));
      assertEquals(3, batcher.rowsRun());
      // The second answer's tensors were freed where it was refused: NoLeaks checks the count.
    }
  }

  @Test
  void aLoneCallerRunsItsOwnRowsAtOnceOnItsThread() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        BatchingPredictor batcher = BatchingPredictor.builder(add).build()) {
      for (int call = 1; call <= 3; call++) {
        try (Tensor a = Tensor.of(new float[] {call, 2 * call}, 2);
            Tensor b = Tensor.of(new float[] {10, 20}, 2);
            BatchedResult own = batcher.predict(a, b)) {
          assertArrayEquals(new long[] {2}, own.get("sum").shape());
          assertArrayEquals(new float[] {call + 10, 2 * call + 20}, own.get("sum").toFloatArray());
        }
      }
      try (BatchedResult own = batcher.predictRow(new float[] {4}, new float[] {40})) {
        assertArrayEquals(new float[] {44}, own.get("sum").toFloatArray());
      }
      assertEquals(4, batcher.runsAlone());
      assertEquals(4, batcher.batchesRun());
      assertEquals(7, batcher.rowsRun());
    }
  }

  @Test
  void aCallerReusingAResultGetsItsOwnRowsAloneOrFromABatch() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add")) {
      // Alone: the run's outputs are the result's.
      try (BatchingPredictor batcher = BatchingPredictor.builder(add).build();
          RunResult into = batcher.newResult()) {
        for (int call = 1; call <= 3; call++) {
          try (Tensor a = Tensor.of(new float[] {call, 2 * call}, 2);
              Tensor b = Tensor.of(new float[] {10, 20}, 2)) {
            assertSame(into, batcher.predict(new Tensor[] {a, b}, into));
          }
          assertArrayEquals(new float[] {call + 10, 2 * call + 20},
              into.get("sum").toFloatArray());
        }
        assertEquals(3, batcher.runsAlone());
      }
      // In a batch with another caller's row: its own row only, copied out of the batch.
      try (BatchingPredictor batcher = waitForFullBatches(add, 2).build();
          RunResult into = batcher.newResult()) {
        for (int call = 1; call <= 2; call++) {
          CompletableFuture<BatchedResult> other;
          try (Tensor a = Tensor.of(new float[] {100 * call}, 1);
              Tensor b = Tensor.of(new float[] {1}, 1)) {
            other = batcher.submit(a, b);
          }
          try (Tensor a = Tensor.of(new float[] {call}, 1);
              Tensor b = Tensor.of(new float[] {2}, 1)) {
            batcher.predict(new Tensor[] {a, b}, into);
          }
          assertArrayEquals(new long[] {1}, into.get("sum").shape());
          assertArrayEquals(new float[] {call + 2}, into.get("sum").toFloatArray());
          assertArrayEquals(new float[] {100 * call + 1}, sumOf(other));
        }
        assertEquals(0, batcher.runsAlone());
        assertEquals(2, batcher.batchesRun());
      }
    }
  }

  @Test
  void aResultOfAnotherPredictorOrAClosedOneIsRefused() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        Predictor otherAdd = model.predictor("add");
        BatchingPredictor batcher = BatchingPredictor.builder(add).build();
        RunResult foreign = otherAdd.newResult();
        Tensor a = Tensor.of(new float[] {1}, 1);
        Tensor b = Tensor.of(new float[] {2}, 1)) {
      Tensor[] inputs = {a, b};
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> batcher.predict(inputs, foreign));
      assertTrue(e.getMessage().contains("newResult()"), e.getMessage());
      RunResult closed = batcher.newResult();
      closed.close();
      assertThrows(IllegalStateException.class, () -> batcher.predict(inputs, closed));
      assertThrows(NullPointerException.class, () -> batcher.predict(inputs, null));
      assertEquals(0, batcher.batchesRun());
    }
  }

  /**
   * A lone caller's rows have no batch-mates: its runs all go through the unbatched lane, never
   * through a try of batching (10,000 calls take several of the policy's 20 ms windows), and make
   * no garbage.
   */
  @Test
  void aLoneCallerRunsOnlyThroughTheLaneWithoutGarbageAndEveryRunCounts() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        BatchingPredictor batcher = BatchingPredictor.builder(add).build();
        RunResult into = batcher.newResult();
        Tensor a = Tensor.of(new float[] {1.5f}, 1);
        Tensor b = Tensor.of(new float[] {2}, 1)) {
      Tensor[] inputs = {a, b};
      for (int call = 0; call < 10_000; call++) {
        batcher.predict(inputs, into);
      }
      assertEquals(10_000, batcher.laneRuns());
      assertEquals(10_000, batcher.batchesRun());
      long bytes = AllocationTest.fewestBytesAllocated(() -> batcher.predict(inputs, into), 20);
      assertEquals(0, bytes, "bytes allocated in the fewest of the rounds of calls");
      assertArrayEquals(new float[] {3.5f}, into.get("sum").toFloatArray());
      long runs = batcher.batchesRun();
      for (int i = 0; i < 1000; i++) {
        batcher.predict(inputs, into);
      }
      assertEquals(runs + 1000, batcher.batchesRun(), "every run counted");
      assertEquals(batcher.batchesRun(), batcher.rowsRun(), "one row per run");
      assertEquals(batcher.batchesRun(), batcher.laneRuns());
    }
  }

  @Test
  void closeWaitsForTheRunsOfTheUnbatchedLane() throws Exception {
    CountDownLatch inRun = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean holdNextRun = new AtomicBoolean();
    BatchListener holding = new BatchListener() {
      @Override
      public void onCallerStarted(long waitNanos) {}

      @Override
      public void onRun(int callers, int rows, long runNanos, boolean failed) {}

      @Override
      public void onPredictorChosen(int rows, int batchSize, boolean ofItsSize) {
        if (holdNextRun.getAndSet(false)) {  // on the caller's thread, inside its run
          inRun.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    };
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        Tensor a = Tensor.of(new float[] {1.5f}, 1);
        Tensor b = Tensor.of(new float[] {2}, 1)) {
      BatchingPredictor batcher = BatchingPredictor.builder(add).listener(holding).build();
      try {
        for (int call = 0; !batcher.laneOpen(); call++) {
          assertTrue(call < 10_000_000, "the unbatched lane never opened");
          batcher.predict(a, b).close();
        }
        // Nothing else runs: the mode cannot change before this caller is admitted by the lane.
        holdNextRun.set(true);
        Future<float[]> caller = threads.submit(() -> {
          try (BatchedResult own = batcher.predict(a, b)) {
            return own.get("sum").toFloatArray();
          }
        });
        inRun.await();
        AtomicBoolean released = new AtomicBoolean();
        AtomicBoolean releasedBeforeClosed = new AtomicBoolean();
        Thread closer = new Thread(() -> {
          batcher.close();
          releasedBeforeClosed.set(released.get());
        });
        closer.start();
        // Once the closer waits (or, if close did not wait for the run, has ended), let the run
        // end.
        while (closer.isAlive() && closer.getState() != Thread.State.WAITING) {
          Thread.onSpinWait();
        }
        released.set(true);
        release.countDown();
        closer.join();
        assertTrue(releasedBeforeClosed.get(), "close returned while a lane run was in flight");
        assertArrayEquals(new float[] {3.5f}, caller.get());
      } finally {
        release.countDown();
        batcher.close();
      }
    } finally {
      threads.shutdown();
    }
  }

  @Test
  void aLoneCallersFailingRunFailsItWithTensorFlowsErrorAndTheNextRuns() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).build();
        Tensor bad = Tensor.of(new float[] {Float.NaN, 1}, 1, 2);
        Tensor good = Tensor.of(new float[] {1.5f, -2}, 1, 2)) {
      TensorFlowException e = assertThrows(TensorFlowException.class, () -> batcher.predict(bad));
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
      assertTrue(e.getMessage().contains("row is not finite"), e.getMessage());
      try (BatchedResult own = batcher.predict(good)) {
        assertArrayEquals(new float[] {3, -4}, own.get(0).toFloatArray());
      }
      assertEquals(2, batcher.runsAlone());
      assertEquals(2, batcher.batchesRun());
    }
  }

  @Test
  void aCallerRunsAloneOnlyWhereItsBatchWouldRunAtOnceWithItsRowsAsTheyAre() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        Tensor one = Tensor.of(new float[] {1, 2}, 1, 2);
        Tensor two = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2)) {
      // A delay waits for batch-mates: the rows queue.
      try (BatchingPredictor batcher = BatchingPredictor.builder(predictor)
          .maxDelay(Duration.ofNanos(1)).build();
          BatchedResult own = batcher.predict(one)) {
        assertArrayEquals(new float[] {2, 4}, own.get(0).toFloatArray());
        assertEquals(0, batcher.runsAlone());
      }
      // A size that is not allowed is padded, in a batch; an allowed one runs as it is.
      try (BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(4)
          .allowedBatchSizes(2, 4).build()) {
        try (BatchedResult own = batcher.predict(one)) {
          assertArrayEquals(new float[] {2, 4}, own.get(0).toFloatArray());
        }
        assertEquals(0, batcher.runsAlone());
        try (BatchedResult own = batcher.predict(two)) {
          assertArrayEquals(new float[] {2, 4, 6, 8}, own.get(0).toFloatArray());
        }
        assertEquals(1, batcher.runsAlone());
      }
    }
  }

  @Test
  void paddedBatchesGiveEachCallerOnlyItsRows() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(8)
            .allowedBatchSizes(4, 8).maxDelay(Duration.ZERO).build();
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 3, 2);
        BatchedResult result = batcher.predict(x)) {
      assertArrayEquals(new long[] {3, 2}, result.get(0).shape());
      assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12}, result.get(0).toFloatArray());
    }
  }

  @Test
  void theBuilderRefusesInconsistentOptions() {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add")) {
      IllegalArgumentException sizes = assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(add).maxBatchSize(16).allowedBatchSizes(4, 8).build());
      assertEquals("the largest allowed batch size (8) must equal the maximum batch size (16)",
          sizes.getMessage());
      assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(add).maxBatchSize(0));
      assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(add).maxConcurrentBatches(0));
      assertThrows(IllegalArgumentException.class,
          () -> BatchingPredictor.builder(add).maxDelay(Duration.ofMillis(-1)));
      try (Tensor a = Tensor.of(new float[] {1, 2, 3}, 3); Tensor b = Tensor.of(new float[3], 3);
          BatchingPredictor batcher = BatchingPredictor.builder(add).maxBatchSize(2).build()) {
        IllegalArgumentException tooMany =
            assertThrows(IllegalArgumentException.class, () -> batcher.submit(a, b));
        assertEquals("a request holds 3 rows; it must hold 1 to 2 (the maximum batch size)",
            tooMany.getMessage());
      }
    }
  }
}
