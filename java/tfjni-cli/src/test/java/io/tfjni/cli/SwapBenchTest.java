package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tfjni bench --swap_every}: the report's structure (how many swaps each thread count
 * made, every measured run counted once, around a swap or steady), never its timings.
 */
@ExtendWith(TestModels.NoLeaks.class)
class SwapBenchTest {
  private static final int RUNS = 40;
  private static final int SWAP_EVERY = 10;

  /** A base path: version 1 is versioned_a, version 2 versioned_b. */
  private static Path basePath(Path dir) {
    Path base = dir.resolve("base");
    TestModels.copyTree(TestModels.modelPath("versioned_a"), base.resolve("1"), Set.of());
    TestModels.copyTree(TestModels.modelPath("versioned_b"), base.resolve("2"), Set.of());
    return base;
  }

  @Test
  void everyThreadCountSwapsEveryNRunsAndSplitsItsRuns(@TempDir Path dir) throws IOException {
    Path base = basePath(dir);
    Path json = dir.resolve("swaps.json");
    Outcome bench = CliTestSupport.inProcess("bench", "--dir", base.toString(), "--iterations",
        Integer.toString(RUNS), "--threads", "1,2", "--warmup", "2", "--swap_every",
        Integer.toString(SWAP_EVERY), "--progress", "none", "--json", json.toString());
    assertEquals(0, bench.exitCode(), bench.toString());
    assertEquals("", bench.err());
    String out = bench.out();
    assertTrue(out.contains("versions: [1, 2] of " + base + " published in turn through a"
        + " VersionedModel, a swap every 10 measured runs"), out);
    int swapsPerPhase = RUNS / SWAP_EVERY;
    // The swap table: per thread count, its swaps, then runs around swaps and steady runs.
    List<String> rows = out.lines().filter(l -> l.matches("\\s+[12]\\s+" + swapsPerPhase
        + "\\s+\\d+\\.\\d\\s+\\d+\\s.*")).toList();
    assertEquals(2, rows.size(), out);
    for (String row : rows) {
      String[] cells = row.trim().split("\\s+");
      assertEquals(RUNS, Long.parseLong(cells[3]) + Long.parseLong(cells[7]), row);
    }
    JsonNode swaps = new ObjectMapper().readTree(json.toFile()).path("swaps");
    assertEquals(SWAP_EVERY, swaps.path("every_runs").asLong(), swaps.toString());
    assertEquals(2, swaps.path("versions").size(), swaps.toString());
    JsonNode results = swaps.path("results");
    assertEquals(2, results.size(), swaps.toString());
    for (int i = 0; i < 2; i++) {
      JsonNode phase = results.get(i);
      assertEquals(i + 1, phase.path("threads").asInt(), phase.toString());
      assertEquals(swapsPerPhase, phase.path("swaps").asInt(), phase.toString());
      JsonNode around = phase.path("around_swaps");
      JsonNode steady = phase.path("steady");
      assertEquals(RUNS, around.path("runs").asLong() + steady.path("runs").asLong(),
          phase.toString());
      for (JsonNode part : List.of(around, steady)) {
        if (part.path("runs").asLong() > 0) {
          assertTrue(part.path("p50_ms").asDouble() <= part.path("p99_ms").asDouble()
              && part.path("p99_ms").asDouble() <= part.path("max_ms").asDouble(),
              part.toString());
        }
      }
    }
    try (var left = Files.list(dir)) {
      assertEquals(List.of(base, json), left.sorted().toList(),
          "the temporary base path is removed, the user's left as it was");
    }
    assertEquals(List.of("1", "2"), Files.list(base).map(p -> p.getFileName().toString())
        .sorted().toList());
  }

  @Test
  void aDirectoryWithoutVersionsIsRefused() {
    Path model = TestModels.modelPath("versioned_a");
    Outcome bench = CliTestSupport.inProcess("bench", "--dir", model.toString(), "--iterations",
        "5", "--swap_every", "2", "--progress", "none");
    assertEquals(CliException.USAGE, bench.exitCode(), bench.toString());
    assertTrue(bench.err().contains("--swap_every serves --dir as a base path of numbered version"
        + " directories (DIR/1, DIR/2, ...), but " + model + " holds none"), bench.err());
  }

  @Test
  void swapsCannotBeCombinedWithBatching(@TempDir Path dir) {
    Outcome bench = CliTestSupport.inProcess("bench", "--dir", basePath(dir).toString(),
        "--iterations", "5", "--swap_every", "2", "--batch_max", "4", "--progress", "none");
    assertEquals(CliException.USAGE, bench.exitCode(), bench.toString());
    assertTrue(bench.err().contains("--swap_every measures a VersionedModel's predictor: it"
        + " cannot be combined with --batch_max, --trace or --timeout_ms"), bench.err());
  }
}
