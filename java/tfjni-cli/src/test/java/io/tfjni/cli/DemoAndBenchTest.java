package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The demo's predictions against TensorFlow Python's, and the bench's arithmetic. */
@ExtendWith(TestModels.NoLeaks.class)
class DemoAndBenchTest {
  @Test
  void demoPredictionsAgreeWithTensorFlowPythonOnEveryDigit() throws IOException {
    DemoCommand.Result result = DemoCommand.classify(TestModels.dir());
    int n = result.count();
    assertTrue(n > 100, "hold-out digits: " + n);
    assertArrayEquals(result.pythonPredicted(), result.predicted(),
        "tfjni's argmax against TensorFlow Python's");
    assertTrue(result.maxDifference() < 1e-5, "max |p - p_python| = " + result.maxDifference());
    // Python's accuracy, as generate_models.py recorded it; a missing key is a failure, not a
    // reason to skip the comparison.
    JsonNode accuracy = TestModels.manifest().path("models").path("digits")
        .path("holdout_accuracy");
    assertTrue(accuracy.isNumber(), "manifest.json has no models.digits.holdout_accuracy: "
        + accuracy);
    assertEquals(accuracy.asDouble(), (double) result.correct() / n, 1e-9);
  }

  @Test
  void demoOutput() {
    Outcome demo = CliTestSupport.inProcess("demo", "--models",
        TestModels.dir().toString(), "--show", "2");
    assertEquals(0, demo.exitCode(), demo.toString());
    assertEquals(2, demo.out().lines().filter(l -> l.startsWith("predicted ")).count());
    assertTrue(demo.out().contains("signature serving_default: [images: FLOAT [-1, 8, 8, 1]"),
        demo.out());
  }

  @Test
  void benchWithGivenInputsClosesEverything() {
    Outcome bench = CliTestSupport.inProcess("bench", "--dir",
        TestModels.dir().resolve("multi").toString(), "--signature_def", "add", "--input_exprs",
        "a=[1, 2];b=[3, 4]", "--iterations", "40", "--threads", "1,2", "--warmup", "2",
        "--progress", "none");
    assertEquals(0, bench.exitCode(), bench.toString());
    assertEquals("", bench.err());
    assertTrue(bench.out().contains("input a: float32 [2] (--input_exprs)"), bench.out());
    assertEquals(2, bench.out().lines().filter(l -> l.matches("\\s+[12]\\s+40\\s.*")).count(),
        bench.out());
  }

  @Test
  void batchedBenchRunsBothModesWithEveryCallsRows(@TempDir Path dir) throws IOException {
    Path json = dir.resolve("b.json");
    Outcome bench = CliTestSupport.inProcess("bench", "--dir",
        TestModels.dir().resolve("multi").toString(), "--signature_def", "add", "--input_exprs",
        "a=[1];b=[3]", "--iterations", "40", "--threads", "1,4", "--warmup", "2",
        "--batch_max", "4", "--batch_delay", "0.5ms", "--progress", "none", "--json",
        json.toString());
    assertEquals(0, bench.exitCode(), bench.toString());
    assertEquals("", bench.err());
    String out = bench.out();
    assertTrue(out.contains("batched: up to 4 calls per run, delay 0.5 ms, thread leads, 1 batch"
        + " at once"), out);
    // Each thread count's 40 calls, unbatched then batched.
    assertEquals(2, out.lines().filter(l -> l.matches("\\s+1\\s+40\\s.*")).count(), out);
    assertEquals(2, out.lines().filter(l -> l.matches("\\s+4\\s+40\\s.*")).count(), out);
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertEquals(2, report.path("batched_results").size(), report.toString());
    assertEquals(40, report.path("batched_results").get(1).path("runs").asLong());
    assertEquals(0.5, report.path("batching").path("delay_ms").asDouble(), 1e-9);
    // The batched calls went through the batcher: it ran their rows in batches of 1 to 4.
    for (JsonNode callsPerBatch : report.path("batching").path("calls_per_batch")) {
      assertTrue(callsPerBatch.asDouble() >= 1 && callsPerBatch.asDouble() <= 4, report.toString());
    }
    assertEquals(2, report.path("batching").path("calls_per_batch").size(), report.toString());
  }

