package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.engine.Engine;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.TranslateException;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Arrays made from Java data and a model's outputs hold a plain tensor; the eager array is made
 * only when an op needs it. Reading, feeding, ops, in-place replacement and closing must behave as
 * for any array, and free every native object. The model is the test models' {@code multi},
 * signature scale: x -> scaled = 2x, total = sum(x) (scripts/goldens/generate_models.py); expected values
 * are that arithmetic.
 */
class LazyValueTest {
  private static final float[] X = {1, 2, 3, 4.5f, -5, 6};
  private static final Shape X_SHAPE = new Shape(2, 3);

  private LiveObjects before;
  private ZooModel<NDList, NDList> model;
  private Predictor<NDList, NDList> predictor;

  @BeforeEach
  void load() throws Exception {
    Engine.getEngine("TensorFlow");  // its eager context lives as long as the process
    before = TensorFlow.liveObjects();
    model = Criteria.builder().setTypes(NDList.class, NDList.class)
        .optModelPath(TestModels.modelPath("multi")).optEngine("TensorFlow")
        .optOption("SignatureDefKey", "scale").build().loadModel();
    predictor = model.newPredictor();
  }

  @AfterEach
  void close() {
    predictor.close();
    model.close();
    assertEquals(before, TensorFlow.liveObjects(), "native objects left");
  }

  private static float[] times(float factor, float add) {
    float[] out = new float[X.length];
    for (int i = 0; i < X.length; i++) {
      out[i] = X[i] * factor + add;
    }
    return out;
  }

  @Test
  void anArrayFromJavaDataIsATensorUntilAnOpNeedsItsEagerArray() throws Exception {
    try (NDManager manager = NDManager.newBaseManager()) {
      LiveObjects start = TensorFlow.liveObjects();
      NDArray x = manager.create(X, X_SHAPE);
      assertEquals(start.tensors() + 1, TensorFlow.liveObjects().tensors());
      assertEquals(start.tensorHandles(), TensorFlow.liveObjects().tensorHandles(),
          "no eager array for an array only read and fed");
      assertEquals(X_SHAPE, x.getShape());
      assertEquals(DataType.FLOAT32, x.getDataType());
      assertArrayEquals(X, x.toFloatArray());
      NDList out = predictor.predict(new NDList(x));
      assertArrayEquals(times(2, 0), out.get("scaled").toFloatArray());
      assertEquals(start.tensorHandles(), TensorFlow.liveObjects().tensorHandles(),
          "no eager array for feeding nor for the outputs");

      // The fed array, then used in an eager op: its eager array is made once, then kept.
      NDArray plusOne = x.add(1);
      assertArrayEquals(times(1, 1), plusOne.toFloatArray());
      assertEquals(start.tensorHandles() + 2, TensorFlow.liveObjects().tensorHandles(),
          "x's eager array and the sum's");
      NDArray plusTwo = x.add(2);
      assertArrayEquals(times(1, 2), plusTwo.toFloatArray());
      assertEquals(start.tensorHandles() + 3, TensorFlow.liveObjects().tensorHandles(),
          "x's eager array is reused");
      // An op's result fed to the model (its tensor resolved from the eager array).
      NDList again = predictor.predict(new NDList(plusOne));
      assertArrayEquals(times(2, 2), again.get("scaled").toFloatArray());
      assertArrayEquals(X, x.toFloatArray(), "the fed array is unchanged");
    }
  }

  @Test
  void outputsWorkInEagerOpsAfterThePredictorAndModelAreClosed() throws Exception {
    try (NDManager manager = NDManager.newBaseManager()) {
      NDList out = predictor.predict(new NDList(manager.create(X, X_SHAPE)));
      predictor.close();
      model.close();
      NDArray scaled = out.get("scaled");
      NDArray total = out.get("total");
      assertEquals(X_SHAPE, scaled.getShape());
      assertArrayEquals(times(6, 0), scaled.mul(3).toFloatArray());
      float sum = 0;
      for (float v : X) {
        sum += v;
      }
      assertEquals(sum + 1, total.add(1).getFloat());
      assertEquals(new Shape(), total.getShape());
      // The outputs are the input's manager's: closing it frees them.
      assertTrue(out.stream().allMatch(a -> a.getManager() == manager));
    }
  }

