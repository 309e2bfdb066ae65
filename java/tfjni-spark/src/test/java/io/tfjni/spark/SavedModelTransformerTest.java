package io.tfjni.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkException;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transformer on a local[2] Spark session, against TensorFlow Python's outputs: the digits
 * CNN's held-out predictions, and the manifest's cases of the multi-input and string models.
 */
class SavedModelTransformerTest {
  private static SparkSession spark;
  private static HeldOutDigits heldOut;
  private static float[] pythonProbabilities;
  private static final int DIGITS = HeldOutDigits.COUNT;

  @BeforeAll
  static void start() throws IOException {
    spark = SparkSession.builder().master("local[2]").appName("tfjni-spark-test")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
        .getOrCreate();
    heldOut = HeldOutDigits.read();
    pythonProbabilities = heldOut.probabilities();
  }

  @AfterAll
  static void stop() {
    spark.stop();
    ExecutorModels.CACHE.evictUnused();
  }

  private long tensorsBefore;

  @BeforeEach
  void countTensors() {
    tensorsBefore = TensorFlow.liveObjects().tensors();
  }

  @AfterEach
  void nothingRunsBetweenTests() {
    assertEquals(0, TensorFlow.liveObjects().runners(), "every partition closed its predictor");
    assertEquals(tensorsBefore, TensorFlow.liveObjects().tensors(),
        "every partition closed its batches' tensors");
  }

  private static Dataset<Row> digits(int partitions) {
    return heldOut.frame(spark, partitions);
  }

  private static SavedModelTransformer digitsTransformer() {
    return new SavedModelTransformer()
        .setModelPath(TestModels.modelPath("digits").toString())
        .setInputCols("pixels").setInputKeys("images")
        .setOutputKeys("output_0").setOutputCols("probabilities");
  }

  /** Each row's probabilities, by id. */
  private static float[][] probabilities(Dataset<Row> scored) {
    float[][] byId = new float[DIGITS][];
    for (Row row : scored.select("id", "probabilities").collectAsList()) {
      List<Float> p = row.getList(1);
      float[] values = new float[p.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = p.get(i);
      }
      byId[row.getInt(0)] = values;
    }
    return byId;
  }

  @Test
  void digitsAgreeWithTensorFlowPythonAtEveryBatchSize() {
    float[][] first = null;
    for (int batch : new int[] {1, 7, 64}) {
      float[][] byId = probabilities(digitsTransformer().setBatchSize(batch).transform(digits(5)));
      for (int i = 0; i < DIGITS; i++) {
        assertEquals(10, byId[i].length);
        for (int c = 0; c < 10; c++) {
          float expected = pythonProbabilities[i * 10 + c];
          assertEquals(expected, byId[i][c], 1e-6 + 1e-5 * Math.abs(expected),
              "digit " + i + " class " + c + " at batch size " + batch);
        }
      }
      // TensorFlow's convolution kernels round differently with the batch size (by an ulp
      // here), so batch sizes agree to the same tolerance as with Python, not bit for bit.
      if (first == null) {
        first = byId;
      } else {
        for (int i = 0; i < DIGITS; i++) {
          for (int c = 0; c < 10; c++) {
            assertEquals(first[i][c], byId[i][c], 1e-6 + 1e-5 * Math.abs(first[i][c]),
                "digit " + i + " class " + c + ": batch size " + batch + " against 1");
          }
        }
      }
    }
  }

  /** Saved inside a fitted pipeline and loaded back, it still gives Python's probabilities. */
  @Test
  void aSavedPipelineLoadsBackAndScoresAsPythonDoes() throws IOException {
    Path dir = java.nio.file.Files.createTempDirectory("tfjni-spark-pipeline");
    SavedModelTransformer stage = digitsTransformer().setBatchSize(9).setOutputCols("p")
        .setHandleInvalid("keep").setInterOpThreads(-1);
    PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {stage}).fit(digits(2));
    fitted.write().overwrite().save(dir.resolve("pipeline").toString());
    stage.write().overwrite().save(dir.resolve("stage").toString());

