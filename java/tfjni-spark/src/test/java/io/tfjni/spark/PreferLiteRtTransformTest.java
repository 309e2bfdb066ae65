package io.tfjni.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The preferLiteRt param on a local[2] Spark session: digits, converted by
 * scripts/goldens/litert_convert.py (what {@code tfjni convert} runs) at batch 1 and 4, scores its
 * held-out digits with TensorFlow Python's probabilities (within the manifest's LiteRT tolerance)
 * whether a batch ran on LiteRT (a batch of 1 or 4, or a partition's shorter last batch padded to
 * 4) or on TensorFlow (a batch of more than 4 rows); which ran is read from the DEBUG line of each
 * batch, and the executor's model says once, at INFO, that it runs a size on LiteRT.
 */
class PreferLiteRtTransformTest {
  private static final int DIGITS = HeldOutDigits.COUNT;
  private static SparkSession spark;
  private static HeldOutDigits heldOut;
  private static float[] pythonProbabilities;
  private static double tolerance;

  /** The DEBUG line of each batch: which partition, how many rows, padded to how many, where. */
  private static final Pattern BATCH = Pattern.compile("tfjni-spark: partition (\\d+) of stage"
      + " (\\d+), a batch of (\\d+) rows(?:, padded to (\\d+),)? runs on (\\w+)");

