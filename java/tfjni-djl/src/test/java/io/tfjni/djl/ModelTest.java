package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
import io.tfjni.LiveObjects;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import io.tfjni.numpy.Npy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Criteria → ZooModel → Predictor on the test SavedModels, against TensorFlow Python. */
class ModelTest {

  /** One 8x8x1 digit in, its 10 probabilities out. */
  static FloatArrayTranslator digitsTranslator() {
    return new FloatArrayTranslator(new Shape(8, 8, 1));
  }

  private static Criteria<NDList, NDList> ndListCriteria(String model, String signature) {
    return Criteria.builder().setTypes(NDList.class, NDList.class)
        .optModelPath(TestModels.modelPath(model)).optEngine("TensorFlow")
        .optOption("SignatureDefKey", signature).build();
  }

  @Test
  void digitsThroughCriteriaGiveTensorFlowPythonsProbabilities() throws Exception {
    Path dir = TestModels.dir();
    float[] images;
    float[] expected;
    try (Tensor x = Npy.read(dir.resolve("digits_holdout_images.npy"));
        Tensor p = Npy.read(dir.resolve("digits_holdout_probs.npy"))) {
      images = x.toFloatArray();
      expected = p.toFloatArray();
    }
    int n = images.length / 64;
    List<float[]> inputs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      float[] one = new float[64];
      System.arraycopy(images, i * 64, one, 0, 64);
      inputs.add(one);
    }
    LiveObjects before = TensorFlow.liveObjects();
    Criteria<float[], float[]> criteria = Criteria.builder().setTypes(float[].class, float[].class)
        .optModelPath(TestModels.modelPath("digits")).optEngine("TensorFlow")
        .optTranslator(digitsTranslator()).build();
    try (ZooModel<float[], float[]> model = criteria.loadModel();
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      assertInstanceOf(TfjniModel.class, model.getWrappedModel());
      List<float[]> batch = predictor.batchPredict(inputs.subList(0, 7));
      float[] single = predictor.predict(inputs.get(7));
      List<float[]> rest = predictor.batchPredict(inputs.subList(8, n));
      List<float[]> all = new ArrayList<>(batch);
      all.add(single);
      all.addAll(rest);
      assertEquals(n, all.size());
      for (int i = 0; i < n; i++) {
        float[] want = new float[10];
        System.arraycopy(expected, i * 10, want, 0, 10);
        assertArrayEquals(want, all.get(i), (float) TestModels.FLOAT_TOLERANCE, "image " + i);
      }
    }
    assertEquals(before, TensorFlow.liveObjects(), "native objects after closing the model");
  }

  @Test
  void unknownSignatureKeyIsAnErrorListingTheKeys() {
    Criteria<NDList, NDList> criteria = ndListCriteria("multi", "nope");
    Exception e = assertThrows(Exception.class, criteria::loadModel);
    Throwable cause = e;
    while (cause != null && !(cause instanceof MalformedModelException)) {
      cause = cause.getCause();
    }
    assertInstanceOf(MalformedModelException.class, cause, String.valueOf(e));
    String message = cause.getMessage();
    assertTrue(message.contains("'nope'"), message);
    for (String key : new String[] {"add", "any_rank", "scale", "serving_default"}) {
      assertTrue(message.contains(key), message);
    }
  }

  @Test
  void outputsAreNamedBySortedKeyAndInputsTakenByPosition() throws Exception {
    try (ZooModel<NDList, NDList> model = ndListCriteria("multi", "scale").loadModel();
        Predictor<NDList, NDList> predictor = model.newPredictor();
        NDManager manager = NDManager.newBaseManager()) {
      assertEquals(List.of("x"), model.describeInput().keys());
      assertEquals(List.of("scaled", "total"), model.describeOutput().keys());
      NDArray x = manager.create(new float[] {1, 2, 3, 4, 5, 6.5f}, new Shape(2, 3));
      NDList out = predictor.predict(new NDList(x));
      assertEquals("scaled", out.get(0).getName());
      assertEquals("total", out.get(1).getName());
      assertArrayEquals(new float[] {2, 4, 6, 8, 10, 13}, out.get("scaled").toFloatArray());
      assertEquals(21.5f, out.get("total").getFloat());
    }
  }

  @Test
  void inputsAreMatchedByName() throws Exception {
    // wide: y_i = x_i * (i + 1) for 20 inputs (scripts/goldens/generate_models.py).
    long before = TensorFlow.liveObjects().tensorHandles();
    try (ZooModel<NDList, NDList> model = ndListCriteria("wide", "scale_each").loadModel();
        Predictor<NDList, NDList> predictor = model.newPredictor();
        NDManager manager = NDManager.newBaseManager()) {
      NDList in = new NDList();
      for (int i = 19; i >= 0; i--) {
        NDArray x = manager.create(new float[] {i, -i, 100 + i});
        x.setName(String.format("x%02d", i));
        in.add(x);
      }
      NDList out = predictor.predict(in);
      assertEquals(20, out.size());
      for (int i = 0; i < 20; i++) {
        NDArray y = out.get(i);
        assertEquals(String.format("y%02d", i), y.getName());
        float f = i + 1;
        assertArrayEquals(new float[] {i * f, -i * f, (100 + i) * f}, y.toFloatArray());
      }
    }
    assertEquals(before, TensorFlow.liveObjects().tensorHandles());
  }

  @Test
  void tagsThatNoMetaGraphHasAreAnError() {
    Criteria<NDList, NDList> criteria = Criteria.builder().setTypes(NDList.class, NDList.class)
        .optModelPath(TestModels.modelPath("multi")).optEngine("TensorFlow")
        .optOption("Tags", "train,gpu").build();
    Exception e = assertThrows(Exception.class, criteria::loadModel);
    assertTrue(String.valueOf(e).contains("train,gpu") || String.valueOf(e.getCause())
        .contains("train,gpu"), String.valueOf(e));
  }
}