  @Test
  void closingTheManagerFreesEveryFormOfValueAtOnce() throws Exception {
    try (NDManager root = NDManager.newBaseManager()) {
      LiveObjects start = TensorFlow.liveObjects();
      NDManager manager = root.newSubManager();
      NDArray tensorOnly = manager.create(X, X_SHAPE);
      NDArray both = manager.create(new float[] {1, 2});
      NDArray opResult = both.neg();  // eager only
      NDArray resultRead = both.mul(2);
      assertArrayEquals(new float[] {2, 4}, resultRead.toFloatArray());  // eager and its tensor
      NDArray text = manager.create(new String[] {"a", "bc"});
      NDList outputs = predictor.predict(new NDList(tensorOnly));
      NDArray outputUsed = outputs.get("scaled").sub(1);
      assertTrue(TensorFlow.liveObjects().total() > start.total());
      manager.close();
      assertEquals(start, TensorFlow.liveObjects(), "everything the sub-manager held is freed");
      for (NDArray a : new NDArray[] {tensorOnly, both, opResult, resultRead, text,
          outputs.get(0), outputs.get(1), outputUsed}) {
        assertTrue(a.isReleased(), a.getUid());
      }
    }
  }

  @Test
  void useAfterCloseThrowsForEveryFormOfValue() throws Exception {
    try (NDManager manager = NDManager.newBaseManager()) {
      NDArray tensorOnly = manager.create(X, X_SHAPE);
      NDList outputs = predictor.predict(new NDList(manager.create(X, X_SHAPE)));
      NDArray eagerOnly = tensorOnly.add(1);
      for (NDArray a : new NDArray[] {tensorOnly, outputs.get(0), eagerOnly}) {
        a.close();
        a.close();  // idempotent
        assertThrows(IllegalStateException.class, a::toFloatArray);
        assertThrows(IllegalStateException.class, a::getShape);
        assertThrows(IllegalStateException.class, a::toByteBuffer);
        assertThrows(IllegalStateException.class, () -> a.add(1));
        TranslateException e =
            assertThrows(TranslateException.class, () -> predictor.predict(new NDList(a)));
        assertInstanceOf(IllegalStateException.class, e.getCause(), "feeding a closed array");
      }
    }
  }

  @Test
  void inPlaceReplacementFreesTheOldValueAndKeepsTheNew() throws Exception {
    LiveObjects start = TensorFlow.liveObjects();
    NDManager manager = NDManager.newBaseManager();
    try {
      NDArray x = manager.create(X, X_SHAPE);
      x.addi(1);  // the tensor-only value replaced by an op's eager array
      assertArrayEquals(times(1, 1), x.toFloatArray());
      x.set(FloatBuffer.wrap(times(3, 0)));  // replaced by a tensor-only value
      assertArrayEquals(times(3, 0), x.toFloatArray());
      assertArrayEquals(times(6, 0), predictor.predict(new NDList(x)).get("scaled")
          .toFloatArray());
      NDArray y = manager.create(times(0, 5), X_SHAPE);
      x.intern(y);
      assertTrue(y.isReleased());
      assertArrayEquals(times(0, 5), x.toFloatArray());
      assertArrayEquals(times(0, 6), x.add(1).toFloatArray());
    } finally {
      manager.close();
    }
    assertEquals(start, TensorFlow.liveObjects());
  }

  @Test
  void stringAndByteBufferReadsComeStraightFromTheTensor() {
    try (NDManager manager = NDManager.newBaseManager()) {
      LiveObjects start = TensorFlow.liveObjects();
      NDArray text = manager.create(new String[] {"tf", "jni"});
      assertArrayEquals(new String[] {"tf", "jni"}, text.toStringArray(StandardCharsets.UTF_8));
      NDArray x = manager.create(X, X_SHAPE);
      FloatBuffer bytes = x.toByteBuffer().asFloatBuffer();
      float[] read = new float[X.length];
      bytes.get(read);
      assertArrayEquals(X, read);
      assertEquals(start.tensorHandles(), TensorFlow.liveObjects().tensorHandles());
    }
  }
}