    SavedModelTransformer loaded = SavedModelTransformer.load(dir.resolve("stage").toString());
    assertEquals(stage.uid(), loaded.uid());
    assertEquals(9, loaded.getBatchSize());
    assertEquals("keep", loaded.getHandleInvalid());
    assertEquals(-1, loaded.getInterOpThreads());
    assertEquals(0, loaded.getIntraOpThreads(), "the default");
    assertArrayEquals(new String[] {"images"}, loaded.getInputKeys());
    assertArrayEquals(new String[] {"pixels"}, loaded.getInputCols());
    assertArrayEquals(new String[] {"output_0"}, loaded.getOutputKeys());
    assertArrayEquals(new String[] {"p"}, loaded.getOutputCols());
    assertArrayEquals(new String[] {"serve"}, loaded.getTags(), "the default");
    assertEquals("serving_default", loaded.getSignatureKey(), "the default");
    assertEquals(TestModels.modelPath("digits").toString(), loaded.getModelPath());
    assertEquals(false, loaded.getStringsAsBinary(), "the default");

    Dataset<Row> scored = PipelineModel.load(dir.resolve("pipeline").toString())
        .transform(digits(2));
    for (Row row : scored.select("id", "p").collectAsList()) {
      int id = row.getInt(0);
      List<Float> p = row.getList(1);
      for (int c = 0; c < 10; c++) {
        float expected = pythonProbabilities[id * 10 + c];
        assertEquals(expected, p.get(c), 1e-6 + 1e-5 * Math.abs(expected),
            "digit " + id + " class " + c + " through the loaded pipeline");
      }
    }
  }

  @Test
  void oneModelPerJvmHoweverManyPartitions() {
    ExecutorModels.CACHE.evictUnused();
    long before = TensorFlow.liveObjects().savedModels();
    assertEquals(DIGITS, digitsTransformer().setBatchSize(16).transform(digits(8)).count());
    assertEquals(before + 1, TensorFlow.liveObjects().savedModels(),
        "8 partitions on 2 threads share one loaded model");
    digitsTransformer().transform(digits(3)).count();
    assertEquals(before + 1, TensorFlow.liveObjects().savedModels(), "a second job reuses it");
    assertEquals(1, ExecutorModels.CACHE.evictUnused());
    assertEquals(before, TensorFlow.liveObjects().savedModels());
  }

  /**
   * Thread counts that take effect score as Python does: inter-op -1 (every op on the task's
   * thread) and 2 (a pool of the model's own, so a model of its own in the cache), with the
   * intra-op count the JVM's pool has (0). Another intra-op count cannot take effect once a model
   * has sized the pool, and is refused when the plan is built.
   */
  @Test
  void threadCountsTakeEffectOrAreRefused() {
    ExecutorModels.CACHE.evictUnused();
    long before = TensorFlow.liveObjects().savedModels();
    for (int inter : new int[] {-1, 2}) {
      float[][] byId = probabilities(digitsTransformer().setIntraOpThreads(0)
          .setInterOpThreads(inter).setBatchSize(16).transform(digits(2)));
      for (int i = 0; i < DIGITS; i++) {
        for (int c = 0; c < 10; c++) {
          float expected = pythonProbabilities[i * 10 + c];
          assertEquals(expected, byId[i][c], 1e-6 + 1e-5 * Math.abs(expected),
              "digit " + i + " class " + c + " at inter-op threads " + inter);
        }
      }
    }
    assertEquals(before + 2, TensorFlow.liveObjects().savedModels(), "one model per setting");
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> digitsTransformer().setIntraOpThreads(1).transform(digits(2)));
    assertTrue(refused.getMessage().contains("intra-op threads 1 cannot take effect")
        && refused.getMessage().contains("once per process"), refused.getMessage());
    assertEquals(2, ExecutorModels.CACHE.evictUnused());
  }

  @Test
  void schemaComesFromTheSignatureBeforeAnyDataMoves() {
    StructType schema = digitsTransformer().transformSchema(digits(1).schema());
    assertEquals(DataTypes.createArrayType(DataTypes.FloatType, false),
        schema.apply("probabilities").dataType());
    StructType strings = new SavedModelTransformer()
        .setModelPath(TestModels.modelPath("strings").toString()).setSignatureKey("transform")
        .setInputCols("s").transformSchema(new StructType().add("s", DataTypes.StringType));
    assertEquals(DataTypes.StringType, strings.apply("joined").dataType());
    assertEquals(DataTypes.IntegerType, strings.apply("length").dataType());
  }

  @Test
  void badMappingsFailWhenThePlanIsBuilt() {
    StructType schema = new StructType().add("a", DataTypes.FloatType)
        .add("x", DataTypes.createArrayType(DataTypes.FloatType));
    String multi = TestModels.modelPath("multi").toString();
    String[][] cases = {
        {"add", "a", "a", "", "needs inputs [b]"},
        {"add", "a", "c", "", "has no input 'c'; its inputs are [a, b]"},
        {"add", "nope", "a", "", "no column 'nope'"},
        {"scale", "x", "x", "", "'total' has shape []"},
        {"scale", "a", "x", "", "cannot feed FLOAT [3] per row"},
        {"add", "a", "a", "a", "output column 'a' already exists"},
        {"nosuch", "a", "a", "", "nosuch"},
    };
    for (String[] c : cases) {
      SavedModelTransformer transformer = new SavedModelTransformer().setModelPath(multi)
          .setSignatureKey(c[0]).setInputCols(c[1]).setInputKeys(c[2]);
      if (!c[3].isEmpty()) {
        transformer.setInputCols("a", "a").setInputKeys("a", "b").setOutputCols(c[3]);
      }
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> transformer.transformSchema(schema), String.join(" ", c));
      assertTrue(e.getMessage().contains(c[4]), c[4] + " in: " + e.getMessage());
    }
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> new SavedModelTransformer().setModelPath("/no/such/model").setInputCols("a")
            .transformSchema(schema));
    assertTrue(missing.getMessage().contains("no SavedModel at '/no/such/model'"),
        missing.getMessage());
  }

  @Test
  void multiInputSignatureMatchesPython() {
    JsonNode call = TestModels.testCase("multi_add").get("calls").get(0);
    float[] a;
    float[] b;
    float[] sum;
    try (Tensor ta = TestModels.tensor(call.get("inputs").get("a"));
        Tensor tb = TestModels.tensor(call.get("inputs").get("b"));
        Tensor ts = TestModels.tensor(call.get("outputs").get("sum"))) {
      a = ta.toFloatArray();
      b = tb.toFloatArray();
      sum = ts.toFloatArray();
    }
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < a.length; i++) {
      rows.add(RowFactory.create(i, b[i], a[i]));
    }
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("right", DataTypes.FloatType).add("left", DataTypes.FloatType);
    List<Row> out = new SavedModelTransformer().setModelPath(TestModels.modelPath("multi")
        .toString()).setSignatureKey("add").setInputCols("left", "right").setInputKeys("a", "b")
        .setBatchSize(2).setInterOpThreads(-1).transform(spark.createDataFrame(rows, schema)).orderBy("id")
        .collectAsList();
    for (int i = 0; i < a.length; i++) {
      assertEquals(sum[i], out.get(i).getFloat(3), "row " + i);
    }
  }

  @Test
  void stringSignatureMatchesPython() {
    JsonNode call = TestModels.testCase("strings_transform").get("calls").get(0);
    byte[][] input = TestModels.strings(call.get("inputs").get("s"));
    byte[][] joined = TestModels.strings(call.get("outputs").get("joined"));
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < input.length; i++) {
      rows.add(RowFactory.create(i, input[i]));
    }
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("s", DataTypes.BinaryType);
    List<Row> out = new SavedModelTransformer().setModelPath(TestModels.modelPath("strings")
        .toString()).setSignatureKey("transform").setInputCols("s").setOutputKeys("joined")
        .setStringsAsBinary(true).setBatchSize(3).transform(spark.createDataFrame(rows, schema))
        .orderBy("id").collectAsList();
    for (int i = 0; i < input.length; i++) {
      assertArrayEquals(joined[i], (byte[]) out.get(i).get(2), "row " + i);
    }
  }

  /** The same pixels as every column form that can feed [8, 8, 1]: each gives Python's answer. */
  @Test
  void everyColumnFormOfThePixelsGivesTensorFlowPythonsProbabilities() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < DIGITS; i++) {
      double[] asDoubles = new double[64];
      List<Double> doubles = new ArrayList<>(64);
      List<List<List<Float>>> nested = new ArrayList<>(8);
      for (int y = 0; y < 8; y++) {
        List<List<Float>> line = new ArrayList<>(8);
        for (int x = 0; x < 8; x++) {
          float pixel = heldOut.images()[i * 64 + y * 8 + x];
          line.add(List.of(pixel));
          doubles.add((double) pixel);
          asDoubles[y * 8 + x] = pixel;
        }
        nested.add(line);
      }
      rows.add(RowFactory.create(i, doubles, nested, Vectors.dense(asDoubles)));
    }
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("doubles", DataTypes.createArrayType(DataTypes.DoubleType))
        .add("nested", DataTypes.createArrayType(DataTypes.createArrayType(
            DataTypes.createArrayType(DataTypes.FloatType))))
        .add("vector", SQLDataTypes.VectorType());
    Dataset<Row> frame = spark.createDataFrame(rows, schema).repartition(3);
    for (String column : new String[] {"doubles", "nested", "vector"}) {
      frame = digitsTransformer().setInputCols(column).setOutputCols("p_" + column)
          .setBatchSize(16).transform(frame);
    }
    for (Row row : frame.collectAsList()) {
      int id = row.getInt(0);
      for (String column : new String[] {"doubles", "nested", "vector"}) {
        List<Float> p = row.getList(row.fieldIndex("p_" + column));
        for (int c = 0; c < 10; c++) {
          float expected = pythonProbabilities[id * 10 + c];
          assertEquals(expected, p.get(c), 1e-6 + 1e-5 * Math.abs(expected),
              "digit " + id + " class " + c + " from the " + column + " column");
        }
      }
    }
  }

  private static final String[] DTYPES = {"int8", "int16", "int32", "int64", "uint8", "uint16",
      "uint32", "bool", "float32", "float64", "string"};

  /**
   * Every dtype the transformer maps, in and out, against TensorFlow Python: the dtypes model's
   * signatures take [-1, 3] and return it as it is ("same") and with its rows reversed
   * ("reversed"), so both rows must land in one batch in order and come back to their rows.
   */
  @Test
  void everyDtypeGoesInAndComesOutAsTensorFlowPythonsDoes() {
    for (String dtype : DTYPES) {
      JsonNode call = TestModels.testCase("dtypes_" + dtype).get("calls").get(0);
      Object[] input = sparkValues(call.get("inputs").get("x"));
      Object[] same = sparkValues(call.get("outputs").get("same"));
      Object[] reversed = sparkValues(call.get("outputs").get("reversed"));
      org.apache.spark.sql.types.DataType element =
          SparkTypes.element(TestModels.dataType(call.get("inputs").get("x").get("dtype")
              .asText()), true);
      List<Row> rows = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        rows.add(RowFactory.create(r, List.of(input[3 * r], input[3 * r + 1], input[3 * r + 2])));
      }
      StructType schema = new StructType().add("id", DataTypes.IntegerType)
          .add("x", DataTypes.createArrayType(element, false));
      List<Row> out = new SavedModelTransformer().setModelPath(TestModels.modelPath("dtypes")
          .toString()).setSignatureKey(dtype).setInputCols("x").setOutputKeys("same", "reversed")
          .setStringsAsBinary(true).transform(spark.createDataFrame(rows, schema).coalesce(1))
          .orderBy("id").collectAsList();
      for (int r = 0; r < 2; r++) {
        for (int j = 0; j < 3; j++) {
          assertSparkValue(same[3 * r + j], out.get(r).getList(2).get(j),
              dtype + " same [" + r + "][" + j + "]");
          assertSparkValue(reversed[3 * r + j], out.get(r).getList(3).get(j),
              dtype + " reversed [" + r + "][" + j + "]");
        }
      }
    }
  }

  /** A manifest tensor's elements as Spark holds them in the column SparkTypes gives. */
  private static Object[] sparkValues(JsonNode json) {
    try (Tensor t = TestModels.tensor(json)) {
      int n = (int) t.numElements();
      Object[] values = new Object[n];
      for (int i = 0; i < n; i++) {
        values[i] = switch (t.dataType()) {
          case INT8 -> t.toByteArray()[i];
          case INT16 -> t.toShortArray()[i];
          case INT32 -> t.toIntArray()[i];
          case INT64 -> t.toLongArray()[i];
          case UINT8 -> t.toByteArray()[i] & 0xff;
          case UINT16 -> t.toShortArray()[i] & 0xffff;
          case UINT32 -> t.toIntArray()[i] & 0xFFFF_FFFFL;
          case BOOL -> t.toBooleanArray()[i];
          case FLOAT -> t.toFloatArray()[i];
          case DOUBLE -> t.toDoubleArray()[i];
          case STRING -> t.toBytesArray()[i];
          default -> throw new AssertionError(t.dataType());
        };
      }
      return values;
    }
  }

  private static void assertSparkValue(Object expected, Object actual, String what) {
    if (expected instanceof byte[] bytes) {
      assertArrayEquals(bytes, (byte[]) actual, what);
    } else {
      assertEquals(expected, actual, what);  // boxed: NaN equals NaN, the type must match too
    }
  }

  @Test
  void aNullInsideAnArrayIsABadRow() {
    JsonNode call = TestModels.testCase("multi_scale").get("calls").get(0);
    float[] x;
    float[] scaled;
    try (Tensor tx = TestModels.tensor(call.get("inputs").get("x"));
        Tensor ts = TestModels.tensor(call.get("outputs").get("scaled"))) {
      x = tx.toFloatArray();
      scaled = ts.toFloatArray();
    }
    List<Row> rows = List.of(RowFactory.create(0, List.of(x[0], x[1], x[2])),
        RowFactory.create(1, java.util.Arrays.asList(x[0], null, x[2])),
        RowFactory.create(2, List.of(x[3], x[4], x[5])));
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("x", DataTypes.createArrayType(DataTypes.FloatType, true));
    Dataset<Row> frame = spark.createDataFrame(rows, schema).coalesce(1);
    SavedModelTransformer scale = new SavedModelTransformer().setModelPath(TestModels
        .modelPath("multi").toString()).setSignatureKey("scale").setInputCols("x")
        .setOutputKeys("scaled");
    SparkException failed = assertThrows(SparkException.class,
        () -> scale.transform(frame).collectAsList());
    String message = String.valueOf(failed.getMessage()) + failed.getCause();
    assertTrue(message.contains("column 'x' (input 'x'), row 1 of partition 0: a null element"),
        message);
    List<Row> kept = scale.setHandleInvalid("keep").transform(frame).orderBy("id")
        .collectAsList();
    assertNull(kept.get(1).get(2));
    for (int j = 0; j < 3; j++) {
      assertEquals(scaled[j], (Float) kept.get(0).getList(2).get(j), "row 0");
      assertEquals(scaled[3 + j], (Float) kept.get(2).getList(2).get(j), "row 2");
    }
  }

  @Test
  void aStreamScoresItsRowsAsPythonDoes() throws Exception {
    Path dir = java.nio.file.Files.createTempDirectory("tfjni-spark-stream");
    digits(3).write().parquet(dir.resolve("in").toString());
    Dataset<Row> stream = spark.readStream().schema(digits(1).schema())
        .parquet(dir.resolve("in").toString());
    StreamingQuery query = digitsTransformer().setBatchSize(32).transform(stream).writeStream()
        .format("memory").queryName("scored_digits").outputMode("append")
        .option("checkpointLocation", dir.resolve("checkpoint").toString())
        .trigger(Trigger.AvailableNow()).start();
    try {
      assertTrue(query.awaitTermination(120_000), "the query ends once the files are read");
      assertPythonsProbabilities(probabilities(spark.table("scored_digits")), "streamed");
    } finally {
      query.stop();
    }
  }

  /** The public API's path, which streams take, on a batch DataFrame too. */
  @Test
  void thePublicApiPathScoresAsTheInternalOneDoes() {
    SavedModelTransformer transformer = digitsTransformer().setBatchSize(16);
    assertPythonsProbabilities(probabilities(transformer.transformRows(digits(3))), "rows");
    List<Row> kept = transformer.setHandleInvalid("keep").transformRows(wrongShapeRows())
        .orderBy("id").collectAsList();
    assertNull(kept.get(1).get(2), "a bad row kept with null outputs");
    assertEquals(10, kept.get(0).getList(2).size());
  }

  private static void assertPythonsProbabilities(float[][] byId, String path) {
    for (int i = 0; i < DIGITS; i++) {
      for (int c = 0; c < 10; c++) {
        float expected = pythonProbabilities[i * 10 + c];
        assertEquals(expected, byId[i][c], 1e-6 + 1e-5 * Math.abs(expected),
            "digit " + i + " class " + c + " through the " + path + " path");
      }
    }
  }

  private static Dataset<Row> withBadRows() {
    List<Row> rows = new ArrayList<>();
    rows.add(RowFactory.create(0, 1f, 2f));
    rows.add(RowFactory.create(1, null, 2f));
    rows.add(RowFactory.create(2, 3f, 4f));
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("a", DataTypes.FloatType, true).add("b", DataTypes.FloatType);
    return spark.createDataFrame(rows, schema).coalesce(1);
  }

  private static SavedModelTransformer add() {
    return new SavedModelTransformer().setModelPath(TestModels.modelPath("multi").toString())
        .setSignatureKey("add").setInputCols("a", "b");
  }

  @Test
  void badRowsFailNamingColumnAndRowOrAreSkippedOrKept() {
    SparkException failed = assertThrows(SparkException.class,
        () -> add().transform(withBadRows()).collectAsList());
    String message = String.valueOf(failed.getMessage()) + failed.getCause();
    assertTrue(message.contains("column 'a' (input 'a'), row 1 of partition 0: null; expected"
        + " FLOAT [] per row"), message);

    List<Row> skipped = add().setHandleInvalid("skip").transform(withBadRows()).orderBy("id")
        .collectAsList();
    assertEquals(2, skipped.size());
    assertEquals(3f, skipped.get(0).getFloat(3));
    assertEquals(7f, skipped.get(1).getFloat(3));

    List<Row> kept = add().setHandleInvalid("keep").transform(withBadRows()).orderBy("id")
        .collectAsList();
    assertEquals(3, kept.size());
    assertNull(kept.get(1).get(3));
    assertEquals(7f, kept.get(2).getFloat(3));
  }

  /** The last row fills input 'a', then fails on 'b': the batch it started is freed. */
  @Test
  void aBadLastRowLeavesNoTensorBehind() {
    List<Row> rows = List.of(RowFactory.create(0, 1f, 2f), RowFactory.create(1, 3f, null));
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("a", DataTypes.FloatType).add("b", DataTypes.FloatType, true);
    List<Row> out = add().setHandleInvalid("skip").setBatchSize(1)
        .transform(spark.createDataFrame(rows, schema).coalesce(1)).collectAsList();
    assertEquals(1, out.size());
    assertEquals(3f, out.get(0).getFloat(3));  // 1 + 2
  }

  /** Rows 0 and 3 hold 64 pixels, row 1 63 and row 2 65, in one partition. */
  private static Dataset<Row> wrongShapeRows() {
    List<Row> rows = new ArrayList<>();
    for (int n : new int[] {64, 63, 65, 64}) {
      List<Float> pixels = new ArrayList<>();
      for (int j = 0; j < n; j++) {
        pixels.add(heldOut.images()[j]);
      }
      rows.add(RowFactory.create(rows.size(), pixels));
    }
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("pixels", DataTypes.createArrayType(DataTypes.FloatType, false));
    return spark.createDataFrame(rows, schema).coalesce(1);
  }

  @Test
  void rowsOfTheWrongShapeAreBadRows() {
    Dataset<Row> frame = wrongShapeRows();
    // Batch size 1: the bad row starts a batch; 64: it joins one. The same words either way.
    for (int batch : new int[] {1, 64}) {
      SparkException failed = assertThrows(SparkException.class,
          () -> digitsTransformer().setBatchSize(batch).transform(frame).collectAsList());
      String message = String.valueOf(failed.getMessage()) + failed.getCause();
      assertTrue(message.contains("column 'pixels' (input 'images'), row 1 of partition 0: shape"
          + " [63]; expected FLOAT [8, 8, 1] per row. Set handleInvalid"), message);
    }
    List<Row> kept = digitsTransformer().setHandleInvalid("keep").transform(frame).orderBy("id")
        .collectAsList();
    assertEquals(4, kept.size());
    assertNull(kept.get(1).get(2));
    assertNull(kept.get(2).get(2));
    assertEquals(10, kept.get(3).getList(2).size());
  }

  @Test
  void aZippedModelShippedWithTheJobIsFound() throws IOException {
    Path zip = Path.of(System.getProperty("java.io.tmpdir"), "tfjni-spark-multi.zip");
    zipDirectory(TestModels.modelPath("multi"), zip);
    spark.sparkContext().addFile(zip.toString());
    List<Row> rows = List.of(RowFactory.create(1f, 2f));
    StructType schema = new StructType().add("a", DataTypes.FloatType)
        .add("b", DataTypes.FloatType);
    Row out = add().setModelPath("tfjni-spark-multi.zip")
        .transform(spark.createDataFrame(rows, schema)).first();
    assertEquals(3f, out.getFloat(2));
  }

  private static void zipDirectory(Path dir, Path zip) throws IOException {
    try (java.util.zip.ZipOutputStream out =
            new java.util.zip.ZipOutputStream(java.nio.file.Files.newOutputStream(zip));
        java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir)) {
      for (Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
        out.putNextEntry(new java.util.zip.ZipEntry("multi/" + dir.relativize(file)));
        java.nio.file.Files.copy(file, out);
        out.closeEntry();
      }
    }
  }
}
