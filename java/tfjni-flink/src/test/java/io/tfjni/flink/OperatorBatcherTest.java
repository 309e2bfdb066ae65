package io.tfjni.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfjni.Predictor;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.numpy.Npy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's batcher alone, with a delay no test waits for (ten minutes), so that only a full
 * batch or a close ends a wait: queued records share one run, and a close fails what is queued.
 */
@ExtendWith(TestModels.NoLeaks.class)
class OperatorBatcherTest {
  private static final Duration NEVER = Duration.ofMinutes(10);

  private static OperatorBatcher digitsBatcher(Predictor predictor, int maxBatchSize) {
    return new OperatorBatcher(predictor, java.util.Map.of(), maxBatchSize, NEVER,
        "tfjni-batching digits (1/2)");
  }

  /** A record's answer completes on the batching thread, named for the operator's subtask. */
  @Test
  void theBatchingThreadIsNamedForItsOperator() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("digits"));
        Predictor predictor = model.predictor("serving_default")) {
      OperatorBatcher batcher = digitsBatcher(predictor, 1);
      String thread = batcher.submit(new Object[] {new float[64]})
          .thenApply(prediction -> Thread.currentThread().getName()).get();
      batcher.close();
      assertEquals("tfjni-batching digits (1/2)", thread);
    }
  }

  @Test
  void recordsQueuedTogetherShareOneRunAndGetTheirOwnRows() throws Exception {
    float[] images;
    float[] python;
    try (Tensor x = Npy.read(TestModels.dir().resolve("digits_holdout_images.npy"));
        Tensor p = Npy.read(TestModels.dir().resolve("digits_holdout_probs.npy"))) {
      images = x.toFloatArray();
      python = p.toFloatArray();
    }
    try (SavedModel model = SavedModel.load(TestModels.modelPath("digits"));
        Predictor predictor = model.predictor("serving_default")) {
      OperatorBatcher batcher = digitsBatcher(predictor, 16);
      List<CompletableFuture<Prediction>> answers = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        float[] pixels = new float[64];
        System.arraycopy(images, i * 64, pixels, 0, 64);
        answers.add(batcher.submit(new Object[] {pixels}));
      }
      // The first answer comes with its batch; the close waits for the batch being run and
      // fails any record left queued, so a batcher that ran fewer at once fails here, not hangs.
      answers.get(0).get();
      batcher.close();
      for (int i = 0; i < 16; i++) {
        float[] probabilities = answers.get(i).get().floats("output_0");
        for (int c = 0; c < 10; c++) {
          float expected = python[i * 10 + c];
          assertEquals(expected, probabilities[c], 1e-6 + 1e-5 * Math.abs(expected),
              "digit " + i + " class " + c);
        }
      }
      assertEquals(1, batcher.batchesRun(), "16 records, a batch of 16: one run");
    }
  }

  @Test
  void closingFailsTheRecordsStillQueued() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("digits"));
        Predictor predictor = model.predictor("serving_default")) {
      OperatorBatcher batcher = digitsBatcher(predictor, 16);
      List<CompletableFuture<Prediction>> answers = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        answers.add(batcher.submit(new Object[] {new float[64]}));
      }
      batcher.close();
      for (CompletableFuture<Prediction> answer : answers) {
        ExecutionException failed = assertThrows(ExecutionException.class, answer::get);
        assertInstanceOf(IllegalStateException.class, failed.getCause());
        // As the function's callback sees it: the exception itself, not wrapped in another.
        assertInstanceOf(IllegalStateException.class,
            answer.handle((prediction, failure) -> failure).get());
      }
      assertEquals(0, batcher.batchesRun());
      ExecutionException late = assertThrows(ExecutionException.class,
          () -> batcher.submit(new Object[] {new float[64]}).get());
      assertInstanceOf(IllegalStateException.class, late.getCause());
    }
  }

  /**
   * The async operator's capacity is what bounds the records in flight: more records than the
   * core batcher's default queue (1,024 rows) all queue, none is refused, and a close fails them
   * as it fails any queued record.
   */
  @Test
  void asManyRecordsQueueAsTheOperatorHandsOver() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("digits"));
        Predictor predictor = model.predictor("serving_default")) {
      OperatorBatcher batcher = digitsBatcher(predictor, 4096);
      List<CompletableFuture<Prediction>> answers = new ArrayList<>();
      for (int i = 0; i < 1500; i++) {
        answers.add(batcher.submit(new Object[] {new float[64]}));
      }
      batcher.close();
      for (CompletableFuture<Prediction> answer : answers) {
        ExecutionException failed = assertThrows(ExecutionException.class, answer::get);
        assertInstanceOf(IllegalStateException.class, failed.getCause());
      }
    }
  }

  /** A row that does not fit fails its own record's future; submit itself does not throw. */
  @Test
  void aRowThatDoesNotFitFailsItsRecordOnly() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("digits"));
        Predictor predictor = model.predictor("serving_default")) {
      OperatorBatcher batcher = digitsBatcher(predictor, 16);
      CompletableFuture<Prediction> shortRow = batcher.submit(new Object[] {new float[63]});
      ExecutionException failed = assertThrows(ExecutionException.class, shortRow::get);
      assertInstanceOf(IllegalArgumentException.class, failed.getCause());
      batcher.close();
    }
  }
}
