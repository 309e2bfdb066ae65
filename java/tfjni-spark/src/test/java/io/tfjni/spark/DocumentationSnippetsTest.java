package io.tfjni.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.tfjni.MarkdownSnippets;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.numpy.Npy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

/**
 * The Java blocks of README.md and docs/*.md that name this module, compiled and run on three
 * held-out digits: what a block prints (the probabilities Spark's {@code show} writes) must be
 * TensorFlow Python's probabilities for those digits.
 */
class DocumentationSnippetsTest {
  private static final List<String> IMPORTS = List.of("io.tfjni.spark.*", "org.apache.spark.sql.*",
      "java.util.*");
  private static final int IMAGES = 3;
  private static final int PIXELS = 64;
  private static final int CLASSES = 10;
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?(E-?\\d+)?");

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
    float[] images;
    float[] pythonProbabilities;
    try (Tensor x = Npy.read(TestModels.dir().resolve("digits_holdout_images.npy"));
        Tensor p = Npy.read(TestModels.dir().resolve("digits_holdout_probs.npy"))) {
      images = x.toFloatArray();
      pythonProbabilities = p.toFloatArray();
    }
    Map<String, Object> values = Map.of("images", digitImages(images), "modelPath",
        TestModels.modelPath("digits").toString());
    return snippets.stream().map(snippet -> dynamicTest(snippet.where(), () -> {
      String printed = printedBy(() -> MarkdownSnippets.run(snippet, IMPORTS, values,
          classes.resolve("b" + snippet.line())));
      assertPrintsProbabilities(snippet.where(), printed, pythonProbabilities);
    }));
  }

  private interface Block {
    void run() throws Exception;
  }

  /** What {@code block} prints through Scala's console, where Spark's {@code show} prints. */
  private static String printedBy(Block block) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      Exception[] thrown = {null};
      scala.Console.withOut(out, () -> {
        try {
          block.run();
        } catch (Exception e) {
          thrown[0] = e;
        }
        return null;
      });
      if (thrown[0] != null) {
        throw thrown[0];
      }
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(printed);
    return printed;
  }

  /** The numbers of each printed table row, in order, against Python's for that row's image. */
  private static void assertPrintsProbabilities(String where, String printed, float[] python) {
    List<List<Double>> rows = new ArrayList<>();
    for (String line : printed.split("\\R")) {
      if (line.startsWith("|[")) {
        List<Double> numbers = new ArrayList<>();
        Matcher number = NUMBER.matcher(line);
        while (number.find()) {
          numbers.add(Double.parseDouble(number.group()));
        }
        rows.add(numbers);
      }
    }
    assertEquals(IMAGES, rows.size(), where + " prints a row per image:\n" + printed);
    for (int i = 0; i < IMAGES; i++) {
      assertEquals(CLASSES, rows.get(i).size(), where + " row " + i + ": " + rows.get(i));
      for (int c = 0; c < CLASSES; c++) {
        double expected = python[i * CLASSES + c];
        assertEquals(expected, rows.get(i).get(c), 1e-6 + 1e-5 * Math.abs(expected),
            where + ": image " + i + ", class " + c);
      }
    }
  }

  /** The first held-out digits, 64 pixels each in a "pixels" column, as the model takes them. */
  private static Dataset<Row> digitImages(float[] images) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < IMAGES; i++) {
      List<Float> pixels = new ArrayList<>();
      for (int j = 0; j < PIXELS; j++) {
        pixels.add(images[i * PIXELS + j]);
      }
      rows.add(RowFactory.create(pixels));
    }
    StructType schema = new StructType()
        .add("pixels", DataTypes.createArrayType(DataTypes.FloatType, false));
    return spark.createDataFrame(rows, schema);
  }
}
