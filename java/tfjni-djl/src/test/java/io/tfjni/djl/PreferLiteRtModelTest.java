package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.MalformedModelException;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.LiveObjects;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import io.tfjni.numpy.Npy;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model option PreferLiteRt: digits, converted by scripts/goldens/litert_convert.py (what
 * {@code tfjni convert} runs) at batch 1 and 4, predicts on LiteRT at those sizes with TensorFlow
 * Python's values (the manifest's LiteRT cases, within their tolerance) and on TensorFlow at
 * another size (TensorFlow Python's probabilities of the held-out digits); a predict runs the
 * predictor the block chose for its size.
 */
class PreferLiteRtModelTest {

  @BeforeAll
  static void engineStarted() {
    try (NDManager warmUp = NDManager.newBaseManager()) {
      warmUp.create(1f);  // the engine's eager context: made on first use, never closed
    }
  }

  private static Criteria<NDList, NDList> digits(String preferLiteRt) {
    Criteria.Builder<NDList, NDList> builder = Criteria.builder()
        .setTypes(NDList.class, NDList.class).optModelPath(TestModels.modelPath("digits"))
        .optEngine("TensorFlow");
    return preferLiteRt == null ? builder.build()
        : builder.optOption("PreferLiteRt", preferLiteRt).build();
  }

  /** Whether the block runs this batch size on a LiteRT predictor (static specs, the size's). */
  private static boolean runsOnLiteRt(ZooModel<?, ?> model, long batchSize) {
    long[] shape = ((TfjniSymbolBlock) model.getBlock()).predictorFor(batchSize).inputs().get(0)
        .shape();
    return shape != null && shape[0] == batchSize
        && Arrays.stream(shape).allMatch(d -> d >= 0);
  }

  @Test
  void convertedBatchSizesPredictOnLiteRtWithTensorFlowPythonsValues() throws Exception {
    LiveObjects before = TensorFlow.liveObjects();
    try (ZooModel<NDList, NDList> model = digits("1").loadModel();
        Predictor<NDList, NDList> predictor = model.newPredictor();
        NDManager manager = NDManager.newBaseManager()) {
      for (String name : new String[] {"litert_digits_b1", "litert_digits_b4"}) {
        JsonNode c = TestModels.liteRtCase(name);
        NDArray images;
        try (Tensor x = TestModels.tensor(c.path("inputs").path("images"));
            Tensor want = TestModels.tensor(c.path("outputs").path("output_0"))) {
          images = manager.create(x.toFloatArray(), new Shape(x.shape()));
          assertTrue(runsOnLiteRt(model, x.shape()[0]), name);
          NDList out = predictor.predict(new NDList(images));
          assertEquals("output_0", out.get(0).getName());
          assertEquals(new Shape(want.shape()), out.get(0).getShape());
          TestModels.assertClose(want.toFloatArray(), out.get(0).toFloatArray(),
              c.path("tolerance").asDouble(), name);
        }
      }
    }
    assertEquals(before, TensorFlow.liveObjects(), "native objects after closing the model");
  }

  @Test
  void aBatchSizeNotConvertedPredictsOnTensorFlow() throws Exception {
    float[] images;
    float[] probs;
    try (Tensor x = Npy.read(TestModels.dir().resolve("digits_holdout_images.npy"));
        Tensor p = Npy.read(TestModels.dir().resolve("digits_holdout_probs.npy"))) {
      images = Arrays.copyOf(x.toFloatArray(), 2 * 64);
      probs = Arrays.copyOf(p.toFloatArray(), 2 * 10);
    }
    LiveObjects before = TensorFlow.liveObjects();
    try (ZooModel<NDList, NDList> model = digits("2").loadModel();
        Predictor<NDList, NDList> predictor = model.newPredictor();
        NDManager manager = NDManager.newBaseManager()) {
      TfjniSymbolBlock block = (TfjniSymbolBlock) model.getBlock();
      assertFalse(runsOnLiteRt(model, 2));
      assertSame(block.predictorFor(2), block.predictorFor(3));
      NDList out = predictor.predict(new NDList(manager.create(images, new Shape(2, 8, 8, 1))));
      TestModels.assertClose(probs, out.get(0).toFloatArray(), TestModels.FLOAT_TOLERANCE,
          "batch 2");

      // The forward pass runs the block's choice: with LiteRT's predictor of batch 1 closed on
      // purpose, a predict of 1 fails and one of 2 still runs.
      block.predictorFor(1).close();
      NDArray one = manager.create(java.util.Arrays.copyOf(images, 64), new Shape(1, 8, 8, 1));
      Exception closed = assertThrows(Exception.class, () -> predictor.predict(new NDList(one)));
      assertTrue(String.valueOf(closed).contains("closed")
          || String.valueOf(closed.getCause()).contains("closed"), String.valueOf(closed));
      out = predictor.predict(new NDList(manager.create(images, new Shape(2, 8, 8, 1))));
      TestModels.assertClose(probs, out.get(0).toFloatArray(), TestModels.FLOAT_TOLERANCE,
          "batch 2 again");
    }
    assertEquals(before, TensorFlow.liveObjects(), "native objects after closing the model");
  }

  @Test
  void withoutTheOptionEveryBatchSizeRunsOnTensorFlow() throws Exception {
    for (String option : new String[] {null, "0"}) {
      try (ZooModel<NDList, NDList> model = digits(option).loadModel()) {
        assertFalse(runsOnLiteRt(model, 1), "PreferLiteRt " + option);
        assertFalse(runsOnLiteRt(model, 4), "PreferLiteRt " + option);
      }
    }
  }

  @Test
  void aBadThreadCountIsAnError() {
    for (String bad : new String[] {"-1", "two"}) {
      Exception e = assertThrows(Exception.class, () -> digits(bad).loadModel());
      Throwable cause = e;
      while (cause != null && !(cause instanceof MalformedModelException)) {
        cause = cause.getCause();
      }
      assertTrue(cause != null && cause.getMessage().contains("PreferLiteRt"), String.valueOf(e));
    }
  }
}
