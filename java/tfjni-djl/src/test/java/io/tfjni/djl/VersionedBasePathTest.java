package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.MalformedModelException;
import ai.djl.engine.Engine;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.types.Shape;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import io.tfjni.serving.Exports;
import io.tfjni.serving.VersionedModel;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model path in TensorFlow Serving's layout (numbered version directories) loads through DJL
 * as a versioned model: the newest version serves, and a DJL predictor held across a swap
 * answers with the new version. The versions are the exports versioned_a and versioned_b, whose
 * answers TensorFlow Python wrote into the models' manifest, different for every row; polling
 * is left to refresh() ("PT0S"), so no test waits for a clock.
 */
class VersionedBasePathTest {
  private LiveObjects before;

  @BeforeEach
  void recordLiveObjects() {
    // The engine's eager context is made once, at its first manager: not a test's leak.
    Engine.getEngine("TensorFlow").newBaseManager().close();
    before = TensorFlow.liveObjects();
  }

  @AfterEach
  void liveObjectsAreBack() {
    assertEquals(before, TensorFlow.liveObjects(), "native objects after the test");
  }

  private static Criteria<float[], float[]> criteria(Path base, Map<String, String> options) {
    Criteria.Builder<float[], float[]> builder = Criteria.builder()
        .setTypes(float[].class, float[].class).optModelPath(base).optEngine("TensorFlow")
        .optTranslator(new FloatArrayTranslator(new Shape(3)))
        .optOption(VersionedBasePath.POLL_INTERVAL, "PT0S");
    options.forEach(builder::optOption);
    return builder.build();
  }

  private static VersionedModel versions(ZooModel<?, ?> model) {
    return ((TfjniModel) model.getWrappedModel()).getVersionedModel();
  }

  /** Every row through {@code predictor} is exactly {@code export}'s answer for it. */
  private static void assertServes(Predictor<float[], float[]> predictor, String export)
      throws Exception {
    for (int row = 0; row < Exports.rowCount(); row++) {
      assertArrayEquals(Exports.expected(export, row), predictor.predict(Exports.inputRow(row)),
          export + "'s answer for row " + row);
    }
  }

  /** Publishes version 2 (B) and polls until it serves: a new version loads at its second poll. */
  private static void swapInB(Path base, ZooModel<?, ?> model) {
    Exports.publish(base, 2, Exports.B);
    versions(model).refresh();
    versions(model).refresh();
    assertEquals(2, versions(model).servingVersion(), versions(model).status().toString());
  }

  private static void heldPredictorFollowsASwap(Path base, Map<String, String> options)
      throws Exception {
    Exports.publish(base, 1, Exports.A);
    try (ZooModel<float[], float[]> model = criteria(base, options).loadModel();
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      assertEquals(1, versions(model).servingVersion());
      assertServes(predictor, Exports.A);
      swapInB(base, model);
      assertServes(predictor, Exports.B);
    }
  }

  @Test
  void aHeldPredictorAnswersWithEachVersionInTurn(@TempDir Path dir) throws Exception {
    heldPredictorFollowsASwap(dir.resolve("base"), Map.of());
  }

  @Test
  void aHeldBatchingPredictorAnswersWithEachVersionInTurn(@TempDir Path dir) throws Exception {
    heldPredictorFollowsASwap(dir.resolve("base"), Map.of("BatchMaxSize", "4"));
  }

  @Test
  void theNewestVersionServesAndASingleSavedModelHasNoVersionedModel(@TempDir Path dir)
      throws Exception {
    Path base = dir.resolve("base");
    Exports.publish(base, 1, Exports.A);
    Exports.publish(base, 10, Exports.B);
    Exports.publish(base, 9, Exports.A);
    try (ZooModel<float[], float[]> model = criteria(base, Map.of()).loadModel();
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      assertEquals(10, versions(model).servingVersion());
      assertServes(predictor, Exports.B);
    }
    Criteria<float[], float[]> single = Criteria.builder().setTypes(float[].class, float[].class)
        .optModelPath(base.resolve("1")).optEngine("TensorFlow")
        .optTranslator(new FloatArrayTranslator(new Shape(3))).build();
    try (ZooModel<float[], float[]> model = single.loadModel();
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      assertNull(versions(model));
      assertNotNull(((TfjniModel) model.getWrappedModel()).getSavedModel());
      assertServes(predictor, Exports.A);
    }
  }

  @Test
  void aBasePathOfOneVersionIsServedAsABasePathWithoutOptions(@TempDir Path dir)
      throws Exception {
    Path base = dir.resolve("base");
    Exports.publish(base, 1, Exports.A);
    Criteria<float[], float[]> plain = Criteria.builder().setTypes(float[].class, float[].class)
        .optModelPath(base).optEngine("TensorFlow")
        .optTranslator(new FloatArrayTranslator(new Shape(3))).build();
    try (ZooModel<float[], float[]> model = plain.loadModel();
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      assertNotNull(versions(model), "DJL steps into base/1, yet base is the model");
      assertEquals(1, versions(model).servingVersion());
      assertServes(predictor, Exports.A);
    }
  }

  @Test
  void aDirectoryWithoutVersionsSaysWhatItLooksFor(@TempDir Path dir) throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    FileNotFoundException e = assertThrows(FileNotFoundException.class,
        () -> criteria(empty, Map.of()).loadModel().close());
    TestModels.assertMentions(e, "no TensorFlow SavedModel (saved_model.pb), frozen GraphDef"
        + " (NAME.pb) or numbered version directories (TensorFlow Serving's base path: "
        + empty.resolve("1") + ", " + empty.resolve("2") + ", ...) in " + empty);
  }

  @Test
  void versionsThatCannotServeAreNamedWithTensorFlowsError(@TempDir Path dir) throws Exception {
    Path base = dir.resolve("base");
    Files.createDirectories(base.resolve("1"));  // no saved_model.pb: not complete
    Path broken = Exports.publish(base, 2, Exports.A);
    Files.write(broken.resolve("saved_model.pb"), new byte[] {1, 2, 3});
    MalformedModelException e = assertThrows(MalformedModelException.class,
        () -> criteria(base, Map.of()).loadModel().close());
    TestModels.assertMentions(e, "no version of the base path " + base + " can be served",
        "versions not complete yet: [1]", "LOAD of version 2", "DATA_LOSS",
        broken.resolve("saved_model.pb") + "' (3 bytes) is damaged");
  }

  @Test
  void thePollIntervalIsADurationAndOnlyForABasePath(@TempDir Path dir) throws Exception {
    Path base = dir.resolve("base");
    Exports.publish(base, 1, Exports.A);
    MalformedModelException notDuration = assertThrows(MalformedModelException.class,
        () -> criteria(base, Map.of(VersionedBasePath.POLL_INTERVAL, "1s")).loadModel()
            .close());
    TestModels.assertMentions(notDuration, "VersionPollInterval must be a duration such as"
        + " \"PT1S\"", "got '1s'");
    MalformedModelException savedModel = assertThrows(MalformedModelException.class,
        () -> criteria(base.resolve("1"), Map.of()).loadModel().close());
    TestModels.assertMentions(savedModel, "VersionPollInterval serves a base path of numbered"
        + " version directories", "but " + base.resolve("1") + " is a SavedModel");
  }
}
