package io.tfjni.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tfjni.MarkdownSnippets;
import io.tfjni.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java blocks of README.md and docs/*.md that name this module, compiled and run on a base
 * directory holding version 1 of versioned_a, with a registry each; a block leaves no native
 * object open, and the registry then holds the calls the block made: one.
 */
class DocumentationSnippetsTest {
  private static final List<String> IMPORTS = List.of("io.tfjni.*", "io.tfjni.batching.*", "io.tfjni.eager.*", "io.tfjni.serving.*",
      "io.tfjni.micrometer.*", "io.micrometer.core.instrument.*",
      "io.micrometer.core.instrument.binder.*", "java.nio.file.*", "java.util.*");

  @TempDir
  Path temp;

  @TestFactory
  Stream<DynamicTest> everyBlockCompilesAndRuns() throws Exception {
    List<MarkdownSnippets.Snippet> snippets = MarkdownSnippets.of("tfjni-micrometer",
        MarkdownSnippets.projectDocuments());
    assertFalse(snippets.isEmpty(), "no Java block names tfjni-micrometer");
    return snippets.stream().map(snippet -> dynamicTest(snippet.where(), () -> {
      Path base = Files.createDirectories(temp.resolve("b" + snippet.line()).resolve("model"));
      ModelBase.publish(base, 1, ModelBase.A);
      MeterRegistry registry = new SimpleMeterRegistry();
      TestModels.assertNoLeak(snippet.where(), () -> {
        try {
          MarkdownSnippets.run(snippet, IMPORTS, Map.of("modelBase", base, "registry", registry),
              temp.resolve("classes" + snippet.line()));
        } catch (Exception e) {
          throw new AssertionError(snippet.where() + ": " + e, e);
        }
      });
      FunctionCounter calls = registry.find(VersionedModelMetrics.CALLS)
          .tags(Tags.of("version", "1")).functionCounter();
      assertNotNull(calls, snippet.where() + ": the block bound no calls counter");
      assertEquals(1, calls.count(), snippet.where() + ": the block's call, counted");
    }));
  }
}
