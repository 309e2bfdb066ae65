package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.inference.Predictor;
import ai.djl.metric.Metrics;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.Batchifier;
import ai.djl.translate.TranslateException;
import ai.djl.translate.Translator;
import ai.djl.translate.TranslatorContext;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The translator context of tfjni's predictor (one per predictor, emptied after each predict)
 * behaves as DJL's context per predict: what a predict made is freed when it returns, its
 * attachments are forgotten, a translator that caps, closes or temporarily attaches to its manager
 * leaves the next predict working, and a predict from inside a predict gets a context of its own.
 * On the test model "multi", signature "any_rank": doubled = 2 x, for x of any shape.
 */
class PredictorContextTest {

  /** Any float row in, its doubled values out; records what it saw in each context. */
  static final class DoublingTranslator implements Translator<float[], float[]> {
    final List<NDManager> managers = new ArrayList<>();
    final List<NDArray> inputs = new ArrayList<>();
    /** Runs inside processInput, after the input array is made (a test's extra behaviour). */
    BiConsumer<TranslatorContext, float[]> duringInput = (ctx, row) -> { };
    /** Runs inside processOutput, before the output is read. */
    Consumer<TranslatorContext> duringOutput = ctx -> { };

    @Override
    public NDList processInput(TranslatorContext ctx, float[] row) {
      NDArray x = ctx.getNDManager().create(row);
      managers.add(ctx.getNDManager());
      inputs.add(x);
      duringInput.accept(ctx, row);
      return new NDList(x);
    }

    @Override
    public float[] processOutput(TranslatorContext ctx, NDList list) {
      duringOutput.accept(ctx);
      return list.get("doubled").toFloatArray();
    }

    /** None: each input runs alone (the batched path is ModelTest's, on the digits model). */
    @Override
    public Batchifier getBatchifier() {
      return null;
    }
  }

  private static ZooModel<float[], float[]> load(Translator<float[], float[]> translator)
      throws Exception {
    return Criteria.builder().setTypes(float[].class, float[].class)
        .optModelPath(TestModels.modelPath("multi")).optEngine("TensorFlow")
        .optOption("SignatureDefKey", "any_rank").optTranslator(translator).build().loadModel();
  }

