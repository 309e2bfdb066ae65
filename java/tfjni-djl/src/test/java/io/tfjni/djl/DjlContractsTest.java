package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.engine.Engine;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.TranslateException;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Contracts of DJL's API that its PyTorch and TensorFlow engines keep and user code relies on:
 * arrays register with the current {@link NDScope} when made, {@code Engine.setRandomSeed}
 * restarts the random stream, an array lent with {@code tempAttach} goes back to its manager
 * even if that manager is capped, and a predict after its model is closed says so (after its
 * predictor is closed: PredictorContextTest).
 */
class DjlContractsTest {

  /** The engine's eager context lives as long as the process: started before any count. */
  @BeforeAll
  static void startTheEngine() {
    Engine.getEngine("TensorFlow");
  }

  @Test
  void aScopeClosesTheArraysMadeInItButTheOnesTakenOut() {
    LiveObjects before = TensorFlow.liveObjects();
    try (NDManager manager = NDManager.newBaseManager()) {
      NDArray kept;
      NDArray made;
      NDArray sum;
      NDArray inner;
      try (NDScope scope = new NDScope()) {
        made = manager.create(new float[] {1, 2, 3});
        sum = made.add(1);
        kept = sum.mul(2);
        try (NDScope nested = new NDScope()) {
          inner = manager.ones(new Shape(2));
          nested.suppressNotUsedWarning();
        }
        assertTrue(inner.isReleased(), "closed with the innermost scope open when it was made");
        NDScope.unregister(kept);
        scope.suppressNotUsedWarning();
      }
      assertTrue(made.isReleased(), "an array made by create");
      assertTrue(sum.isReleased(), "an operation's result");
      assertFalse(kept.isReleased(), "the array taken out of the scope");
      assertArrayEquals(new float[] {4, 6, 8}, kept.toFloatArray());
      assertEquals(1, manager.getManagedArrays().size());
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void seedingAgainRestartsTheRandomStream() {
    Engine engine = Engine.getEngine("TensorFlow");
    try (NDManager manager = NDManager.newBaseManager()) {
      engine.setRandomSeed(42);
      float[] uniform = manager.randomUniform(0, 1, new Shape(6)).toFloatArray();
      float[] normal = manager.randomNormal(new Shape(6)).toFloatArray();
      float[] nextUniform = manager.randomUniform(0, 1, new Shape(6)).toFloatArray();
      engine.setRandomSeed(42);
      assertArrayEquals(uniform, manager.randomUniform(0, 1, new Shape(6)).toFloatArray());
      assertArrayEquals(normal, manager.randomNormal(new Shape(6)).toFloatArray());
      assertFalse(Arrays.equals(uniform, nextUniform), "the stream moves on between draws");
      engine.setRandomSeed(7);
      assertFalse(Arrays.equals(uniform,
          manager.randomUniform(0, 1, new Shape(6), DataType.FLOAT32).toFloatArray()),
          "another seed, other numbers");
    }
  }

  @Test
  void aLentArrayReturnsToItsCappedManager() {
    LiveObjects before = TensorFlow.liveObjects();
    NDManager owner = NDManager.newBaseManager();
    NDArray lent = owner.create(new float[] {5, 6});
    owner.cap();
    try (NDManager borrower = NDManager.newBaseManager()) {
      lent.tempAttach(borrower);
      assertSame(borrower, lent.getManager());
    }
    assertFalse(lent.isReleased(), "closing the borrower gives the array back");
    assertSame(owner, lent.getManager());
    assertArrayEquals(new float[] {5, 6}, lent.toFloatArray());
    owner.close();
    assertTrue(lent.isReleased(), "closed with the manager it went back to");
    assertEquals(before, TensorFlow.liveObjects());
  }

  private static ZooModel<float[], float[]> loadDoubling() throws Exception {
    return Criteria.builder().setTypes(float[].class, float[].class)
        .optModelPath(TestModels.modelPath("multi")).optEngine("TensorFlow")
        .optOption("SignatureDefKey", "any_rank")
        .optTranslator(new PredictorContextTest.DoublingTranslator()).build().loadModel();
  }

  @Test
  void aPredictAfterTheModelIsClosedSaysSo() throws Exception {
    LiveObjects before = TensorFlow.liveObjects();
    ZooModel<float[], float[]> model = loadDoubling();
    Predictor<float[], float[]> used = model.newPredictor();
    Predictor<float[], float[]> unused = model.newPredictor();
    assertArrayEquals(new float[] {2}, used.predict(new float[] {1}));
    model.close();
    for (Predictor<float[], float[]> predictor : List.of(used, unused)) {
      TranslateException e =
          assertThrows(TranslateException.class, () -> predictor.predict(new float[] {1}));
      assertEquals("cannot predict: the model \"" + model.getName() + "\" is closed",
          e.getMessage());
    }
    assertEquals(before, TensorFlow.liveObjects());
  }
}
