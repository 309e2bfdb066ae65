package io.tfjni.spark;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfjni.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model that does not load fails the plan with the library's words for why: the tag-sets a
 * model has, the file that holds no MetaGraphDef. The schema comes from the model, so the plan
 * fails when it is built, before any data moves.
 */
class LoadErrorsTest {
  private static final StructType PIXELS = new StructType()
      .add("pixels", DataTypes.createArrayType(DataTypes.FloatType, false));

  @AfterAll
  static void evict() {
    ExecutorModels.CACHE.evictUnused();
  }

  private static RuntimeException planFails(Path modelDir, String... tags) {
    SavedModelTransformer transformer = new SavedModelTransformer()
        .setModelPath(modelDir.toString()).setInputCols("pixels").setInputKeys("images")
        .setOutputKeys("output_0").setOutputCols("probabilities");
    if (tags.length > 0) {
      transformer.setTags(tags);
    }
    return assertThrows(RuntimeException.class, () -> transformer.transformSchema(PIXELS));
  }

  @Test
  void aTagTheModelDoesNotHaveListsItsTagSets() {
    TestModels.assertMentions(planFails(TestModels.modelPath("digits"), "train"),
        "NOT_FOUND", "no MetaGraphDef tagged {train}", "its tag-sets are {serve}");
  }

  @Test
  void anEmptySavedModelPbIsNamed(@TempDir Path tmp) throws Exception {
    Path empty = tmp.resolve("empty");
    TestModels.copyTree(TestModels.modelPath("digits"), empty, Set.of());
    Files.write(empty.resolve("saved_model.pb"), new byte[0]);
    TestModels.assertMentions(planFails(empty), "DATA_LOSS",
        empty.resolve("saved_model.pb") + "' (0 bytes) holds no MetaGraphDef");
  }
}