  @Test
  void eachPredictFreesWhatItMadeInOneKeptManager() throws Exception {
    LiveObjects before = TensorFlow.liveObjects();
    DoublingTranslator translator = new DoublingTranslator();
    NDManager kept;
    try (ZooModel<float[], float[]> model = load(translator);
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      assertArrayEquals(new float[] {2, -4}, predictor.predict(new float[] {1, -2}));
      assertTrue(translator.inputs.get(0).isReleased(), "the first predict's input array");
      assertArrayEquals(new float[] {7, 0.5f}, predictor.predict(new float[] {3.5f, 0.25f}));
      assertTrue(translator.inputs.get(1).isReleased(), "the second predict's input array");
      kept = translator.managers.get(0);
      assertSame(kept, translator.managers.get(1));
      assertTrue(kept.isOpen());
      assertTrue(kept.getManagedArrays().isEmpty());
    }
    assertFalse(kept.isOpen(), "closing the predictor closes its context's manager");
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void attachmentsAreForgottenAfterEachPredict() throws Exception {
    DoublingTranslator translator = new DoublingTranslator();
    List<Object> seen = new ArrayList<>();
    translator.duringInput = (ctx, row) -> {
      seen.add(ctx.getAttachment("row"));
      ctx.setAttachment("row", row);
      seen.add(ctx.getAttachment("row"));
    };
    float[] first = {1, 1};
    float[] second = {2, 2};
    try (ZooModel<float[], float[]> model = load(translator);
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      predictor.predict(first);
      predictor.predict(second);
    }
    assertNull(seen.get(0));
    assertSame(first, seen.get(1));
    assertNull(seen.get(2), "the first predict's attachment in the second");
    assertSame(second, seen.get(3));
  }

  @Test
  void aCappedOrClosedContextManagerLeavesTheNextPredictWorking() throws Exception {
    LiveObjects before = TensorFlow.liveObjects();
    DoublingTranslator translator = new DoublingTranslator();
    try (ZooModel<float[], float[]> model = load(translator);
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      translator.duringOutput = ctx -> ctx.getNDManager().cap();
      assertArrayEquals(new float[] {2}, predictor.predict(new float[] {1}));
      translator.duringOutput = ctx -> { };
      assertArrayEquals(new float[] {4}, predictor.predict(new float[] {2}));
      assertSame(translator.managers.get(0), translator.managers.get(1));

      translator.duringInput = (ctx, row) -> ctx.close();
      assertThrows(TranslateException.class, () -> predictor.predict(new float[] {3}));
      assertFalse(translator.managers.get(2).isOpen());
      translator.duringInput = (ctx, row) -> { };
      assertArrayEquals(new float[] {8}, predictor.predict(new float[] {4}));
      assertNotSame(translator.managers.get(2), translator.managers.get(3));
      assertTrue(translator.inputs.get(3).isReleased());
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void aTemporarilyAttachedArrayGoesBackToItsManager() throws Exception {
    LiveObjects before = TensorFlow.liveObjects();
    DoublingTranslator translator = new DoublingTranslator();
    try (NDManager user = NDManager.newBaseManager("TensorFlow");
        ZooModel<float[], float[]> model = load(translator);
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      NDArray lent = user.create(new float[] {5, 6});
      translator.duringInput = (ctx, row) -> lent.tempAttach(ctx.getNDManager());
      assertArrayEquals(new float[] {2}, predictor.predict(new float[] {1}));
      assertSame(user, lent.getManager());
      assertFalse(lent.isReleased());
      assertArrayEquals(new float[] {5, 6}, lent.toFloatArray());
      translator.duringInput = (ctx, row) -> { };
      assertArrayEquals(new float[] {6}, predictor.predict(new float[] {3}));
      assertTrue(translator.inputs.get(1).isReleased());
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void aPredictInsideAPredictRunsInAContextOfItsOwn() throws Exception {
    DoublingTranslator translator = new DoublingTranslator();
    List<float[]> innerResults = new ArrayList<>();
    try (ZooModel<float[], float[]> model = load(translator);
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      translator.duringInput = (ctx, row) -> {
        if (row.length == 1) {
          try {
            innerResults.add(predictor.predict(new float[] {row[0], 10}));
          } catch (TranslateException e) {
            throw new IllegalStateException(e);
          }
        }
      };
      assertArrayEquals(new float[] {6}, predictor.predict(new float[] {3}));
    }
    assertArrayEquals(new float[] {6, 20}, innerResults.get(0));
    assertNotSame(translator.managers.get(0), translator.managers.get(1));
  }

  @Test
  void aFailingTranslatorIsATranslateExceptionAndFreesItsArrays() throws Exception {
    LiveObjects before = TensorFlow.liveObjects();
    DoublingTranslator translator = new DoublingTranslator();
    try (ZooModel<float[], float[]> model = load(translator);
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      translator.duringInput = (ctx, row) -> {
        throw new IllegalArgumentException("no such pixel");
      };
      TranslateException e =
          assertThrows(TranslateException.class, () -> predictor.predict(new float[] {1}));
      assertInstanceOf(IllegalArgumentException.class, e.getCause());
      assertEquals("no such pixel", e.getCause().getMessage());
      assertTrue(translator.inputs.get(0).isReleased());
      translator.duringInput = (ctx, row) -> { };
      assertArrayEquals(new float[] {-2}, predictor.predict(new float[] {-1}));
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void aPredictAfterCloseIsATranslateExceptionAndDoubleCloseIsHarmless() throws Exception {
    LiveObjects before = TensorFlow.liveObjects();
    try (ZooModel<float[], float[]> model = load(new DoublingTranslator())) {
      Predictor<float[], float[]> used = model.newPredictor();
      assertArrayEquals(new float[] {2}, used.predict(new float[] {1}));
      used.close();
      used.close();
      Predictor<float[], float[]> unused = model.newPredictor();
      unused.close();
      for (Predictor<float[], float[]> predictor : List.of(used, unused)) {
        TranslateException e =
            assertThrows(TranslateException.class, () -> predictor.predict(new float[] {1}));
        assertEquals("cannot predict: the predictor is closed", e.getMessage());
      }
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void metricsAreRecordedPerInputAsInDjl() throws Exception {
    Metrics metrics = new Metrics();
    try (ZooModel<float[], float[]> model = load(new DoublingTranslator());
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      predictor.setMetrics(metrics);
      List<float[]> out = predictor.batchPredict(
          List.of(new float[] {1, 2}, new float[] {3, 4}, new float[] {5, 6}));
      assertEquals(3, out.size());
      assertArrayEquals(new float[] {2, 4}, out.get(0));
      assertArrayEquals(new float[] {6, 8}, out.get(1));
      assertArrayEquals(new float[] {10, 12}, out.get(2));
      predictor.predict(new float[] {7, 8});
    }
    for (String stage : new String[] {"Preprocess", "Inference", "Postprocess", "Prediction"}) {
      assertEquals(4, metrics.getMetric(stage).size(), stage);
    }
  }
}
