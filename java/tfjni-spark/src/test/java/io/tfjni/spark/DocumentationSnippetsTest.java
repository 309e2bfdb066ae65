package io.tfjni.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.tfjni.MarkdownSnippets;
import io.tfjni.TestModels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** The Java blocks of README.md and docs/*.md that name this module, compiled and run. */
class DocumentationSnippetsTest {
  private static final List<String> IMPORTS = List.of("io.tfjni.spark.*", "org.apache.spark.sql.*",
      "java.util.*");

  private static SparkSession spark;

  @TempDir
  Path classes;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[2]").appName("tfjni-spark-doc-test")
        .config("spark.ui.enabled", "false").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
    ExecutorModels.CACHE.evictUnused();
  }

  @TestFactory
  Stream<DynamicTest> everyBlockCompilesAndRuns() throws Exception {
    List<MarkdownSnippets.Snippet> snippets = MarkdownSnippets.of("tfjni-spark",
        MarkdownSnippets.projectDocuments());
    assertFalse(snippets.isEmpty(), "no Java block names tfjni-spark");
    Map<String, Object> values = Map.of("images", digitImages(), "modelPath",
        TestModels.modelPath("digits").toString());
    return snippets.stream().map(snippet -> dynamicTest(snippet.where(),
        () -> MarkdownSnippets.run(snippet, IMPORTS, values, classes.resolve("b" + snippet.line()))));
  }

  /** Three images of 64 pixels in a "pixels" column, as the digits model takes them. */
  private static Dataset<Row> digitImages() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      List<Float> pixels = new ArrayList<>();
      for (int j = 0; j < 64; j++) {
        pixels.add(((i + j) % 17) / 16f);
      }
      rows.add(RowFactory.create(pixels));
    }
    StructType schema = new StructType()
        .add("pixels", DataTypes.createArrayType(DataTypes.FloatType, false));
    return spark.createDataFrame(rows, schema);
  }
}
