package io.tfjni.batching;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.Predictor;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * String rows through the batching predictor: the strings model's transform (upper, byte length
 * and the input plus "_suffix" of each string) against TensorFlow Python's answers in the
 * manifest, with the rows spread over callers on threads of their own and run as one batch.
 */
@ExtendWith(TestModels.NoLeaks.class)
class BatchingStringsTest {
  private static final Duration NEVER = Duration.ofHours(1);

  /** The manifest's strings_transform call: the input and every output, by key. */
  private record Golden(byte[][] input, byte[][] upper, int[] length, byte[][] joined) {
    static Golden load() {
      JsonNode call = TestModels.testCase("strings_transform").path("calls").get(0);
      JsonNode outputs = call.path("outputs");
      ByteBuffer lengths = ByteBuffer.wrap(TestModels.data(outputs.path("length")))
          .order(ByteOrder.LITTLE_ENDIAN);
      int[] length = new int[lengths.remaining() / 4];
      lengths.asIntBuffer().get(length);
      return new Golden(TestModels.strings(call.path("inputs").path("s")),
          TestModels.strings(outputs.path("upper")), length,
          TestModels.strings(outputs.path("joined")));
    }

    /** Asserts that {@code result} holds rows {@code from} to {@code to} of every output. */
    void check(BatchedResult result, int from, int to) {
      String rows = "rows " + from + " to " + to;
      TestModels.assertBytesArrays(Arrays.copyOfRange(upper, from, to),
          result.get("upper").toBytesArray(), "upper, " + rows);
      assertArrayEquals(Arrays.copyOfRange(length, from, to), result.get("length").toIntArray(),
          "length, " + rows);
      TestModels.assertBytesArrays(Arrays.copyOfRange(joined, from, to),
          result.get("joined").toBytesArray(), "joined, " + rows);
      assertArrayEquals(new long[] {to - from}, result.get("joined").shape(), rows);
    }
  }

  @Test
  void stringRowsFromManyCallersMatchTensorFlowPythonInOneRun() throws Exception {
    Golden golden = Golden.load();
    int rows = golden.input().length;
    // Callers of one, two, one and one rows: the rows of a request stay together.
    int[][] requests = {{0, 1}, {1, 3}, {3, 4}, {4, rows}};
    try (SavedModel model = SavedModel.load(TestModels.modelPath("strings"));
        Predictor predictor = model.predictor("transform");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(rows)
            .maxDelay(NEVER).build()) {
      ExecutorService callers = Executors.newFixedThreadPool(requests.length);
      List<Future<?>> answers = new ArrayList<>();
      for (int[] request : requests) {
        byte[][] strings = Arrays.copyOfRange(golden.input(), request[0], request[1]);
        answers.add(callers.submit(() -> {
          try (Tensor s = Tensor.ofBytes(strings, strings.length);
              BatchedResult result = batcher.predict(s)) {
            golden.check(result, request[0], request[1]);
          }
          return null;
        }));
      }
      callers.shutdown();
      for (Future<?> answer : answers) {
        answer.get();
      }
      assertEquals(1, batcher.batchesRun(), "the rows of every caller in one run");
    }
  }

  @Test
  void aRowOfTheWrongTypeFailsAloneAndItsBatchRuns() throws Exception {
    Golden golden = Golden.load();
    try (SavedModel model = SavedModel.load(TestModels.modelPath("strings"));
        Predictor predictor = model.predictor("transform");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(2)
            .maxDelay(NEVER).build();
        Tensor first = Tensor.ofBytes(new byte[][] {golden.input()[0]}, 1);
        Tensor floats = Tensor.of(new float[] {1}, 1);
        Tensor matrix = Tensor.ofBytes(new byte[][] {golden.input()[1]}, 1, 1);
        Tensor second = Tensor.ofBytes(new byte[][] {golden.input()[2]}, 1)) {
      CompletableFuture<BatchedResult> firstAnswer = batcher.submit(first);
      IllegalArgumentException dtype =
          assertThrows(IllegalArgumentException.class, () -> batcher.submit(floats));
      assertEquals("input 's' is FLOAT, the signature wants STRING", dtype.getMessage());
      IllegalArgumentException rank =
          assertThrows(IllegalArgumentException.class, () -> batcher.submit(matrix));
      assertEquals("input 's' has shape [1, 1], the signature wants [-1]", rank.getMessage());
      try (BatchedResult own = batcher.predict(second)) {
        golden.check(own, 2, 3);
      }
      try (BatchedResult own = firstAnswer.get()) {
        golden.check(own, 0, 1);
      }
      assertEquals(1, batcher.batchesRun());
    }
    try (SavedModel model = SavedModel.load(TestModels.modelPath("checked"));
        Predictor predictor = model.predictor("double");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).build();
        Tensor strings = Tensor.ofStrings(new String[] {"1", "2"}, 1, 2)) {
      IllegalArgumentException dtype =
          assertThrows(IllegalArgumentException.class, () -> batcher.submit(strings));
      assertEquals("input 'x' is STRING, the signature wants FLOAT", dtype.getMessage());
    }
  }

  @Test
  void paddingRowsAreEmptyStringsAndNoCallerSeesThem() throws Exception {
    Golden golden = Golden.load();
    try (SavedModel model = SavedModel.load(TestModels.modelPath("strings"));
        Predictor predictor = model.predictor("transform");
        BatchingPredictor batcher = BatchingPredictor.builder(predictor).maxBatchSize(8)
            .allowedBatchSizes(4, 8).build();
        Tensor three = Tensor.ofBytes(Arrays.copyOfRange(golden.input(), 0, 3), 3)) {
      BatchLayout layout = new BatchLayout(predictor);
      QueuedRows request = layout.rowsOf(new Tensor[] {three}, 8);
      BatchLayout.copyRows(new Tensor[] {three}, request);
      Tensor[] batch = layout.concatenate(List.of(request, request), 8);
      try {
        assertArrayEquals(new long[] {8}, batch[0].shape());
        byte[][] expected = new byte[8][];
        for (int i = 0; i < 6; i++) {
          expected[i] = golden.input()[i % 3];
        }
        expected[6] = new byte[0];
        expected[7] = new byte[0];
        TestModels.assertBytesArrays(expected, batch[0].toBytesArray(), "the padded batch");
      } finally {
        BatchLayout.closeAll(batch);
      }
      try (BatchedResult own = batcher.predict(three)) {  // three rows, run as four
        golden.check(own, 0, 3);
      }
    }
  }
}
