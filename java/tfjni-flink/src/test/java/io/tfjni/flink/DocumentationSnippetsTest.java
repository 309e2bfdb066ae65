package io.tfjni.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.tfjni.MarkdownSnippets;
import io.tfjni.TestModels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * docs/FLINK.md's SQL blocks, run, on three held-out digits: what each prints or returns must be
 * TensorFlow Python's probabilities for those digits.
 */
@ExtendWith(TestModels.NoLeaks.class)
class DocumentationSnippetsTest {
  private static final List<String> IMPORTS = List.of("io.tfjni.flink.*", "java.time.*",
      "java.util.*", "java.util.concurrent.*", "org.apache.flink.api.common.typeinfo.Types",
      "org.apache.flink.api.java.tuple.Tuple2", "org.apache.flink.streaming.api.datastream.*",
      "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment",
      "org.apache.flink.table.api.bridge.java.StreamTableEnvironment");

  /** A printed record: its id, then its probabilities in brackets. */
  private static final Pattern PRINTED_RECORD = Pattern.compile("(-?\\d+)\\D*\\[([^\\]]*)\\]");

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
      String printed = printedBy(() -> MarkdownSnippets.run(snippet, IMPORTS, values,
          testClasses()));
      assertPrintsPythonsProbabilities(snippet.where(), printed);
    }));
  }

  private interface Block {
    void run() throws Exception;
  }

  /**
   * What {@code block} prints on {@code System.out}: a DataStream's print sink (in the
   * MiniCluster's task threads, which take {@code System.out} when the job starts) and a table
   * result's {@code print()}.
   */
  private static String printedBy(Block block) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      block.run();
    } finally {
      System.setOut(original);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    original.print(printed);
    return printed;
  }

  /** Each digit's record printed once, with Python's probabilities for that digit. */
  private static void assertPrintsPythonsProbabilities(String where, String printed)
      throws Exception {
    FlinkTests.Digits digits = FlinkTests.Digits.read();
    Map<Integer, double[]> byId = new TreeMap<>();
    for (String line : printed.split("\\R")) {
      Matcher record = PRINTED_RECORD.matcher(line);
      if (record.find()) {
        double[] numbers = Arrays.stream(record.group(2).split(","))
            .mapToDouble(number -> Double.parseDouble(number.strip())).toArray();
        assertEquals(null, byId.put(Integer.parseInt(record.group(1)), numbers),
            where + " printed a record twice:\n" + printed);
      }
    }
    assertEquals(List.of(0, 1, 2), List.copyOf(byId.keySet()),
        where + " prints each digit's record:\n" + printed);
    byId.forEach((id, probabilities) -> digits.assertPythons(id, probabilities,
        where + ", digit " + id));
  }

  /**
   * docs/FLINK.md's SQL block of {@code SavedModelPredict}, run statement by statement over the
   * view {@code events} of {@link #digitRecords} with the digits model's directory for {@code
   * /models/digits}: the SELECT's last column holds each record's 10 probabilities, Python's for
   * the record's digit (its first column).
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
    FlinkTests.Digits digits = FlinkTests.Digits.read();
    for (Row row : rows) {
      digits.assertPythons((Integer) row.getField(0), row.getField(row.getArity() - 1),
          "the block's row " + row);
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

  /** The first three held-out digits as (id, 64 pixels) records, the id their index. */
  private static List<Tuple2<Integer, float[]>> digitRecords() throws IOException {
    FlinkTests.Digits digits = FlinkTests.Digits.read();
    List<Tuple2<Integer, float[]>> records = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      records.add(Tuple2.of(i, digits.pixels(i)));
    }
    return records;
  }
}
