package io.tfjni.batching;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.InvalidRowException;
import io.tfjni.Predictor;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What embedders of the batching predictor (a stream operator, a SQL function) use: rows given
 * as Java arrays, a batching thread of their own name, a queue that never refuses. Expected
 * values come from arithmetic (multi's add: a + b; checked's double: 2x) or from TensorFlow
 * Python (the manifest's strings case; digits rows as arrays: BatchingPredictorTest).
 */
@ExtendWith(TestModels.NoLeaks.class)
class BatchingEmbedderTest {
  private static final Duration NEVER = Duration.ofHours(1);

  @Test
  void rowsAsArraysAndAsTensorsShareOneRun() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add");
        BatchingPredictor batcher = BatchingPredictor.builder(add).maxBatchSize(4)
            .maxDelay(NEVER).build()) {
      CompletableFuture<BatchedResult> first = batcher.submitRow(new float[] {1},
          new float[] {10});
      CompletableFuture<BatchedResult> pair;
      try (Tensor a = Tensor.of(new float[] {2, 3}, 2);
          Tensor b = Tensor.of(new float[] {20, 30}, 2)) {
        pair = batcher.submit(a, b);
      }
      CompletableFuture<BatchedResult> last = batcher.submitRow(new float[] {4},
          new float[] {40});
      try (BatchedResult own = first.get()) {
        assertArrayEquals(new long[] {1}, own.get("sum").shape());
        assertArrayEquals(new float[] {11}, own.get("sum").toFloatArray());
      }
      try (BatchedResult own = pair.get()) {
        assertArrayEquals(new float[] {22, 33}, own.get("sum").toFloatArray());
      }
      try (BatchedResult own = last.get()) {
        assertArrayEquals(new float[] {44}, own.get("sum").toFloatArray());
      }
      assertEquals(1, batcher.batchesRun());
    }
  }

  @Test
  void stringRowsAsArraysMatchTensorFlowPython() throws Exception {
    JsonNode call = TestModels.testCase("strings_transform").path("calls").get(0);
    byte[][] input = TestModels.strings(call.path("inputs").path("s"));
    byte[][] joined = TestModels.strings(call.path("outputs").path("joined"));
    try (SavedModel model = SavedModel.load(TestModels.modelPath("strings"));
        Predictor predictor = model.predictor("transform");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(2)
            .maxDelay(NEVER).build()) {
      // Raw bytes (not all of them UTF-8) and a string of the same bytes decoded.
      CompletableFuture<BatchedResult> bytes = batcher.submitRow((Object) new byte[][] {input[4]});
      String text = new String(input[2], java.nio.charset.StandardCharsets.UTF_8);
      try (BatchedResult own = batcher.predictRow((Object) new String[] {text})) {
        TestModels.assertBytesArrays(new byte[][] {joined[2]}, own.get("joined").toBytesArray(),
            "joined");
      }
      try (BatchedResult own = bytes.get()) {
        TestModels.assertBytesArrays(new byte[][] {joined[4]}, own.get("joined").toBytesArray(),
            "joined");
      }
    }
  }

  @Test
  void anArrayThatDoesNotFitFailsAloneNamingItsInput() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(2)
            .maxDelay(NEVER).build()) {
      CompletableFuture<BatchedResult> first = batcher.submitRow((Object) new float[] {1, 2});
      IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
          () -> batcher.submitRow((Object) new int[] {1, 2}));
      assertEquals("input 'x' is a int[], the signature wants FLOAT (a float[])",
          type.getMessage());
      IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
          () -> batcher.submitRow((Object) new float[] {1, 2, 3}));
      assertEquals("input 'x' has 3 elements, a row of the signature's [-1, 2] has 2",
          length.getMessage());
      IllegalArgumentException strings = assertThrows(IllegalArgumentException.class,
          () -> batcher.submitRow((Object) new String[] {"1", "2"}));
      assertEquals("input 'x' is a String[], the signature wants FLOAT (a float[])",
          strings.getMessage());
      IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
          () -> batcher.submitRow(new float[] {1, 2}, new float[] {1, 2}));
      assertEquals("expected 1 inputs [x], got 2", count.getMessage());
      InvalidRowException missing = assertThrows(InvalidRowException.class,
          () -> batcher.submitRow((Object) null));
      assertEquals("input 'x' is null", missing.getMessage());
      try (BatchedResult own = batcher.predictRow((Object) new float[] {-3, 0.5f})) {
        assertArrayEquals(new float[] {-6, 1}, own.get("doubled").toFloatArray());
      }
      try (BatchedResult own = first.get()) {
        assertArrayEquals(new float[] {2, 4}, own.get("doubled").toFloatArray());
      }
    }
    try (SavedModel model = SavedModel.load(TestModels.modelPath("strings"));
        Predictor predictor = model.predictor("transform");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).build()) {
      IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
          () -> batcher.submitRow((Object) new byte[] {'a'}));
      assertEquals("input 's' is a byte[], the signature wants STRING (a String[] or byte[][])",
          type.getMessage());
      IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
          () -> batcher.submitRow((Object) new String[] {"a", "b"}));
      assertEquals("input 's' has 2 elements, a row of the signature's [-1] has 1",
          length.getMessage());
    }
  }

  @Test
  void theBatchingThreadHasTheGivenName() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add")) {
      for (String name : new String[] {null, "scoring-operator-3"}) {
        BatchingPredictor.Builder builder = BatchingPredictor.builder(add).maxBatchSize(2)
            .maxDelay(NEVER);
        if (name != null) {
          builder.threadName(name);
        }
        try (BatchingPredictor batcher = builder.build()) {
          // A future completes on the thread that ran its batch: the batching thread here. The
          // callback is chained before the second row fills the batch, so it cannot run on this
          // thread on a future already completed.
          CompletableFuture<String> ranOn = batcher.submitRow(new float[] {1}, new float[] {2})
              .thenApply(result -> {
                result.close();
                return Thread.currentThread().getName();
              });
          batcher.submitRow(new float[] {3}, new float[] {4}).get().close();
          assertEquals(name == null ? "tfjni-batching" : name, ranOn.get());
        }
      }
    }
  }

  @Test
  void anUnboundedQueueNeverRejects() throws Exception {
    int requests = 5000;  // beyond the default capacity of 1024 rows
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add")) {
      BatchingPredictor bounded = BatchingPredictor.builder(add).maxBatchSize(requests)
          .maxDelay(NEVER).build();
      BatchingPredictor unbounded = BatchingPredictor.builder(add).maxBatchSize(requests)
          .maxDelay(NEVER).unboundedQueue().build();
      try {
        List<CompletableFuture<BatchedResult>> waiting = new ArrayList<>();
        for (int i = 0; i < 1024; i++) {
          waiting.add(bounded.submitRow(new float[] {i}, new float[] {i}));
        }
        assertThrows(RejectedExecutionException.class,
            () -> bounded.submitRow(new float[] {0}, new float[] {0}));
        for (int i = 0; i < requests - 1; i++) {
          waiting.add(unbounded.submitRow(new float[] {i}, new float[] {i}));
        }
        // The last row fills the batch: every queued row runs, and each gets its own sum.
        try (BatchedResult last = unbounded.predictRow(new float[] {1}, new float[] {2})) {
          assertArrayEquals(new float[] {3}, last.get(0).toFloatArray());
        }
        for (int i = 0; i < requests - 1; i++) {
          try (BatchedResult own = waiting.get(1024 + i).get()) {
            assertArrayEquals(new float[] {2f * i}, own.get(0).toFloatArray());
          }
        }
        assertEquals(1, unbounded.batchesRun());
        bounded.close();
        ExecutionException closed =
            assertThrows(ExecutionException.class, () -> waiting.get(0).get());
        assertInstanceOf(IllegalStateException.class, closed.getCause());
      } finally {
        bounded.close();
        unbounded.close();
      }
    }
  }
}
