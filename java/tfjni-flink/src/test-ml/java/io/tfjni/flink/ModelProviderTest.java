package io.tfjni.flink;

import static io.tfjni.flink.FlinkTests.causes;
import static io.tfjni.flink.FlinkTests.collect;
import static io.tfjni.flink.FlinkTests.messageNaming;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CREATE MODEL ... WITH ('provider' = 'tensorflow', ...)} and {@code ML_PREDICT}, in pure
 * SQL on a MiniCluster of one TaskManager with 2 slots, against TensorFlow Python's outputs (the
 * manifest's goldens, or arithmetic for the multi model's sum): several models in one query,
 * asynchronous (the planner's default) and synchronous calls, number and string columns, bad
 * rows under each policy and models whose columns do not fit their signature. Every test ends
 * with tfjni's live native objects where they were.
 */
@ExtendWith(TestModels.NoLeaks.class)
class ModelProviderTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = FlinkTests.twoSlotCluster();

  private static FlinkTests.Digits digits;

  @BeforeAll
  static void readGoldens() throws Exception {
    digits = FlinkTests.Digits.read();
  }

  /** The stream environment of each table environment {@link #tables} made. */
  private static final Map<StreamTableEnvironment, StreamExecutionEnvironment> STREAMS =
      new HashMap<>();

  /** A table environment at {@code parallelism}, each operator a task of its own. */
  private static StreamTableEnvironment tables(int parallelism) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    // A bad row's exception then reaches the job's failure, not a source's lost event
    // (docs/FLINK.md, "A failure in a source's task").
    env.disableOperatorChaining();
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    STREAMS.put(tables, env);
    return tables;
  }

  /** Registers {@code rows} of {@code type} as the view {@code name}. */
  private static void view(StreamTableEnvironment tables, String name, List<Row> rows,
      TypeInformation<Row> type) {
    tables.createTemporaryView(name,
        tables.fromDataStream(STREAMS.get(tables).fromData(rows, type)));
  }

  /** {@code digits(id INT, pixels ARRAY<FLOAT>)} of these rows. */
  private static void digitsView(StreamTableEnvironment tables, List<Row> rows) {
    view(tables, "digits", rows, Types.ROW_NAMED(new String[] {"id", "pixels"}, Types.INT,
        Types.OBJECT_ARRAY(Types.FLOAT)));
  }

  private static List<Row> digitRows(int count) {
    List<Row> rows = new ArrayList<>();
    for (int id = 0; id < count; id++) {
      float[] pixels = digits.pixels(id);
      Float[] boxed = new Float[pixels.length];
      for (int p = 0; p < boxed.length; p++) {
        boxed[p] = pixels[p];
      }
      rows.add(Row.of(id, boxed));
    }
    return rows;
  }

  /** A SQL string literal of a test model's directory. */
  private static String path(String model) {
    return "'" + TestModels.modelPath(model).toString().replace("'", "''") + "'";
  }

  /** The digits CNN as model {@code name}, its options after the path. */
  private static void createDigitsModel(StreamTableEnvironment tables, String name,
      String options) {
    tables.executeSql("CREATE TEMPORARY MODEL " + name + " INPUT (images ARRAY<FLOAT>) OUTPUT "
        + "(output_0 ARRAY<FLOAT>) WITH ('provider' = 'tensorflow', 'path' = " + path("digits")
        + options + ")");
  }

  /**
   * The digits CNN, then the multi model's serving_default (sum = a + b, its INPUT columns x and
   * y mapped to a and b and its OUTPUT column to sum by the options) over the first's rows, fed
   * from INT columns.
   */
  @Test
  void twoModelsInOneQueryGiveTensorFlowPythonsValues() throws Exception {
    StreamTableEnvironment tables = tables(2);
    digitsView(tables, digitRows(FlinkTests.DIGITS));
    createDigitsModel(tables, "digits_model", ", 'batch-size' = '16'");
    tables.executeSql("CREATE TEMPORARY MODEL adder INPUT (x FLOAT, y FLOAT) OUTPUT "
        + "(total FLOAT) WITH ('provider' = 'tensorflow', 'path' = " + path("multi")
        + ", 'inputs' = 'a;b', 'outputs' = 'sum')");
    // INT columns for the FLOAT ones: Flink hands them over as they are, and they are converted.
    tables.executeSql("CREATE TEMPORARY VIEW scored AS SELECT id, output_0, id AS x, "
        + "10 * id AS y FROM ML_PREDICT(TABLE digits, MODEL digits_model, DESCRIPTOR(pixels))");
    List<Row> rows = collect(tables, "SELECT id, output_0, total "
        + "FROM ML_PREDICT(TABLE scored, MODEL adder, DESCRIPTOR(x, y))");
    assertEquals(FlinkTests.DIGITS, rows.size());
    Set<Integer> seen = new HashSet<>();
    for (Row row : rows) {
      int id = (Integer) row.getField(0);
      assertTrue(seen.add(id), "digit " + id + " came out twice");
      digits.assertPythons(id, row.getField(1), "digit " + id);
      assertEquals(11f * id, (Float) row.getField(2), "total of row " + id);
    }
  }

  /**
   * {@code 'litert-threads'}: digits was converted to LiteRT at batch 1 and 4
   * (scripts/goldens/litert_convert.py, what {@code tfjni convert} runs); with a batch size of 1 every
   * run is LiteRT's, and every digit gets TensorFlow Python's probabilities within the manifest's
   * LiteRT tolerance. Without the option no LiteRT predictor is made.
   */
  @Test
  void theLiteRtThreadsOptionRunsConvertedBatchSizesOnLiteRt() throws Exception {
    for (String threads : new String[] {"", ", 'litert-threads' = '1'"}) {
      StreamTableEnvironment tables = tables(2);
      digitsView(tables, digitRows(40));
      createDigitsModel(tables, "digits_model", ", 'batch-size' = '1'" + threads);
      List<Row> rows;
      List<String> lines;
      try (FlinkTests.LiteRtLog log = new FlinkTests.LiteRtLog()) {
        rows = collect(tables, "SELECT id, output_0 FROM ML_PREDICT(TABLE digits, "
            + "MODEL digits_model, DESCRIPTOR(pixels))");
        lines = log.lines();
      }
      assertEquals(40, rows.size());
      for (Row row : rows) {
        int id = (Integer) row.getField(0);
        digits.assertPythonsOnLiteRt(id, row.getField(1), "digit " + id + threads);
      }
      if (threads.isEmpty()) {
        assertEquals(List.of(), lines);
      } else {
        assertTrue(lines.stream().anyMatch(l -> l.contains("at batch 1 runs on LiteRT")),
            lines.toString());
      }
    }
  }

  /** {@code MAP['async', 'false']}: the synchronous function, each row a run of its own. */
  @Test
  void aSynchronousCallGivesTensorFlowPythonsProbabilities() throws Exception {
    StreamTableEnvironment tables = tables(2);
    digitsView(tables, digitRows(40));
    createDigitsModel(tables, "digits_model", "");
    List<Row> rows = collect(tables, "SELECT id, output_0 FROM ML_PREDICT(TABLE digits, "
        + "MODEL digits_model, DESCRIPTOR(pixels), MAP['async', 'false'])");
    assertEquals(40, rows.size());
    for (Row row : rows) {
      int id = (Integer) row.getField(0);
      digits.assertPythons(id, row.getField(1), "digit " + id);
    }
  }

  /** The strings model's transform from a STRING column: upper-cased text and byte lengths. */
  @Test
  void aStringColumnGivesStringAndIntOutputsAsPython() throws Exception {
    JsonNode call = TestModels.testCase("strings_transform").get("calls").get(0);
    byte[][] inputs = TestModels.strings(call.get("inputs").get("s"));
    byte[][] upper = TestModels.strings(call.get("outputs").get("upper"));
    int[] lengths;
    try (Tensor length = TestModels.tensor(call.get("outputs").get("length"))) {
      lengths = length.toIntArray();
    }
    List<Row> texts = new ArrayList<>();
    for (int i = 0; i < inputs.length; i++) {
      try {  // SQL strings are text: the golden strings that are not UTF-8 are left out
        texts.add(Row.of(i, StandardCharsets.UTF_8.newDecoder()
            .decode(ByteBuffer.wrap(inputs[i])).toString()));
      } catch (CharacterCodingException binary) {
        // left out
      }
    }
    StreamTableEnvironment tables = tables(2);
    view(tables, "texts", texts,
        Types.ROW_NAMED(new String[] {"id", "text"}, Types.INT, Types.STRING));
    tables.executeSql("CREATE TEMPORARY MODEL transform INPUT (s STRING) OUTPUT "
        + "(`upper` STRING, length INT) WITH ('provider' = 'tensorflow', 'path' = "
        + path("strings") + ", 'signature' = 'transform')");
    for (String async : List.of("true", "false")) {
      List<Row> rows = collect(tables, "SELECT id, `upper`, length FROM ML_PREDICT(TABLE texts, "
          + "MODEL transform, DESCRIPTOR(text), MAP['async', '" + async + "'])");
      assertEquals(texts.size(), rows.size());
      for (Row row : rows) {
        int i = (Integer) row.getField(0);
        assertEquals(new String(upper[i], StandardCharsets.UTF_8), row.getField(1),
            "upper of string " + i + ", async " + async);
        assertEquals(lengths[i], row.getField(2), "length of string " + i + ", async " + async);
      }
    }
  }

  /** Row 5 has 63 pixels, row 7 none (NULL), row 9 a null pixel. */
  private static List<Row> digitsWithBadRows() {
    List<Row> rows = digitRows(24);
    rows.get(5).setField(1, Arrays.copyOf((Float[]) rows.get(5).getField(1), 63));
    rows.get(7).setField(1, null);
    ((Float[]) rows.get(9).getField(1))[3] = null;
    return rows;
  }

  @Test
  void badRowsAreKeptAsNullsOrSkippedUnderThoseOptions() throws Exception {
    for (String async : List.of("true", "false")) {
      StreamTableEnvironment tables = tables(2);
      digitsView(tables, digitsWithBadRows());
      createDigitsModel(tables, "kept", ", 'invalid-records' = 'KEEP'");
      createDigitsModel(tables, "skipped", ", 'invalid-records' = 'SKIP'");
      String config = ", MAP['async', '" + async + "'])";
      List<Row> kept = collect(tables, "SELECT id, output_0 FROM ML_PREDICT(TABLE digits, "
          + "MODEL kept, DESCRIPTOR(pixels)" + config);
      assertEquals(24, kept.size(), "async " + async);
      for (Row row : kept) {
        int id = (Integer) row.getField(0);
        if (id == 5 || id == 7 || id == 9) {
          assertNull(row.getField(1), "row " + id + ", async " + async);
        } else {
          digits.assertPythons(id, row.getField(1), "digit " + id + ", async " + async);
        }
      }
      List<Row> skipped = collect(tables, "SELECT id, output_0 FROM ML_PREDICT(TABLE digits, "
          + "MODEL skipped, DESCRIPTOR(pixels)" + config);
      assertEquals(21, skipped.size(), "async " + async);
      for (Row row : skipped) {
        int id = (Integer) row.getField(0);
        assertTrue(id != 5 && id != 7 && id != 9, "row " + id + " was not skipped");
        digits.assertPythons(id, row.getField(1), "digit " + id + ", async " + async);
      }
    }
  }

  /** Under ERROR (the default), each bad row fails the job naming the column, input and row. */
  @Test
  void aBadRowFailsTheJobNamingTheColumnTheInputAndTheRow() {
    String[][] cases = {{"5", "has 63 elements"}, {"7", "is null"},
        {"9", "has a null at element 3"}};
    for (String async : List.of("true", "false")) {
      for (String[] c : cases) {
        int bad = Integer.parseInt(c[0]);
        List<Row> rows = new ArrayList<>(digitRows(5));  // five good rows, then the bad one
        rows.add(digitsWithBadRows().get(bad));
        StreamTableEnvironment tables = tables(1);
        digitsView(tables, rows);
        createDigitsModel(tables, "digits_model", "");
        Exception failure = assertThrows(Exception.class, () -> collect(tables,
            "SELECT id, output_0 FROM ML_PREDICT(TABLE digits, MODEL digits_model, "
                + "DESCRIPTOR(pixels), MAP['async', '" + async + "'])"));
        String message = messageNaming(failure, "tfjni-flink:");
        assertNotNull(message, () -> "row " + bad + ": " + causes(failure));
        // The function sees the model's INPUT columns, not the table's.
        assertTrue(message.contains("column 'images' (input 'images') of row 5 of subtask 0")
            && message.contains(c[1]) && message.contains(
                "expected an ARRAY of 64 numbers (FLOAT [8, 8, 1] per row)"), message);
      }
    }
  }

  /** A bad row's message ends with the model option that lets the job go on past it. */
  @Test
  void aBadRowsMessageNamesTheModelOptionThatLetsTheJobGoOn() {
    List<Row> rows = new ArrayList<>(digitRows(5));
    rows.add(digitsWithBadRows().get(5));
    StreamTableEnvironment tables = tables(1);
    digitsView(tables, rows);
    createDigitsModel(tables, "digits_model", "");
    Exception failure = assertThrows(Exception.class, () -> collect(tables,
        "SELECT id, output_0 FROM ML_PREDICT(TABLE digits, MODEL digits_model, "
            + "DESCRIPTOR(pixels))"));
    assertNotNull(messageNaming(failure, "per row). Set the model option 'invalid-records' to "
        + "SKIP or KEEP to go on past such rows"), () -> causes(failure));
  }

  /**
   * The message planning {@code ML_PREDICT} over a digits model created with these columns fails
   * with, fed from the column {@code pixels ARRAY<FLOAT>}, or {@code words ARRAY<STRING>} for an
   * INPUT column of that type (Flink refuses a column that cannot be cast to its INPUT column
   * before the provider sees the model).
   */
  private static String planningFailure(String input, String output, String options) {
    StreamTableEnvironment tables = tables(1);
    view(tables, "mixed", List.of(Row.of(new Float[64], new String[] {"a"})),
        Types.ROW_NAMED(new String[] {"pixels", "words"}, Types.OBJECT_ARRAY(Types.FLOAT),
            Types.OBJECT_ARRAY(Types.STRING)));
    tables.executeSql("CREATE TEMPORARY MODEL m INPUT (" + input + ") OUTPUT (" + output
        + ") WITH ('provider' = 'tensorflow', 'path' = " + path("digits") + options + ")");
    String column = input.contains("STRING") ? "words" : "pixels";
    Exception failure = assertThrows(Exception.class, () -> tables.sqlQuery(
        "SELECT * FROM ML_PREDICT(TABLE mixed, MODEL m, DESCRIPTOR(" + column + "))")
        .explain());
    // The provider's exception is the cause of Flink's "Unable to create a model provider".
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().startsWith("Unable to create a model provider")
          && t.getCause() != null) {
        return t.getCause().getMessage();
      }
    }
    throw new AssertionError("the provider refused nothing: " + causes(failure));
  }

  @Test
  void columnsThatDoNotFitTheSignatureFailThePlanningNamingThem() {
    assertEquals("INPUT column 'pixels' feeds no input of signature 'serving_default': its "
        + "inputs are [images] (name each column after its input, or list the inputs in the "
        + "option 'inputs')", planningFailure("pixels ARRAY<FLOAT>", "output_0 ARRAY<FLOAT>", ""));
    assertEquals("INPUT column 'images' (input 'images'): a column of ARRAY<STRING> cannot feed "
        + "an ARRAY of 64 numbers (FLOAT [8, 8, 1] per row)",
        planningFailure("images ARRAY<STRING>", "output_0 ARRAY<FLOAT>", ""));
    assertEquals("INPUT column 'x' (input 'images'): a column of ARRAY<STRING> cannot feed "
        + "an ARRAY of 64 numbers (FLOAT [8, 8, 1] per row)", planningFailure(
            "x ARRAY<STRING>", "output_0 ARRAY<FLOAT>", ", 'inputs' = 'images'"));
    assertEquals("OUTPUT column 'probabilities' is no output of signature 'serving_default': "
        + "its outputs are [output_0] (name each column after its output, or list the outputs "
        + "in the option 'outputs')",
        planningFailure("images ARRAY<FLOAT>", "probabilities ARRAY<FLOAT>", ""));
    assertEquals("OUTPUT column 'probabilities' is ARRAY<DOUBLE>, but output 'output_0' gives "
        + "ARRAY<FLOAT> (FLOAT [10] per row)", planningFailure("images ARRAY<FLOAT>",
            "probabilities ARRAY<DOUBLE>", ", 'outputs' = 'output_0'"));
    assertEquals("the option 'inputs' names 2 keys [images, more] for 1 INPUT columns [images]: "
        + "give one per column, in order", planningFailure("images ARRAY<FLOAT>",
            "output_0 ARRAY<FLOAT>", ", 'inputs' = 'images;more'"));
  }

  /** The manifest's rows of {@code x} for the versioned models, and model's {@code y} of them. */
  private static float[][] versionedRows(String model, String tensor) {
    JsonNode call = TestModels.testCase(model + "_rows").get("calls").get(0);
    JsonNode json = call.get(tensor.equals("x") ? "inputs" : "outputs").get(tensor);
    try (Tensor values = TestModels.tensor(json)) {
      float[] flat = values.toFloatArray();
      float[][] rows = new float[flat.length / 3][];
      for (int r = 0; r < rows.length; r++) {
        rows[r] = Arrays.copyOfRange(flat, 3 * r, 3 * r + 3);
      }
      return rows;
    }
  }

  /**
   * 'versions' = 'latest' over a base directory: version 1 (the versioned_a model) serves, then
   * once version 2 (versioned_b, the same signature) is there, version 2; each query's values
   * are those TensorFlow Python computed with that version, synchronous and asynchronous.
   */
  @Test
  void theLatestVersionOfABaseDirectoryServes(@TempDir Path base) throws Exception {
    float[][] x = versionedRows("versioned_a", "x");
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < x.length; r++) {
      Float[] boxed = new Float[3];
      for (int c = 0; c < 3; c++) {
        boxed[c] = x[r][c];
      }
      rows.add(Row.of(r, boxed));
    }
    StreamTableEnvironment tables = tables(2);
    view(tables, "points", rows, Types.ROW_NAMED(new String[] {"id", "x"}, Types.INT,
        Types.OBJECT_ARRAY(Types.FLOAT)));
    tables.executeSql("CREATE TEMPORARY MODEL versioned INPUT (x ARRAY<FLOAT>) OUTPUT "
        + "(y ARRAY<FLOAT>) WITH ('provider' = 'tensorflow', 'path' = '"
        + base.toString().replace("'", "''") + "', 'versions' = 'latest')");
    TestModels.copyTree(TestModels.modelPath("versioned_a"), base.resolve("1"), Set.of());
    for (String model : List.of("versioned_a", "versioned_b")) {
      if (model.equals("versioned_b")) {
        TestModels.copyTree(TestModels.modelPath("versioned_b"), base.resolve("2"), Set.of());
      }
      float[][] y = versionedRows(model, "y");
      for (String async : List.of("true", "false")) {
        List<Row> scored = collect(tables, "SELECT id, y FROM ML_PREDICT(TABLE points, "
            + "MODEL versioned, DESCRIPTOR(x), MAP['async', '" + async + "'])");
        assertEquals(x.length, scored.size());
        for (Row row : scored) {
          int r = (Integer) row.getField(0);
          Object values = row.getField(1);
          for (int c = 0; c < 3; c++) {
            assertEquals(y[r][c], ((Number) java.lang.reflect.Array.get(values, c)).floatValue(),
                TestModels.FLOAT_TOLERANCE, model + " row " + r + " element " + c + ", async "
                + async);
          }
        }
      }
    }
  }

  @Test
  void aModelThatCannotServeOrAnUnknownOptionFailsThePlanning() {
    StreamTableEnvironment tables = tables(1);
    digitsView(tables, digitRows(1));
    String missing = TestModels.dir().resolve("no_such_model").toString();
    tables.executeSql("CREATE TEMPORARY MODEL missing INPUT (images ARRAY<FLOAT>) OUTPUT "
        + "(output_0 ARRAY<FLOAT>) WITH ('provider' = 'tensorflow', 'path' = '" + missing
        + "')");
    Exception unknown = assertThrows(Exception.class, () -> tables.sqlQuery(
        "SELECT * FROM ML_PREDICT(TABLE digits, MODEL missing, DESCRIPTOR(pixels))").explain());
    assertNotNull(messageNaming(unknown, "the SavedModel at '" + missing + "' cannot serve "
        + "signature 'serving_default': "), () -> causes(unknown));
    createDigitsModel(tables, "misspelt", ", 'batch-sise' = '8'");
    Exception option = assertThrows(Exception.class, () -> tables.sqlQuery(
        "SELECT * FROM ML_PREDICT(TABLE digits, MODEL misspelt, DESCRIPTOR(pixels))").explain());
    assertNotNull(messageNaming(option, "batch-sise"), () -> causes(option));
  }
}