  @Test
  void batchedOverUnbatchedPerThreadCount() {
    BenchCommand.Phase unbatched = new BenchCommand.Phase(16, 1000, 2.0, 1, 2, 3, 4, 1.5, 0, 0,
        0, 0, 0, 0, 0);
    BenchCommand.Phase batched = new BenchCommand.Phase(16, 3000, 2.0, 2, 3, 5, 9, 2.5, 0, 0, 0,
        0, 0, 0, 0);
    String table = BenchCommand.comparison(List.of(unbatched), List.of(batched), List.of(7.5));
    List<String> lines = table.lines().toList();
    assertEquals(2, lines.size(), table);
    assertTrue(lines.get(1).matches("\\s+16\\s+3\\.00x\\s+2\\.000/1\\.000\\s+5\\.000/3\\.000"
        + "\\s+7\\.5"), lines.get(1));
  }

  @Test
  void percentilesByNearestRank() {
    long[] sorted = new long[100];
    for (int i = 0; i < 100; i++) {
      sorted[i] = i + 1;
    }
    assertEquals(50, BenchCommand.percentile(sorted, 50));
    assertEquals(90, BenchCommand.percentile(sorted, 90));
    assertEquals(99, BenchCommand.percentile(sorted, 99));
    assertEquals(7, BenchCommand.percentile(new long[] {7}, 99));
    assertEquals(2, BenchCommand.percentile(new long[] {1, 2, 3}, 50));
    assertEquals(0, BenchCommand.percentile(new long[0], 50));
  }

  @Test
  void durations() {
    BenchCommand.DurationConverter converter = new BenchCommand.DurationConverter();
    assertEquals(Duration.ofSeconds(20), converter.convert("20s"));
    assertEquals(Duration.ofMillis(500), converter.convert("500ms"));
    assertEquals(Duration.ofMillis(1500), converter.convert("1.5s"));
    assertEquals(Duration.ofMinutes(2), converter.convert("2m"));
    assertEquals(Duration.ofSeconds(3), converter.convert("3"));
    assertThrows(picocli.CommandLine.TypeConversionException.class,
        () -> converter.convert("-1s"));
  }

  @Test
  void syntheticInputsFillUnknownDimensionsWithTheBatch() {
    try (Tensor t = BenchCommand.synthetic("x", new InputLoader.Spec(DataType.FLOAT,
        new long[] {-1, 8, 8, 1}), 5, new Random(1))) {
      assertArrayEquals(new long[] {5, 8, 8, 1}, t.shape());
      for (float v : t.toFloatArray()) {
        assertTrue(v >= 0 && v < 1, "uniform in [0, 1): " + v);
      }
    }
    try (Tensor t = BenchCommand.synthetic("s", new InputLoader.Spec(DataType.STRING,
        new long[] {-1}), 3, new Random(1))) {
      assertEquals(3, t.toStringArray().length);
    }
    assertThrows(CliException.class, () -> BenchCommand.synthetic("x",
        new InputLoader.Spec(DataType.FLOAT, null), 1, new Random(1)));
  }

  @Test
  void tableHasARowPerThreadCount() {
    List<BenchCommand.Phase> phases = List.of(
        new BenchCommand.Phase(1, 100, 2.0, 1, 2, 3, 4, 1.5, 200 << 20, 210 << 20, 30 << 20,
            64 << 20, 0, 0, 0),
        new BenchCommand.Phase(2, 300, 2.0, 2, 3, 4, 9, 2.5, 201 << 20, 211 << 20, 31 << 20,
            64 << 20, 1, 5, Double.NaN));
    String table = BenchCommand.table(phases, 8);
    List<String> lines = table.lines().toList();
    assertEquals(3, lines.size(), table);
    assertTrue(lines.get(0).contains("items/s"), table);
    assertTrue(lines.get(1).matches("\\s+1\\s+100\\s+50\\.0\\s+400\\.0\\s+1\\.000\\s+2\\.000"
        + "\\s+3\\.000\\s+4\\.000\\s+200\\.0\\s+30\\.0\\s+0\\s+0\\s+0"), lines.get(1));
    assertTrue(lines.get(2).endsWith(" n/a"), lines.get(2));
  }
}
