package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import io.tfjni.TestProcesses;
import io.tfjni.numpy.Npy;
import io.tfjni.numpy.NpyArray;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the real bin/tfjni as a subprocess on the generated models, and compares it with the
 * real saved_model_cli of the TensorFlow venv: show's text, and run's printed results and the
 * bytes of the .npy files each writes for the same inputs. saved_model_cli runs in the background
 * while the other tests run; the tests that wait for it run last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CliEndToEndTest {
  @TempDir
  static Path work;

  private static CompletableFuture<Outcome> pythonShow;
  private static CompletableFuture<Outcome> pythonRunStrings;

  /** Inputs written by NumPy; saved_model_cli starts at once, in the background. */
  @BeforeAll
  static void startSavedModelCli() throws IOException {
    Outcome made = TestProcesses.runPython(String.join("\n",
        "import numpy as np, sys",
        "d = sys.argv[1]",
        "np.savez(d + '/strings.npz', s=np.array([b'tf', b'', b'j', b'long string ' * 30,"
            + " b'ni'], dtype='S'), other=np.zeros(2))",
        "np.save(d + '/a.npy', np.array([1.5, -2.25, 1e-6], dtype=np.float32))"), work, 60);
    assertEquals(0, made.exitCode(), made.toString());
    String cli = TestProcesses.savedModelCli().toString();
    // (--all would load the model in Python too: SavedModelCliOracleTest covers it.)
    pythonShow = TestProcesses.start(List.of(cli, "show", "--dir", model("multi"), "--tag_set",
        "serve", "--signature_def", "scale"), TestProcesses.pythonEnv(), 120);
    pythonRunStrings = TestProcesses.start(List.of(cli, "run", "--dir", model("strings"),
        "--tag_set", "serve", "--signature_def", "transform", "--inputs",
        "s=" + work.resolve("strings.npz") + "[s]", "--outdir", work.resolve("py_strings")
            .toString()), TestProcesses.pythonEnv(), 120);
  }

  private static String model(String name) {
    return TestModels.dir().resolve(name).toString();
  }

  /**
   * TensorFlow's log lines: hidden by default through the log level the CLI sets before
   * TensorFlow loads (TFJNI_RAW_STDERR=1 shows that it is not bin/tfjni's filter that hides
   * them), shown with --tf_logs, and TF_CPP_MIN_LOG_LEVEL wins over both.
   */
  @Test
  void tensorFlowsLogLinesAreHiddenUnlessAskedFor() {
    String[] run = {"run", "--dir", TestModels.dir().resolve("multi").toString(),
        "--signature_def", "add", "--input_exprs", "a=[1];b=[2]"};
    String info = "Reading SavedModel from";
    Map<String, String> unset = Map.of("TF_CPP_MIN_LOG_LEVEL", "", "TFJNI_LOG_LEVEL", "");
    Outcome quiet = CliTestSupport.tfjni(unset, run);
    assertEquals(0, quiet.exitCode(), quiet.toString());
    assertEquals("", quiet.err(), quiet.toString());
    Map<String, String> raw = new java.util.HashMap<>(unset);
    raw.put("TFJNI_RAW_STDERR", "1");
    Outcome unfiltered = CliTestSupport.tfjni(raw, run);
    assertEquals(0, unfiltered.exitCode(), unfiltered.toString());
    assertFalse(unfiltered.err().contains(info), unfiltered.toString());
    String[] withLogs = Stream.concat(Stream.of("--tf_logs"), Stream.of(run))
        .toArray(String[]::new);
    Outcome shown = CliTestSupport.tfjni(unset, withLogs);
    assertEquals(0, shown.exitCode(), shown.toString());
    assertTrue(shown.err().contains(info), shown.toString());
    Outcome userWins = CliTestSupport.tfjni(Map.of("TF_CPP_MIN_LOG_LEVEL", "2"), withLogs);
    assertEquals(0, userWins.exitCode(), userWins.toString());
    assertFalse(userWins.err().contains(info), userWins.toString());
  }

  @Test
  @Order(Order.DEFAULT + 1) // after the others (unannotated tests have Order.DEFAULT)
  void showPrintsWhatSavedModelCliPrints() {
    Outcome ours = CliTestSupport.tfjni("show", "--dir", model("multi"),
        "--tag_set", "serve", "--signature_def", "scale");
    assertEquals(0, ours.exitCode(), ours.toString());
    assertEquals("", ours.err(), "stderr");
    Outcome python = pythonShow.join();
    assertEquals(0, python.exitCode(), python.toString());
    assertEquals(python.out(), ours.out());
    assertTrue(ours.out().contains("outputs['total'] tensor_info:\n      dtype: DT_FLOAT\n"
        + "      shape: ()\n"), ours.out());
  }

  @Test
  @Order(Order.DEFAULT + 2)
  void runWritesTheBytesSavedModelCliWrites() {
    Path outdir = work.resolve("tfjni_strings");
    Outcome ours = CliTestSupport.tfjni("run", "--dir", model("strings"),
        "--signature_def", "transform", "--inputs", "s=" + work.resolve("strings.npz") + "[s]",
        "--outdir", outdir.toString());
    assertEquals(0, ours.exitCode(), ours.toString());
    assertEquals("", ours.err(), "stderr: TensorFlow's INFO lines are filtered");
    Outcome python = pythonRunStrings.join();
    assertEquals(0, python.exitCode(), python.toString());
    assertSameRun(python.out(), work.resolve("py_strings"), ours.out(), outdir,
        List.of("joined.npy", "length.npy", "upper.npy"));
  }

  /**
   * String outputs, which tfjni and saved_model_cli both save as pickled object arrays, are
   * inputs again: tfjni's own joined.npy and saved_model_cli's upper.npy through "transform".
   */
  @Test
  @Order(Order.DEFAULT + 3)
  void stringOutputsFeedBackAsInputs() {
    String[] input = {"tf", "", "j", "long string ".repeat(30), "ni"};
    Path outdir = work.resolve("tfjni_again");
    Outcome again = CliTestSupport.tfjni("run", "--dir", model("strings"),
        "--signature_def", "transform", "--inputs",
        "s=" + work.resolve("tfjni_strings").resolve("joined.npy"), "--outdir",
        outdir.toString());
    assertEquals(0, again.exitCode(), again.toString());
    byte[][] joined = readNpy(outdir.resolve("joined.npy")).strings();
    assertEquals(input.length, joined.length);
    for (int i = 0; i < input.length; i++) {
      assertEquals(input[i] + "_suffix_suffix", new String(joined[i], StandardCharsets.UTF_8));
    }
    Path fromPython = work.resolve("tfjni_from_python");
    Outcome upper = CliTestSupport.tfjni("run", "--dir", model("strings"),
        "--signature_def", "transform", "--inputs",
        "s=" + work.resolve("py_strings").resolve("upper.npy"), "--outdir",
        fromPython.toString());
    assertEquals(0, upper.exitCode(), upper.toString());
    byte[][] joinedUpper = readNpy(fromPython.resolve("joined.npy")).strings();
    for (int i = 0; i < input.length; i++) {
      assertEquals(input[i].toUpperCase(java.util.Locale.ROOT) + "_suffix",
          new String(joinedUpper[i], StandardCharsets.UTF_8));
    }
  }

  @Test
  void runWithFilesAndExpressions() {
    Path outdir = work.resolve("tfjni_multi");
    Outcome ours = CliTestSupport.tfjni("run", "--dir", model("multi"),
        "--tag_set", "serve", "--signature_def", "add", "--inputs", "a=" + work.resolve("a.npy"),
        "--input_exprs", "b=[10, 20.5, -3]", "--outdir", outdir.toString());
    assertEquals(0, ours.exitCode(), ours.toString());
    // As NumPy prints np.float32([1.5, -2.25, 1e-6]) + np.float32([10, 20.5, -3]).
    assertEquals("Result for output key sum:\n[11.5      18.25     -2.999999]\n"
        + "Output sum is saved to " + outdir.resolve("sum.npy") + "\n", ours.out());
    // The sum, by arithmetic (SavedModelCliOracleTest compares such runs with saved_model_cli).
    NpyArray sum = readNpy(outdir.resolve("sum.npy"));
    java.nio.FloatBuffer values = java.nio.ByteBuffer.wrap(sum.data())
        .order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    assertEquals(1.5f + 10f, values.get(0));
    assertEquals(-2.25f + 20.5f, values.get(1));
    assertEquals(1e-6f - 3f, values.get(2));
  }

  /** Same "Result for output key" text (paths aside), and the same bytes in every file. */
  private static void assertSameRun(String pythonOut, Path pythonDir, String ourOut, Path ourDir,
      List<String> files) {
    assertEquals(results(pythonOut).replace(pythonDir.toString(), "OUTDIR"),
        results(ourOut).replace(ourDir.toString(), "OUTDIR"));
    for (String file : files) {
      assertArrayEquals(CliTestSupport.read(pythonDir.resolve(file)),
          CliTestSupport.read(ourDir.resolve(file)), file);
    }
  }

  /** The lines saved_model_cli prints about results (it also prints deprecation notices). */
  private static String results(String out) {
    List<String> kept = new ArrayList<>();
    boolean inResult = false;
    for (String line : out.split("\n")) {
      if (line.startsWith("Result for output key ")) {
        inResult = true;
      } else if (line.startsWith("Output ") && line.contains(" is saved to ")) {
        inResult = false;
        kept.add(line);
        continue;
      }
      if (inResult) {
        kept.add(line);
      }
    }
    assertFalse(kept.isEmpty(), "no results in:\n" + out);
    return String.join("\n", kept);
  }

  @Test
  void badArgumentsGiveOneLineAndNonZeroExit() {
    Outcome missing = CliTestSupport.tfjni("run", "--dir",
        work.resolve("no-such-model").toString(), "--input_exprs", "x=1");
    assertEquals(2, missing.exitCode(), missing.toString());
    assertEquals(List.of("tfjni run: no SavedModel directory " + work.resolve("no-such-model")
        + " (it does not exist)"), missing.errLines());
    assertEquals("", missing.out());

    // Passes the signature's checks (both [-1]) but not TensorFlow's: an error from the run. At
    // the CLI's own log level (2; make test exports 1, under which TensorFlow from 2.19 also logs
    // the aborted step as a warning).
    Outcome tensorflow = CliTestSupport.tfjni(
        Map.of("TF_CPP_MIN_LOG_LEVEL", Main.DEFAULT_LOG_LEVEL), "run", "--dir", model("multi"),
        "--signature_def", "add", "--input_exprs", "a=[1, 2];b=[1, 2, 3]");
    assertEquals(1, tensorflow.exitCode(), tensorflow.toString());
    List<String> lines = tensorflow.errLines();
    assertEquals(1, lines.size(), tensorflow.toString());
    assertTrue(lines.get(0).startsWith("tfjni run: TensorFlow error (INVALID_ARGUMENT): "),
        lines.get(0));
    assertFalse(tensorflow.err().contains("Exception"), tensorflow.err());
  }

  @Test
  void versionNamesTfjniTensorFlowAndTheLibrary() {
    Outcome version = CliTestSupport.tfjni("--version");
    assertEquals(0, version.exitCode(), version.toString());
    String[] lines = version.out().split("\n");
    assertEquals(3, lines.length, version.out());
    assertTrue(lines[0].matches("tfjni \\d+\\.\\d+\\.\\d+.*"), lines[0]);
    assertEquals("TensorFlow " + TestModels.manifest().path("tensorflow_version").asText(),
        lines[1]);
    assertTrue(lines[2].startsWith("libtensorflow: "), lines[2]);
    assertTrue(Files.isRegularFile(Path.of(lines[2].substring("libtensorflow: ".length()))),
        lines[2]);
  }

  @Test
  void helpOnASubcommand() {
    Outcome help = CliTestSupport.tfjni("bench", "--help");
    assertEquals(0, help.exitCode(), help.toString());
    assertTrue(help.out().startsWith("Usage: tfjni bench "), help.out());
    for (String option : List.of("--threads", "--duration", "--iterations", "--warmup", "--batch",
        "--json", "--plot")) {
      assertTrue(help.out().contains(option), option + " in\n" + help.out());
    }
  }

  @Test
  void benchReportsTableJsonAndChart() throws IOException {
    Path json = work.resolve("bench/result.json");
    Path png = work.resolve("bench/chart.png");
    Outcome bench = CliTestSupport.tfjni("bench", "--dir", model("digits"),
        "--threads", "1,2", "--iterations", "60", "--warmup", "3", "--batch", "4", "--json",
        json.toString(), "--plot", png.toString());
    assertEquals(0, bench.exitCode(), bench.toString());
    // Not a terminal: plain progress lines, one per phase at least.
    assertTrue(bench.err().contains("bench: 1 thread: done, 60 runs in "), bench.err());
    assertTrue(bench.err().contains("bench: 2 threads: done, 60 runs in "), bench.err());
    assertFalse(bench.err().contains("\r"), "no progress bar when stderr is not a terminal");
    Matcher row = Pattern.compile("(?m)^\\s+(\\d+)\\s+60\\s+[\\d.]+\\s+[\\d.]+")
        .matcher(bench.out());
    List<String> threads = new ArrayList<>();
    while (row.find()) {
      threads.add(row.group(1));
    }
    assertEquals(List.of("1", "2"), threads, bench.out());
    assertTrue(bench.out().contains("input images: float32 [4, 8, 8, 1] (synthetic)"),
        bench.out());

    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertEquals("serving_default", report.path("signature").asText());
    assertEquals(4, report.path("batch").asInt());
    JsonNode results = report.path("results");
    assertEquals(2, results.size());
    for (int i = 0; i < 2; i++) {
      JsonNode r = results.get(i);
      assertEquals(i + 1, r.path("threads").asInt());
      assertEquals(60, r.path("runs").asLong());
      double seconds = r.path("seconds").asDouble();
      assertEquals(60 / seconds, r.path("runs_per_second").asDouble(), 1e-6 * 60 / seconds);
      assertEquals(4 * 60 / seconds, r.path("items_per_second").asDouble(), 1e-5 * 60 / seconds);
      JsonNode ms = r.path("latency_ms");
      assertTrue(0 < ms.path("p50").asDouble(), ms.toString());
      assertTrue(ms.path("p50").asDouble() <= ms.path("p90").asDouble(), ms.toString());
      assertTrue(ms.path("p90").asDouble() <= ms.path("p99").asDouble(), ms.toString());
      assertTrue(ms.path("p99").asDouble() <= ms.path("max").asDouble(), ms.toString());
      assertTrue(r.path("rss_bytes").asLong() > 10 << 20, r.toString());
      assertTrue(r.path("heap_used_bytes").asLong() > 0, r.toString());
      assertTrue(r.path("gc_count").asLong() >= 0, r.toString());
    }
    BufferedImage image = ImageIO.read(png.toFile());
    assertNotNull(image, "not a PNG: " + png);
    assertEquals(BenchPlot.WIDTH, image.getWidth());
    assertEquals(BenchPlot.HEIGHT, image.getHeight());
  }

  @Test
  void demoAgreesWithTensorFlowPythonOnEveryDigit() throws IOException {
    Outcome demo = CliTestSupport.tfjni(Map.of(), "demo");
    assertEquals(0, demo.exitCode(), demo.toString());
    long digits = readNpy(TestModels.dir().resolve("digits_holdout_labels.npy")).elementCount();
    assertTrue(digits > 100, "hold-out digits: " + digits);
    assertTrue(demo.out().contains("agreement with TensorFlow Python: " + digits + "/" + digits
        + ","), demo.out());
    assertTrue(demo.out().contains(digits + " held-out digits classified in "), demo.out());
    assertTrue(demo.out().contains("live native objects after close: 0"), demo.out());
    assertEquals(3, Stream.of(demo.out().split("\n")).filter(l -> l.startsWith("predicted "))
        .count(), demo.out());
  }

  private static NpyArray readNpy(Path file) {
    try {
      return Npy.readArray(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
