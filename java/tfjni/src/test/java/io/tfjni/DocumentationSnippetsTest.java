package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.tfjni.eager.EagerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java block of README.md and docs/*.md that tfjni's own API runs is compiled and run here,
 * on the test models, and leaves no native object open. Blocks for another module are run by
 * that module's tests.
 */
class DocumentationSnippetsTest {
  /** Modules whose tests run the blocks that name them. */
  private static final Set<String> MODULES = Set.of(MarkdownSnippets.DEFAULT_MODULE,
      "tfjni-spark", "tfjni-flink", "tfjni-micrometer");

  /** What a block may use without declaring it: the imports, then the values by name. */
  static final List<String> IMPORTS = List.of("io.tfjni.*", "io.tfjni.batching.*", "io.tfjni.eager.*", "io.tfjni.serving.*",
      "java.nio.file.*", "java.util.*", "java.util.concurrent.*");

  @TempDir
  Path classes;

  @TestFactory
  Stream<DynamicTest> everyBlockCompilesAndRuns() throws Exception {
    List<MarkdownSnippets.Snippet> snippets = MarkdownSnippets.of(
        MarkdownSnippets.DEFAULT_MODULE, MarkdownSnippets.projectDocuments());
    assertFalse(snippets.isEmpty(), "no Java block found in README.md and docs/");
    EagerContext.shared();  // made once for the process by the first eager op: not a block's leak
    return snippets.stream().map(snippet -> dynamicTest(snippet.where(), () ->
        TestModels.assertNoLeak(snippet.where(), () -> run(snippet))));
  }

  @Test
  void everyBlockNamesAModuleThatRunsIt() throws Exception {
    List<String> unknown = new ArrayList<>();
    for (Path document : MarkdownSnippets.projectDocuments()) {
      for (MarkdownSnippets.Snippet snippet : MarkdownSnippets.read(document)) {
        if (!MODULES.contains(snippet.module())) {
          unknown.add(snippet.where() + " names module " + snippet.module());
        }
      }
    }
    assertEquals(List.of(), unknown);
  }

  /** A base directory of numbered versions (docs/SERVING.md): version 1 of versioned_a. */
  private Path versionedModelBase() {
    Path base = classes.resolve("model-base");
    if (!Files.isDirectory(base.resolve("1"))) {
      TestModels.copyTree(TestModels.modelPath("versioned_a"), base.resolve("1"), Set.of());
    }
    return base;
  }

  private void run(MarkdownSnippets.Snippet snippet) {
    Path digits = TestModels.modelPath("digits");
    float[] pixels = new float[64];
    for (int i = 0; i < pixels.length; i++) {
      pixels[i] = (i % 17) / 16f;
    }
    try (SavedModel model = SavedModel.load(digits);
        Tensor images = Tensor.of(pixels, 1, 8, 8, 1)) {
      Map<String, Object> values = Map.of(
          "modelDir", digits,
          "imageFile", TestModels.dir().resolve("digit.png"),
          "batches", List.of(pixels, new float[64]),
          "model", model,
          "images", images,
          "tensorflowTextDir", TestModels.opLibraryDir("text_ops"),
          "textModelDir", TestModels.modelPath("text_ops"),
          "modelBase", versionedModelBase(),
          "tfliteFile", TestModels.dir().resolve(TestModels.manifest().path("litert")
              .path("models").path("digits_b1").path("path").asText()));
      MarkdownSnippets.run(snippet, IMPORTS, values, classes.resolve("b" + snippet.line()));
    } catch (Exception e) {
      throw new AssertionError(snippet.where() + ": " + e, e);
    }
  }
}
