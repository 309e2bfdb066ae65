package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code --timeout_ms} of run and bench, {@code bench --trace} and {@code tfjni devices}, in this
 * JVM. Oracles: the slow_loop golden, the nodes TensorFlow Python's trace of multi's add lists,
 * and Python's session devices (manifest.json).
 */
@ExtendWith(TestModels.NoLeaks.class)
class RunOptionsCliTest {
  private static String model(String name) {
    return TestModels.dir().resolve(name).toString();
  }

  private static String slowLoopInputs() {
    JsonNode inputs = TestModels.testCase("slow_loop_spin").path("calls").get(0).path("inputs");
    long seed = ByteBuffer.wrap(TestModels.data(inputs.path("seed")))
        .order(ByteOrder.LITTLE_ENDIAN).getLong();
    int iterations = ByteBuffer.wrap(TestModels.data(inputs.path("iterations")))
        .order(ByteOrder.LITTLE_ENDIAN).getInt();
    return "seed=" + seed + ";iterations=" + iterations;
  }

  @Test
  void runTimesOutWithDeadlineExceededAndRunsToTheGoldenWithout() {
    String[] args = {"run", "--dir", model("slow_loop"), "--signature_def", "spin",
        "--input_exprs", slowLoopInputs()};
    Outcome timedOut = CliTestSupport.inProcess(concat(args, "--timeout_ms", "1"));
    assertEquals(CliException.FAILURE, timedOut.exitCode(), timedOut.toString());
    assertEquals(1, timedOut.errLines().size(), timedOut.toString());
    assertTrue(timedOut.errLines().get(0).startsWith("tfjni run: TensorFlow error"
        + " (DEADLINE_EXCEEDED): "), timedOut.toString());

    long golden = ByteBuffer.wrap(TestModels.data(TestModels.testCase("slow_loop_spin")
        .path("calls").get(0).path("outputs").path("value")))
        .order(ByteOrder.LITTLE_ENDIAN).getLong();
    Outcome untimed = CliTestSupport.inProcess(concat(args, "--timeout_ms", "0"));
    assertEquals(0, untimed.exitCode(), untimed.toString());
    assertEquals("Result for output key value:\n" + golden, untimed.out().strip());
  }

  @Test
  void aNegativeTimeoutIsAnArgumentError() {
    for (String command : List.of("run", "bench")) {
      Outcome outcome = CliTestSupport.inProcess(command, "--dir", model("multi"),
          "--signature_def", "add", "--input_exprs", "a=[1];b=[2]", "--timeout_ms", "-5");
      assertEquals(CliException.USAGE, outcome.exitCode(), outcome.toString());
      assertEquals(List.of("tfjni " + command + ": --timeout_ms must be >= 0 (0: no timeout),"
          + " got -5"), outcome.errLines());
    }
  }

  @Test
  void benchTraceListsTheNodesTensorFlowPythonTraced() {
    Outcome outcome = CliTestSupport.inProcess("bench", "--dir", model("multi"),
        "--signature_def", "add", "--input_exprs", "a=[1,2];b=[3,4]", "--iterations", "20",
        "--warmup", "2", "--progress", "none", "--timeout_ms", "60000", "--trace", "3",
        "--trace_top", "1000");
    assertEquals(0, outcome.exitCode(), outcome.toString());
    String out = outcome.out();
    assertTrue(out.contains("Slowest ops over 3 traced runs"), out);
    JsonNode expected = TestModels.manifest().path("multi_add_traced_nodes");
    assertTrue(expected.size() > 0);
    for (String node : TestModels.fieldNames(expected)) {
      String op = expected.path(node).asText();
      boolean listed = out.lines().anyMatch(line -> line.endsWith(" " + node)
          && line.contains(" " + op + " ") && line.contains(" CPU:0 ")
          && line.matches("\\s+\\d+\\s+3\\s.*"));
      // This machine's one device is the CPU.
      assertTrue(listed, "no row for node " + node + " (" + op + ", 3 runs, CPU:0) in:\n" + out);
    }
  }

  @Test
  void devicesAreTheOnesTensorFlowPythonLists() {
    for (String[] args : List.of(new String[] {"devices"},
        new String[] {"devices", "--dir", model("multi")})) {
      Outcome outcome = CliTestSupport.inProcess(args);
      assertEquals(0, outcome.exitCode(), outcome.toString());
      List<String> lines = outcome.out().strip().lines().toList();
      JsonNode expected = TestModels.manifest().path("devices");
      assertEquals(expected.size() + 1, lines.size(), outcome.out());
      for (int i = 0; i < expected.size(); i++) {
        List<String> cells = List.of(lines.get(i + 1).trim().split("\\s+"));
        assertEquals(List.of(expected.get(i).path("name").asText(),
            expected.get(i).path("type").asText(),
            expected.get(i).path("memory_limit_bytes").asText()), cells);
      }
    }
  }

  private static String[] concat(String[] args, String... more) {
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }
}
