package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.MalformedModelException;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import io.tfjni.LiveObjects;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import io.tfjni.batching.BatchingPredictor;
import io.tfjni.numpy.Npy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The model options BatchMaxSize / BatchMaxDelayMicros: predicts from many threads, each with
 * its own DJL predictor, run as one TensorFlow run, and each gets TensorFlow Python's answer for
 * its own image. The delay is an hour, so the batch runs exactly when all its rows are there.
 */
class BatchingModelTest {
  private static final int CALLERS = 8;

  private static Criteria<float[], float[]> digits(Object batchMaxSize) {
    return Criteria.builder().setTypes(float[].class, float[].class)
        .optModelPath(TestModels.modelPath("digits")).optEngine("TensorFlow")
        .optTranslator(ModelTest.digitsTranslator())
        .optOption("BatchMaxSize", String.valueOf(batchMaxSize))
        .optOption("BatchMaxDelayMicros", "3600000000").build();
  }

  @Test
  void predictsFromManyThreadsRunAsOneBatch() throws Exception {
    float[] images;
    float[] expected;
    try (Tensor x = Npy.read(TestModels.dir().resolve("digits_holdout_images.npy"));
        Tensor p = Npy.read(TestModels.dir().resolve("digits_holdout_probs.npy"))) {
      images = x.toFloatArray();
      expected = p.toFloatArray();
    }
    try (NDManager warmUp = NDManager.newBaseManager()) {
      warmUp.create(1f);  // the engine's eager context: made on first use, never closed
    }
    LiveObjects before = TensorFlow.liveObjects();
    ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
    try (ZooModel<float[], float[]> model = digits(CALLERS).loadModel()) {
      List<Future<float[]>> answers = new ArrayList<>();
      for (int i = 0; i < CALLERS; i++) {
        float[] image = new float[64];
        System.arraycopy(images, i * 64, image, 0, 64);
        answers.add(callers.submit(() -> {
          try (Predictor<float[], float[]> predictor = model.newPredictor()) {
            return predictor.predict(image);
          }
        }));
      }
      for (int i = 0; i < CALLERS; i++) {
        float[] want = new float[10];
        System.arraycopy(expected, i * 10, want, 0, 10);
        assertArrayEquals(want, answers.get(i).get(), (float) TestModels.FLOAT_TOLERANCE,
            "image " + i);
      }
      BatchingPredictor batcher = ((TfjniSymbolBlock) model.getBlock()).batcher();
      assertEquals(1, batcher.batchesRun());
      assertEquals(CALLERS, batcher.rowsRun());
    } finally {
      callers.shutdown();
    }
    assertEquals(before, TensorFlow.liveObjects(), "native objects after closing the model");
  }

  @Test
  void withoutTheOptionNothingBatches() throws Exception {
    Criteria<float[], float[]> plain = Criteria.builder().setTypes(float[].class, float[].class)
        .optModelPath(TestModels.modelPath("digits")).optEngine("TensorFlow")
        .optTranslator(ModelTest.digitsTranslator()).build();
    try (ZooModel<float[], float[]> model = plain.loadModel()) {
      assertNull(((TfjniSymbolBlock) model.getBlock()).batcher());
    }
  }

  @Test
  void aModelThatCannotBeBatchedIsRefusedAtLoadNamingTheOutput() {
    Criteria<?, ?> criteria = Criteria.builder()
        .setTypes(NDList.class, NDList.class)
        .optModelPath(TestModels.modelPath("multi")).optEngine("TensorFlow")
        .optOption("SignatureDefKey", "scale").optOption("BatchMaxSize", "4").build();
    LiveObjects before = TensorFlow.liveObjects();
    Exception e = assertThrows(Exception.class, criteria::loadModel);
    Throwable cause = e;
    while (cause != null && !(cause instanceof MalformedModelException)) {
      cause = cause.getCause();
    }
    assertTrue(cause != null && cause.getMessage().contains("output 'total'"), String.valueOf(e));
    assertEquals(before, TensorFlow.liveObjects(), "native objects after the refused load");
  }
}
