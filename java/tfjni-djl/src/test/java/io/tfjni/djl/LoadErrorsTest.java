package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.MalformedModelException;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDList;
import ai.djl.repository.zoo.Criteria;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A model that does not load says why in the engine's exception, with the library's words. */
class LoadErrorsTest {

  private static MalformedModelException loadFails(Path modelDir, String tags) {
    // The engine's eager context is made once, at its first manager: not a load's leak.
    Engine.getEngine("TensorFlow").newBaseManager().close();
    LiveObjects before = TensorFlow.liveObjects();
    Criteria.Builder<NDList, NDList> builder = Criteria.builder()
        .setTypes(NDList.class, NDList.class).optModelPath(modelDir).optEngine("TensorFlow");
    if (tags != null) {
      builder.optOption("Tags", tags);
    }
    Criteria<NDList, NDList> criteria = builder.build();
    MalformedModelException e = assertThrows(MalformedModelException.class,
        () -> criteria.loadModel().close());
    assertEquals(before, TensorFlow.liveObjects(), "a failed load leaves nothing open");
    return e;
  }

  @Test
  void aTagTheModelDoesNotHaveListsItsTagSets() {
    TestModels.assertMentions(loadFails(TestModels.modelPath("digits"), "train"),
        "NOT_FOUND", "no MetaGraphDef tagged {train}", "its tag-sets are {serve}");
  }

  @Test
  void anEmptyOrTruncatedSavedModelPbIsNamed(@TempDir Path tmp) throws Exception {
    Path empty = tmp.resolve("empty");
    TestModels.copyTree(TestModels.modelPath("digits"), empty, Set.of());
    Files.write(empty.resolve("saved_model.pb"), new byte[0]);
    TestModels.assertMentions(loadFails(empty, null), "DATA_LOSS", empty.resolve("saved_model.pb")
        + "' (0 bytes) holds no MetaGraphDef");

    Path truncated = tmp.resolve("truncated");
    TestModels.copyTree(TestModels.modelPath("digits"), truncated, Set.of());
    Path pb = truncated.resolve("saved_model.pb");
    byte[] bytes = Files.readAllBytes(pb);
    Files.write(pb, Arrays.copyOf(bytes, bytes.length / 2));
    TestModels.assertMentions(loadFails(truncated, null), "DATA_LOSS", pb.toString());
  }
}
