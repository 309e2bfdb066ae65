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
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SQL functions on a MiniCluster of one TaskManager with 2 slots, against TensorFlow Python's
 * outputs: the digits CNN from ARRAY&lt;FLOAT&gt; and ARRAY&lt;DOUBLE&gt; columns, the dtypes
 * model's INT32 signature from ARRAY&lt;INT&gt;, the wide model's 20 outputs as a ROW and as a
 * table function's columns; bad rows failing the job, kept as nulls or skipped; the pure-SQL
 * function registered with CREATE FUNCTION, its calls naming their models. Every test ends
 * with tfjni's live native objects where they were.
 */
@ExtendWith(TestModels.NoLeaks.class)
class SqlFunctionsTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = FlinkTests.twoSlotCluster();

  private static final int DIGITS = FlinkTests.DIGITS;

  private static float[] images;
  private static float[] pythonProbabilities;

  @BeforeAll
  static void readGoldens() throws IOException {
    FlinkTests.Digits digits = FlinkTests.Digits.read();
    images = digits.images();
    pythonProbabilities = digits.probabilities();
  }

  /**
   * A table environment at {@code parallelism}, each async operator holding up to 32 calls,
   * failing at once (no retries: a bad row or a broken model fails again), its operators chained
   * or not.
   */
  private static Session session(int parallelism, boolean chained) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    if (!chained) {
      env.disableOperatorChaining();
    }
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    var config = tables.getConfig();
    config.set("table.exec.async-scalar.max-concurrent-operations", "32");
    config.set("table.exec.async-scalar.retry-strategy", "NO_RETRY");
    config.set("table.exec.async-table.max-concurrent-operations", "32");
    config.set("table.exec.async-table.retry-strategy", "NO_RETRY");
    return new Session(env, tables);
  }

  /** A stream environment and the table environment over it. */
  private record Session(StreamExecutionEnvironment env, StreamTableEnvironment tables) {
    /** Registers {@code rows} of {@code type} as the view {@code name}. */
    void view(String name, List<Row> rows, TypeInformation<Row> type) {
      tables.createTemporaryView(name, tables.fromDataStream(env.fromData(rows, type)));
    }
  }

  /** The view {@code digits(id INT, pixels ARRAY<FLOAT>, pixels64 ARRAY<DOUBLE>)}. */
  private static void digitsView(Session session, List<Row> rows) {
    session.view("digits", rows, Types.ROW_NAMED(new String[] {"id", "pixels", "pixels64"},
        Types.INT, Types.OBJECT_ARRAY(Types.FLOAT), Types.OBJECT_ARRAY(Types.DOUBLE)));
  }

  private static Row digitRow(int id) {
    Float[] pixels = new Float[64];
    Double[] pixels64 = new Double[64];
    for (int p = 0; p < 64; p++) {
      pixels[p] = images[id * 64 + p];
      pixels64[p] = (double) images[id * 64 + p];
    }
    return Row.of(id, pixels, pixels64);
  }

  private static List<Row> digitRows(int count) {
    List<Row> rows = new ArrayList<>();
    for (int id = 0; id < count; id++) {
      rows.add(digitRow(id));
    }
    return rows;
  }

  private static SqlFunctionBuilder digitsFunction(String column) {
    return SqlFunctionBuilder.model(TestModels.modelPath("digits").toString())
        .input("images", column).maxBatchSize(16);
  }

  /** Whether the planner runs an async table function in a LATERAL TABLE: Flink 2.x's does. */
  private static final boolean ASYNC_TABLE_FUNCTIONS_RUN =
      !EnvironmentInformation.getVersion().startsWith("1.");

  /**
   * The rows of a query calling a table function; on Flink 1.x, whose planner finds no async
   * table function for a LATERAL TABLE, checks that it says so, and gives null.
   */
  private static List<Row> collectFromTableFunction(StreamTableEnvironment tables, String query)
      throws Exception {
    if (ASYNC_TABLE_FUNCTIONS_RUN) {
      return collect(tables, query);
    }
    ValidationException refused =
        assertThrows(ValidationException.class, () -> tables.sqlQuery(query));
    assertNotNull(messageNaming(refused, "No match found for function signature"),
        () -> causes(refused));
    return null;
  }

  /** A collected ARRAY as doubles, whether Flink gives it as a primitive or a boxed array. */
  private static double[] numbers(Object array) {
    double[] numbers = new double[Array.getLength(array)];
    for (int i = 0; i < numbers.length; i++) {
      numbers[i] = ((Number) Array.get(array, i)).doubleValue();
    }
    return numbers;
  }

  private static void assertPythonsProbabilities(int id, Object probabilities) {
    double[] row = numbers(probabilities);
    assertEquals(10, row.length);
    for (int c = 0; c < 10; c++) {
      float expected = pythonProbabilities[id * 10 + c];
      assertEquals(expected, row[c], 1e-6 + 1e-5 * Math.abs(expected),
          "digit " + id + " class " + c);
    }
  }

  @Test
  void digitsFromFloatAndDoubleArraysGiveTensorFlowPythonsProbabilities() throws Exception {
    Session session = session(2, true);
    StreamTableEnvironment tables = session.tables();
    digitsView(session, digitRows(DIGITS));
    tables.createTemporarySystemFunction("predict", digitsFunction("pixels").scalarFunction());
    tables.createTemporarySystemFunction("predict64",
        digitsFunction("pixels64").scalarFunction());
    List<Row> scored = collect(tables,
        "SELECT id, predict(pixels), predict64(pixels64) FROM digits");
    assertEquals(DIGITS, scored.size());
    boolean[] seen = new boolean[DIGITS];
    for (Row row : scored) {
      int id = (Integer) row.getField(0);
      assertTrue(!seen[id], "digit " + id + " came out twice");
      seen[id] = true;
      assertPythonsProbabilities(id, row.getField(1));
      assertPythonsProbabilities(id, row.getField(2));
    }
  }

  /** The dtypes model's INT32 signature returns its input ("same"), as Python's golden says. */
  @Test
  void intArraysFeedAnInt32Signature() throws Exception {
    JsonNode call = TestModels.testCase("dtypes_int32").get("calls").get(0);
    int[] x;
    int[] same;
    try (Tensor in = TestModels.tensor(call.get("inputs").get("x"));
        Tensor out = TestModels.tensor(call.get("outputs").get("same"))) {
      x = in.toIntArray();
      same = out.toIntArray();
    }
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < x.length / 3; r++) {
      rows.add(Row.of(r, new Integer[] {x[3 * r], x[3 * r + 1], x[3 * r + 2]}));
    }
    Session session = session(2, true);
    StreamTableEnvironment tables = session.tables();
    session.view("ints", rows,
        Types.ROW_NAMED(new String[] {"id", "x"}, Types.INT, Types.OBJECT_ARRAY(Types.INT)));
    tables.createTemporarySystemFunction("same", SqlFunctionBuilder.model(
        TestModels.modelPath("dtypes").toString()).signatureKey("int32").input("x", "x")
        .outputs("same").scalarFunction());
    List<Row> scored = collect(tables, "SELECT id, same(x) FROM ints");
    assertEquals(x.length / 3, scored.size());
    for (Row row : scored) {
      int r = (Integer) row.getField(0);
      double[] values = numbers(row.getField(1));
      for (int c = 0; c < 3; c++) {
        assertEquals(same[3 * r + c], (long) values[c], "row " + r + " element " + c);
      }
    }
  }

  /** The wide model's 20 inputs of one float per row and 20 outputs, as Python computed them. */
  @Test
  void aMultiOutputSignatureGivesARowOrATableFunctionsColumns() throws Exception {
    JsonNode call = TestModels.testCase("wide_scale_each").get("calls").get(0);
    List<String> keys = TestModels.fieldNames(call.get("inputs"));
    List<String> outputKeys = TestModels.fieldNames(call.get("outputs"));
    float[][] inputs = new float[keys.size()][];
    Map<String, float[]> outputs = new HashMap<>();
    for (int k = 0; k < keys.size(); k++) {
      try (Tensor x = TestModels.tensor(call.get("inputs").get(keys.get(k)))) {
        inputs[k] = x.toFloatArray();
      }
    }
    for (String key : outputKeys) {
      try (Tensor y = TestModels.tensor(call.get("outputs").get(key))) {
        outputs.put(key, y.toFloatArray());
      }
    }
    int rowCount = inputs[0].length;
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < rowCount; r++) {
      Row row = Row.withNames();
      row.setField("id", r);
      for (int k = 0; k < keys.size(); k++) {
        row.setField(keys.get(k), inputs[k][r]);
      }
      rows.add(row);
    }
    String[] names = new String[keys.size() + 1];
    TypeInformation<?>[] types = new TypeInformation<?>[keys.size() + 1];
    names[0] = "id";
    types[0] = Types.INT;
    for (int k = 0; k < keys.size(); k++) {
      names[k + 1] = keys.get(k);
      types[k + 1] = Types.FLOAT;
    }
    Session session = session(2, true);
    StreamTableEnvironment tables = session.tables();
    session.view("wide", rows, Types.ROW_NAMED(names, types));
    SqlFunctionBuilder builder = SqlFunctionBuilder.model(TestModels.modelPath("wide").toString())
        .signatureKey("scale_each").outputs(outputKeys.toArray(new String[0]));
    for (String key : keys) {
      builder.input(key, key);
    }
    tables.createTemporarySystemFunction("wide_row", builder.scalarFunction());
    tables.createTemporarySystemFunction("wide_table", builder.tableFunction());
    String arguments = String.join(", ", keys);
    List<Row> asRows = collect(tables, "SELECT id, wide_row(" + arguments + ") FROM wide");
    assertEquals(rowCount, asRows.size());
    for (Row row : asRows) {
      int r = (Integer) row.getField(0);
      Row prediction = (Row) row.getField(1);
      for (int o = 0; o < outputKeys.size(); o++) {
        assertEquals(outputs.get(outputKeys.get(o))[r], (Float) prediction.getField(o),
            TestModels.FLOAT_TOLERANCE, "row " + r + " output " + outputKeys.get(o));
      }
    }
    List<Row> asColumns = collectFromTableFunction(tables, "SELECT id, p.* FROM wide, "
        + "LATERAL TABLE(wide_table(" + arguments + ")) AS p");
    if (asColumns == null) {
      return;
    }
    assertEquals(rowCount, asColumns.size());
    for (Row row : asColumns) {
      int r = (Integer) row.getField(0);
      for (int o = 0; o < outputKeys.size(); o++) {
        assertEquals(outputs.get(outputKeys.get(o))[r], (Float) row.getField(o + 1),
            TestModels.FLOAT_TOLERANCE, "row " + r + " column " + outputKeys.get(o));
      }
    }
  }

  /** Row 5 has 63 pixels, row 7 none, row 9 a null pixel, row 11 a fraction for an INT32. */
  private static List<Row> digitsWithBadRows() {
    List<Row> rows = digitRows(24);
    rows.get(5).setField(1, java.util.Arrays.copyOf((Float[]) rows.get(5).getField(1), 63));
    rows.get(7).setField(1, null);
    ((Float[]) rows.get(9).getField(1))[3] = null;
    return rows;
  }

  /**
   * The (id, prediction) rows of {@link #digitsWithBadRows} under KEEP: NULL for the bad rows 5,
   * 7 and 9, Python's probabilities for the others.
   */
  private static void assertBadRowsKeptAsNulls(List<Row> kept) {
    assertEquals(digitsWithBadRows().size(), kept.size());
    for (Row row : kept) {
      int id = (Integer) row.getField(0);
      if (id == 5 || id == 7 || id == 9) {
        assertNull(row.getField(1), "row " + id);
      } else {
        assertPythonsProbabilities(id, row.getField(1));
      }
    }
  }

  /** The rows that fail the job, and why. */
  private static final String[][] BAD_ROWS = {{"5", "has 63 elements"},
      {"9", "has a null at element 3"}};

  @Test
  void aBadRowFailsTheJobNamingTheColumnAndTheRow() throws Exception {
    for (String[] c : BAD_ROWS) {
      int bad = Integer.parseInt(c[0]);
      // Five good rows, then the bad one: row 5 of the only subtask.
      List<Row> rows = new ArrayList<>(digitRows(5));
      Row badRow = digitsWithBadRows().get(bad);
      rows.add(badRow);
      // The message shows the call's arguments: here the one ARRAY, as Java prints it.
      String arguments = java.util.Arrays.deepToString(new Object[] {badRow.getField(1)});
      String shown = arguments.substring(0, Math.min(arguments.length(), 100));
      Session session = session(1, false);
      StreamTableEnvironment tables = session.tables();
      digitsView(session, rows);
      tables.createTemporarySystemFunction("predict", digitsFunction("pixels").scalarFunction());
      Exception failure = assertThrows(Exception.class,
          () -> collect(tables, "SELECT id, predict(pixels) FROM digits"), "row " + bad);
      String message = messageNaming(failure, "tfjni-flink:");
      assertNotNull(message, () -> "no cause names the row: " + causes(failure));
      assertTrue(message.contains("column 'pixels' (input 'images') of row 5 of subtask 0 ("
          + shown) && message.contains(c[1])
          && message.contains("expected an ARRAY of 64 numbers (FLOAT [8, 8, 1] per row)"),
          message);
    }
  }

  /** Flink does not call an async scalar function whose argument is NULL: its result is NULL. */
  @Test
  void aNullArgumentGivesANullResultEvenUnderError() throws Exception {
    Session session = session(1, true);
    List<Row> rows = digitsWithBadRows().subList(6, 9);  // ids 6, 7 (null) and 8
    digitsView(session, rows);
    session.tables().createTemporarySystemFunction("predict",
        digitsFunction("pixels").scalarFunction());
    List<Row> scored = collect(session.tables(), "SELECT id, predict(pixels) FROM digits");
    assertEquals(3, scored.size());
    for (Row row : scored) {
      int id = (Integer) row.getField(0);
      if (id == 7) {
        assertNull(row.getField(1));
      } else {
        assertPythonsProbabilities(id, row.getField(1));
      }
    }
  }

  @Test
  void aFractionForAnIntegerInputOrAColumnOfAnotherTypeIsRefused() throws Exception {
    Session session = session(1, false);
    StreamTableEnvironment tables = session.tables();
    session.view("mixed", List.of(Row.of(new Double[] {1.0, 2.5, 3.0},
        new String[] {"a", "b", "c"})), Types.ROW_NAMED(new String[] {"d", "s"},
        Types.OBJECT_ARRAY(Types.DOUBLE), Types.OBJECT_ARRAY(Types.STRING)));
    tables.createTemporarySystemFunction("same", SqlFunctionBuilder.model(
        TestModels.modelPath("dtypes").toString()).signatureKey("int32").input("x", "x")
        .outputs("same").scalarFunction());
    Exception fraction = assertThrows(Exception.class,
        () -> collect(tables, "SELECT same(d) FROM mixed"));
    assertNotNull(messageNaming(fraction, "has 2.5 at element 1, not an INT32"),
        () -> causes(fraction));
    ValidationException strings = assertThrows(ValidationException.class,
        () -> tables.sqlQuery("SELECT same(s) FROM mixed"));
    assertNotNull(messageNaming(strings, "argument 1 of same (column 'x', input 'x'): a "
        + "column of ARRAY<STRING> cannot feed an ARRAY of 3 numbers (INT32 [3] per row)"),
        () -> causes(strings));
  }

  @Test
  void badRowsAreKeptAsNullsOrSkippedWhenAsked() throws Exception {
    Session session = session(2, true);
    StreamTableEnvironment tables = session.tables();
    List<Row> rows = digitsWithBadRows();
    digitsView(session, rows);
    tables.createTemporarySystemFunction("predict",
        digitsFunction("pixels").invalidRecords(InvalidRecords.KEEP).scalarFunction());
    tables.createTemporarySystemFunction("predict_rows",
        digitsFunction("pixels").invalidRecords(InvalidRecords.SKIP).tableFunction());
    assertBadRowsKeptAsNulls(collect(tables, "SELECT id, predict(pixels) FROM digits"));
    List<Row> skipped = collectFromTableFunction(tables,
        "SELECT id, p.output_0 FROM digits, LATERAL TABLE(predict_rows(pixels)) AS p");
    if (skipped == null) {
      return;
    }
    assertEquals(rows.size() - 3, skipped.size());
    for (Row row : skipped) {
      int id = (Integer) row.getField(0);
      assertTrue(id != 5 && id != 7 && id != 9, "row " + id + " was not skipped");
      assertPythonsProbabilities(id, row.getField(1));
    }
  }

  @Test
  void aScalarFunctionCannotSkipAndTheAsyncFunctionCannotKeep() {
    assertThrows(IllegalArgumentException.class,
        () -> digitsFunction("pixels").invalidRecords(InvalidRecords.SKIP).scalarFunction());
    assertThrows(IllegalArgumentException.class,
        () -> SavedModelAsyncFunction.<float[]>builder("digits").input("images", "pixels",
            pixels -> pixels).invalidRecords(InvalidRecords.KEEP).build((x, p) -> x));
  }

  /** Registers {@link SavedModelPredict} from SQL, as a SQL client would. */
  private static void createPredictFromSql(StreamTableEnvironment tables) {
    tables.executeSql("CREATE TEMPORARY FUNCTION predict AS '"
        + SavedModelPredict.class.getName() + "'");
  }

  /** A SQL string literal of a test model's directory. */
  private static String literalPath(String model) {
    return "'" + TestModels.modelPath(model).toString().replace("'", "''") + "'";
  }

  @Test
  void pureSqlNamesTheModelInTheCallAndGetsTensorFlowPythonsProbabilities() throws Exception {
    Session session = session(2, true);
    StreamTableEnvironment tables = session.tables();
    digitsView(session, digitRows(DIGITS));
    createPredictFromSql(tables);
    String digits = literalPath("digits");
    List<Row> scored = collect(tables, "SELECT id, predict(" + digits + ", pixels), predict("
        + digits + ", pixels64) FROM digits");
    assertEquals(DIGITS, scored.size());
    for (Row row : scored) {
      int id = (Integer) row.getField(0);
      assertPythonsProbabilities(id, row.getField(1));
      assertPythonsProbabilities(id, row.getField(2));
    }
  }

  /**
   * The digits CNN and the multi model's serving_default (sum = a + b, inputs a and b in key
   * order) in one query: each call gets its own model.
   */
  @Test
  void pureSqlCallsOfTwoModelsInOneQueryEachRunTheirOwn() throws Exception {
    Session session = session(2, true);
    StreamTableEnvironment tables = session.tables();
    digitsView(session, digitRows(40));
    createPredictFromSql(tables);
    List<Row> scored = collect(tables, "SELECT id, predict(" + literalPath("digits")
        + ", pixels), predict(" + literalPath("multi") + ", id, 10 * id) FROM digits");
    assertEquals(40, scored.size());
    for (Row row : scored) {
      int id = (Integer) row.getField(0);
      assertPythonsProbabilities(id, row.getField(1));
      assertEquals(11f * id, (Float) row.getField(2), "sum of row " + id);
    }
  }

  @Test
  void pureSqlRefusesAPathThatIsNotALiteralOrNotAModelOrABadArgumentNamingIt() {
    Session session = session(1, true);
    StreamTableEnvironment tables = session.tables();
    session.view("named", List.of(Row.of(TestModels.modelPath("digits").toString(),
        digitRow(0).getField(1))), Types.ROW_NAMED(new String[] {"directory", "pixels"},
        Types.STRING, Types.OBJECT_ARRAY(Types.FLOAT)));
    createPredictFromSql(tables);
    ValidationException column = assertThrows(ValidationException.class,
        () -> tables.sqlQuery("SELECT predict(directory, pixels) FROM named"));
    assertNotNull(messageNaming(column, "predict must be the SavedModel's "
        + "directory as a literal string"), () -> causes(column));
    String missing = TestModels.dir().resolve("no_such_model").toString();
    ValidationException unknown = assertThrows(ValidationException.class,
        () -> tables.sqlQuery("SELECT predict('" + missing + "', pixels) FROM named"));
    assertNotNull(messageNaming(unknown, "predict: the SavedModel at '" + missing
        + "' cannot serve"), () -> causes(unknown));
    ValidationException count = assertThrows(ValidationException.class,
        () -> tables.sqlQuery("SELECT predict(" + literalPath("multi") + ", 1.5) FROM named"));
    assertNotNull(messageNaming(count, "predict takes 2 arguments after the model's path, one "
        + "per input of signature 'serving_default' ([a, b]), got 1"), () -> causes(count));
    ValidationException type = assertThrows(ValidationException.class, () -> tables.sqlQuery(
        "SELECT predict(" + literalPath("digits") + ", directory) FROM named"));
    assertNotNull(messageNaming(type, "predict (input 'images'): a column of STRING cannot feed"),
        () -> causes(type));
  }

  @Test
  void pureSqlNamesABadRowsArgumentByItsPosition() {
    List<Row> rows = new ArrayList<>(digitRows(5));
    rows.add(digitsWithBadRows().get(5));
    Session session = session(1, false);
    StreamTableEnvironment tables = session.tables();
    digitsView(session, rows);
    createPredictFromSql(tables);
    Exception failure = assertThrows(Exception.class, () -> collect(tables,
        "SELECT id, predict(" + literalPath("digits") + ", pixels) FROM digits"));
    assertNotNull(messageNaming(failure, "tfjni-flink: argument 2 (input 'images') of row 5 of "
        + "subtask 0"), () -> causes(failure));
  }

  /**
   * A bad row's message ends with the setting that lets the job go on past it, as the function's
   * user sets it: the builder's {@code invalidRecords}, pure SQL's job parameter.
   */
  @Test
  void aBadRowsMessageNamesTheSettingThatLetsTheJobGoOn() {
    String[][] cases = {
        {"predict(pixels)", "Set invalidRecords to KEEP to go on past such rows"},
        {"predict_sql(" + literalPath("digits") + ", pixels)",
            "Set the job parameter 'tfjni.invalid-records' to KEEP to go on past such rows"}};
    for (String[] c : cases) {
      List<Row> rows = new ArrayList<>(digitRows(5));
      rows.add(digitsWithBadRows().get(5));
      Session session = session(1, false);
      StreamTableEnvironment tables = session.tables();
      digitsView(session, rows);
      tables.createTemporarySystemFunction("predict", digitsFunction("pixels").scalarFunction());
      tables.executeSql("CREATE TEMPORARY FUNCTION predict_sql AS '"
          + SavedModelPredict.class.getName() + "'");
      Exception failure = assertThrows(Exception.class,
          () -> collect(tables, "SELECT id, " + c[0] + " FROM digits"));
      assertNotNull(messageNaming(failure, "has 63 elements, a row of the signature's "
          + "[-1, 8, 8, 1] has 64; expected an ARRAY of 64 numbers (FLOAT [8, 8, 1] per row). "
          + c[1]), () -> causes(failure));
    }
  }

  /** The job parameter KEEP gives rows 5 (63 pixels), 7 (NULL) and 9 (a null pixel) NULL. */
  @Test
  void pureSqlKeepsBadRowsAsNullsUnderTheJobParameter() throws Exception {
    Session session = session(2, true);
    StreamTableEnvironment tables = session.tables();
    digitsView(session, digitsWithBadRows());
    createPredictFromSql(tables);
    tables.getConfig().set("pipeline.global-job-parameters",
        SavedModelPredict.INVALID_RECORDS_PARAMETER + ":KEEP");
    assertBadRowsKeptAsNulls(collect(tables,
        "SELECT id, predict(" + literalPath("digits") + ", pixels) FROM digits"));
  }
}