  /** Held: java.util.logging keeps loggers weakly, and a new one would have no handler. */
  private final Logger tfjniLogger = Logger.getLogger("io.tfjni");
  private final Logger sparkLogger = Logger.getLogger("io.tfjni.spark");
  private final ConcurrentLinkedQueue<String> liteRtLines = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> batchLines = new ConcurrentLinkedQueue<>();
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord record) {
      String message = String.valueOf(record.getMessage());
      if (record.getLevel() == Level.INFO && message.contains("runs on LiteRT")) {
        liteRtLines.add(message);
      }
      if (message.startsWith("tfjni-spark: partition")) {
        batchLines.add(message);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeAll
  static void start() throws IOException {
    spark = SparkSession.builder().master("local[2]").appName("tfjni-spark-litert-test")
        .config("spark.ui.enabled", "false").getOrCreate();
    heldOut = HeldOutDigits.read();
    pythonProbabilities = heldOut.probabilities();
    for (var c : TestModels.manifest().path("litert").path("cases")) {
      if (c.path("name").asText().equals("litert_digits_b4")) {
        tolerance = c.path("tolerance").asDouble();
      }
    }
    assertTrue(tolerance > 0 && tolerance < 1e-3, "the manifest's tolerance: " + tolerance);
  }

  @AfterAll
  static void stop() {
    spark.stop();
    ExecutorModels.CACHE.evictUnused();
  }

  private long tensorsBefore;

  @BeforeEach
  void listen() {
    ExecutorModels.CACHE.evictUnused();  // each test loads its models, as an executor would
    tensorsBefore = TensorFlow.liveObjects().tensors();
    tfjniLogger.addHandler(capture);
    sparkLogger.setLevel(Level.FINE);  // System.Logger's DEBUG
  }

  @AfterEach
  void nothingLeftBehind() {
    tfjniLogger.removeHandler(capture);
    sparkLogger.setLevel(null);
    assertEquals(0, TensorFlow.liveObjects().runners(), "every partition closed its predictors");
    assertEquals(tensorsBefore, TensorFlow.liveObjects().tensors(),
        "every partition closed its batches' tensors and results");
  }

  private static Dataset<Row> digits(int partitions) {
    return heldOut.frame(spark, partitions);
  }

  private static SavedModelTransformer digitsTransformer() {
    return new SavedModelTransformer().setModelPath(TestModels.modelPath("digits").toString())
        .setInputCols("pixels").setInputKeys("images").setOutputCols("probabilities");
  }

  private static void assertPythonsProbabilities(Dataset<Row> scored, String what) {
    List<Row> rows = scored.select("id", "probabilities").collectAsList();
    assertEquals(DIGITS, rows.size(), what);
    for (Row row : rows) {
      int id = row.getInt(0);
      List<Float> p = row.getList(1);
      assertEquals(10, p.size());
      for (int c = 0; c < 10; c++) {
        float expected = pythonProbabilities[id * 10 + c];
        if (!(Math.abs((double) p.get(c) - expected) <= tolerance)) {
          fail(what + ": digit " + id + " class " + c + " = " + p.get(c)
              + ", TensorFlow Python gave " + expected + " (tolerance " + tolerance + ")");
        }
      }
    }
  }

  @Test
  void fullBatchesOfAConvertedSizeRunOnLiteRtWithTensorFlowPythonsValues() {
    // 7 partitions of 50 to 52 rows: 12 full batches of 4 each, and a shorter last one.
    assertPythonsProbabilities(digitsTransformer().setBatchSize(4).setPreferLiteRt(1)
        .transform(digits(7)), "batch 4 on LiteRT");
    assertTrue(liteRtLines.stream().anyMatch(l -> l.contains("at batch 4 runs on LiteRT")),
        "no LiteRT predictor was made: " + liteRtLines);
  }

  /**
   * Each batch's runtime, from its DEBUG line: in every partition each batch but the last has 4
   * rows, and every batch runs on LiteRT, the last one padded to 4 if it has 2 or 3 rows. 360 rows
   * in 7 partitions cannot all be multiples of 4, so some last batch is padded.
   */
  @Test
  void everyBatchRunsOnLiteRtAShorterLastOnePaddedToAConvertedSize() {
    assertPythonsProbabilities(digitsTransformer().setBatchSize(4).setPreferLiteRt(1)
        .transform(digits(7)), "batch 4 on LiteRT");
    int padded = assertEachBatchRanWhereItFits(4);
    assertTrue(padded > 0, "no batch was padded: " + batchLines);
  }

  /**
   * At batch size 6, not converted: each full batch runs on TensorFlow, and a partition's last
   * batch on LiteRT wherever a converted size holds it (1, or 2 to 4 padded to 4).
   */
  @Test
  void aShorterLastBatchRunsOnLiteRtWhereAConvertedSizeHoldsIt() {
    assertPythonsProbabilities(digitsTransformer().setBatchSize(6).setPreferLiteRt(1)
        .transform(digits(7)), "batch 6 with LiteRT at 1 and 4");
    assertEachBatchRanWhereItFits(6);
    assertTrue(batchLines.stream().anyMatch(l -> l.endsWith("runs on LiteRT")),
        "no last batch ran on LiteRT: " + batchLines);
  }

  /**
   * Checks each batch's DEBUG line against digits' converted sizes, 1 and 4: every batch but a
   * partition's last has {@code batchSize} rows; a batch of 1 or 4 runs on LiteRT as it is, of 2
   * or 3 on LiteRT padded to 4, and a larger one on TensorFlow; every row ran once.
   *
   * @return how many batches were padded
   */
  private int assertEachBatchRanWhereItFits(int batchSize) {
    int rows = 0;
    int padded = 0;
    for (Map.Entry<String, List<Matcher>> partition : batchesByPartition().entrySet()) {
      List<Matcher> batches = partition.getValue();
      for (int i = 0; i < batches.size(); i++) {
        Matcher batch = batches.get(i);
        int size = Integer.parseInt(batch.group(3));
        String where = partition.getKey() + ", batch " + i + " of " + batches.size() + ": "
            + batch.group();
        if (i < batches.size() - 1) {
          assertEquals(batchSize, size, where + ": only the last batch may be shorter");
        }
        String paddedTo = size == 2 || size == 3 ? "4" : null;
        assertEquals(paddedTo, batch.group(4), where);
        assertEquals(size <= 4 ? "LiteRT" : "TensorFlow", batch.group(5), where);
        rows += size;
        padded += paddedTo == null ? 0 : 1;
      }
    }
    assertEquals(DIGITS, rows, "every row ran once: " + batchLines);
    return padded;
  }

  /**
   * The INFO line saying that a size runs on LiteRT comes once per executor model, where it is
   * loaded: once for 7 partitions, and not again for a second job on the same loaded model.
   */
  @Test
  void theExecutorsModelSaysOnceThatItRunsASizeOnLiteRt() {
    SavedModelTransformer transformer = digitsTransformer().setBatchSize(4).setPreferLiteRt(1);
    assertPythonsProbabilities(transformer.transform(digits(7)), "the first job");
    assertEquals(1, liteRtLines.size(), "one line for 7 partitions: " + liteRtLines);
    TestModels.assertMentions(new IllegalStateException(liteRtLines.peek()),
        "'serving_default' at batch 4 runs on LiteRT", "batch-4.tflite");
    assertPythonsProbabilities(transformer.transform(digits(5)), "the second job");
    assertEquals(1, liteRtLines.size(), "the loaded model said it already: " + liteRtLines);
    assertTrue(batchesByPartition().size() == 7 + 5, "both jobs ran: " + batchLines);
  }

  @Test
  void otherBatchSizesAndTheDefaultRunOnTensorFlow() {
    assertPythonsProbabilities(digitsTransformer().setBatchSize(5).setPreferLiteRt(1)
        .transform(digits(3)), "batch 5, not converted");
    assertEveryBatchRanOnTensorFlow("batch 5, not converted");
    assertPythonsProbabilities(digitsTransformer().setBatchSize(4).transform(digits(3)),
        "batch 4 without preferLiteRt");
    assertEveryBatchRanOnTensorFlow("batch 4 without preferLiteRt");
    assertEquals(List.of(), List.copyOf(liteRtLines));
  }

  /** The batches' DEBUG lines so far, by partition and stage, each partition's in order. */
  private Map<String, List<Matcher>> batchesByPartition() {
    Map<String, List<Matcher>> partitions = new TreeMap<>();
    for (String line : batchLines) {
      Matcher batch = BATCH.matcher(line);
      assertTrue(batch.matches(), line);
      partitions.computeIfAbsent("partition " + batch.group(1) + " of stage " + batch.group(2),
          k -> new ArrayList<>()).add(batch);
    }
    return partitions;
  }

  private void assertEveryBatchRanOnTensorFlow(String what) {
    int rows = 0;
    for (List<Matcher> batches : batchesByPartition().values()) {
      for (Matcher batch : batches) {
        assertEquals("TensorFlow", batch.group(5), what + ": " + batch.group());
        rows += Integer.parseInt(batch.group(3));
      }
    }
    assertEquals(DIGITS, rows, what + ": every row ran once: " + batchLines);
    batchLines.clear();
  }

  @Test
  void theParamIsSavedLoadedAndSetByName() throws IOException {
    Path dir = Files.createTempDirectory("tfjni-spark-litert");
    SavedModelTransformer stage = digitsTransformer().setBatchSize(4);
    assertEquals(0, stage.getPreferLiteRt(), "the default");
    stage.set(stage.getParam("preferLiteRt"), 2);
    assertEquals(2, stage.getPreferLiteRt());
    stage.write().overwrite().save(dir.resolve("stage").toString());
    SavedModelTransformer loaded = SavedModelTransformer.load(dir.resolve("stage").toString());
    assertEquals(2, loaded.getPreferLiteRt());
    assertPythonsProbabilities(loaded.transform(digits(2)), "the loaded stage");
    assertTrue(liteRtLines.stream().anyMatch(l -> l.contains("at batch 4 runs on LiteRT")),
        "the loaded stage did not run LiteRT: " + liteRtLines);
    assertThrows(IllegalArgumentException.class, () -> stage.setPreferLiteRt(-1));
  }
}
