package io.tfjni.flink;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.tfjni.MarkdownSnippets;
import io.tfjni.TestModels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Java blocks of README.md and docs/*.md that name this module, compiled and run. */
@ExtendWith(TestModels.NoLeaks.class)
class DocumentationSnippetsTest {
  private static final List<String> IMPORTS = List.of("io.tfjni.flink.*", "java.time.*",
      "java.util.*", "java.util.concurrent.*", "org.apache.flink.api.common.typeinfo.Types",
      "org.apache.flink.api.java.tuple.Tuple2", "org.apache.flink.streaming.api.datastream.*",
      "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment",
      "org.apache.flink.table.api.bridge.java.StreamTableEnvironment");

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = FlinkTests.twoSlotCluster();

  @TestFactory
  Stream<DynamicTest> everyBlockCompilesAndRuns() throws Exception {
    List<MarkdownSnippets.Snippet> snippets = MarkdownSnippets.of("tfjni-flink",
        MarkdownSnippets.projectDocuments());
    assertFalse(snippets.isEmpty(), "no Java block names tfjni-flink");
    return snippets.stream().map(snippet -> dynamicTest(snippet.where(), () -> {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(2);
      Map<String, Object> values = Map.of("env", env, "digits", env.fromData(digitRecords(),
          Types.TUPLE(Types.INT, Types.PRIMITIVE_ARRAY(Types.FLOAT))), "modelPath",
          TestModels.modelPath("digits").toString());
      MarkdownSnippets.run(snippet, IMPORTS, values, testClasses());
    }));
  }

  /**
   * Where the blocks are compiled: this module's test classes, on the JVM's class path, since
   * Flink deserializes a job's functions (a block's lambdas) with a class loader that sees the
   * class path and the job's jars, not the loader the block runs in.
   */
  private static Path testClasses() throws Exception {
    return Path.of(DocumentationSnippetsTest.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI());
  }

  /** Three records of 64 pixels, as the digits model takes them. */
  private static List<Tuple2<Integer, float[]>> digitRecords() {
    List<Tuple2<Integer, float[]>> records = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      float[] pixels = new float[64];
      for (int j = 0; j < 64; j++) {
        pixels[j] = ((i + j) % 17) / 16f;
      }
      records.add(Tuple2.of(i, pixels));
    }
    return records;
  }
}
