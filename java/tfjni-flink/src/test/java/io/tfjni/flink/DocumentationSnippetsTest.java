package io.tfjni.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.tfjni.MarkdownSnippets;
import io.tfjni.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Java blocks of README.md and docs/*.md that name this module, compiled and run, and
 * docs/FLINK.md's SQL block, run.
 */
@ExtendWith(TestModels.NoLeaks.class)
class DocumentationSnippetsTest {
  private static final List<String> IMPORTS = List.of("io.tfjni.flink.*", "java.time.*",
      "java.util.*", "java.util.concurrent.*", "org.apache.flink.api.common.typeinfo.Types",
      "org.apache.flink.api.java.tuple.Tuple2", "org.apache.flink.streaming.api.datastream.*",
      "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment",
      "org.apache.flink.table.api.bridge.java.StreamTableEnvironment");

  /** The SQL client's {@code SET 'key' = 'value'}. */
  private static final Pattern SET = Pattern.compile("SET\\s+'([^']+)'\\s*=\\s*'([^']*)'");

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
   * docs/FLINK.md's SQL block of {@code SavedModelPredict}, run statement by statement over the
   * view {@code events} of {@link #digitRecords} with the digits model's directory for {@code
   * /models/digits}: the SELECT's last column holds each record's 10 probabilities, which sum to
   * 1.
   */
  @Test
  void theSqlBlockRuns() throws Exception {
    runSqlBlock("<!-- sql: given the view events");
  }

  /**
   * Runs the SQL block of docs/FLINK.md after the line starting with {@code marker}, as {@link
   * #theSqlBlockRuns} says.
   */
  static void runSqlBlock(String marker) throws Exception {
    Path flinkDocs = MarkdownSnippets.projectDocuments().stream()
        .filter(document -> document.getFileName().toString().equals("FLINK.md")).findFirst()
        .orElseThrow();
    List<String> lines = Files.readAllLines(flinkDocs);
    int markerLine = -1;
    for (int i = 0; i < lines.size() && markerLine < 0; i++) {
      markerLine = lines.get(i).startsWith(marker) ? i : -1;
    }
    assertTrue(markerLine >= 0 && lines.get(markerLine + 1).equals("```sql"),
        "no SQL block after '" + marker + "' in " + flinkDocs);
    List<String> afterFence = lines.subList(markerLine + 2, lines.size());
    String block = String.join("\n", afterFence.subList(0, afterFence.indexOf("```")))
        .replace("'/models/digits'", "'" + TestModels.modelPath("digits") + "'");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    tables.createTemporaryView("events", tables.fromDataStream(env.fromData(digitRecords(),
        Types.TUPLE(Types.INT, Types.PRIMITIVE_ARRAY(Types.FLOAT)))).as("id", "features"));
    List<String> statements = Arrays.stream(block.split(";")).map(String::strip)
        .filter(statement -> !statement.isEmpty()).toList();
    for (String statement : statements.subList(0, statements.size() - 1)) {
      // SET is the SQL client's: a table environment takes it as configuration.
      Matcher set = SET.matcher(statement);
      if (set.matches()) {
        tables.getConfig().set(set.group(1), set.group(2));
      } else {
        tables.executeSql(statement);
      }
    }
    List<Row> rows = FlinkTests.collect(tables, statements.get(statements.size() - 1));
    assertEquals(digitRecords().size(), rows.size());
    for (Row row : rows) {
      Object probabilities = row.getField(row.getArity() - 1);
      double sum = 0;
      for (int c = 0; c < java.lang.reflect.Array.getLength(probabilities); c++) {
        sum += ((Number) java.lang.reflect.Array.get(probabilities, c)).doubleValue();
      }
      assertEquals(1, sum, 1e-5, "probabilities of " + row);
    }
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
