package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import io.tfjni.TestProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tfjni run} and {@code tfjni show} against TensorFlow Python's saved_model_cli.
 *
 * <p>run: every dtype, input form (.npy of every kind, .npz, literals, NumPy constructors) and
 * output kind; what it prints must be the same text, and every .npy it writes the same bytes.
 * The cases of deliberate differences (saved_model_cli casts a NumPy array silently) must be
 * refused by tfjni with the line the case gives. show: every form on every
 * generated model; the same text, except that tfjni sorts the set of ops that saved_model_cli
 * prints in hash order.
 *
 * <p>saved_model_cli_oracle.py runs saved_model_cli's own code for the cases it lists; here the
 * CLI runs in this JVM, so TensorFlow loads once on each side. CliEndToEndTest compares the real
 * saved_model_cli command with bin/tfjni.
 */
@ExtendWith(TestModels.NoLeaks.class)
class SavedModelCliOracleTest {
  @TempDir
  static Path work;

  private static List<JsonNode> cases;
  private static List<JsonNode> showCases;

  @BeforeAll
  static void runOracle() throws IOException {
    Path script = Path.of("src/test/java/io/tfjni/cli/saved_model_cli_oracle.py").toAbsolutePath();
    Outcome oracle = TestProcesses.process(List.of(
        TestProcesses.python().toString(), script.toString(), TestModels.dir().toString(),
        work.toString()), TestProcesses.pythonEnv(), 300);
    if (oracle.exitCode() != 0) {
      fail("the saved_model_cli oracle failed: " + oracle);
    }
    cases = new ArrayList<>();
    new ObjectMapper().readTree(work.resolve("cases.json").toFile()).forEach(cases::add);
    assertTrue(cases.size() >= 30, "the oracle lists " + cases.size() + " cases");
    showCases = new ArrayList<>();
    new ObjectMapper().readTree(work.resolve("show_cases.json").toFile()).forEach(showCases::add);
    assertTrue(showCases.size() >= 40, "the oracle lists " + showCases.size() + " show cases");
  }

  @TestFactory
  Stream<DynamicTest> showMatchesSavedModelCli() {
    return showCases.stream().map(c -> {
      List<String> args = new ArrayList<>(List.of("show"));
      c.path("args").forEach(a -> args.add(a.asText()));
      String name = String.join(" ", args).replace(TestModels.dir().toString(), "MODELS");
      return DynamicTest.dynamicTest(name, () -> {
        Outcome outcome = CliTestSupport.inProcess(args.toArray(new String[0]));
        assertEquals(0, outcome.exitCode(), name + ": " + outcome);
        String expected = CliTestSupport.readString(work.resolve("show")
            .resolve(c.path("expected").asText()));
        assertEquals(sortOpSets(expected), outcome.out(), name);
      });
    });
  }

  /** saved_model_cli prints a Python set of op names, in hash order; tfjni sorts them. */
  static String sortOpSets(String text) {
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("(contains the following ops: )\\{([^}]*)\\}").matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      List<String> ops = new ArrayList<>(List.of(m.group(2).split(", ")));
      java.util.Collections.sort(ops);
      m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(
          m.group(1) + "{" + String.join(", ", ops) + "}"));
    }
    m.appendTail(out);
    return out.toString();
  }

  @TestFactory
  Stream<DynamicTest> runMatchesSavedModelCli() {
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.path("name").asText(),
        () -> check(c)));
  }

  private static void check(JsonNode c) throws IOException {
    String name = c.path("name").asText();
    Path expected = work.resolve("expected").resolve(name);
    Path outdir = work.resolve("actual").resolve(name);
    List<String> args = new ArrayList<>(List.of("run", "--dir", c.path("dir").asText(),
        "--tag_set", "serve", "--signature_def", c.path("signature").asText(), "--outdir",
        outdir.toString()));
    if (!c.path("inputs").asText().isEmpty()) {
      args.add("--inputs");
      args.add(c.path("inputs").asText());
    }
    if (!c.path("exprs").asText().isEmpty()) {
      args.add("--input_exprs");
      args.add(c.path("exprs").asText());
    }
    Outcome outcome = CliTestSupport.inProcess(args.toArray(new String[0]));
    String refusal = c.path("tfjni_refuses").asText();
    if (!refusal.isEmpty()) { // a deliberate difference: saved_model_cli ran, tfjni refuses
      assertTrue(CliTestSupport.readString(expected.resolve("stdout.txt"))
          .startsWith("Result for output key"), name + ": saved_model_cli ran");
      assertEquals(2, outcome.exitCode(), name + ": " + outcome);
      assertEquals(List.of(refusal), outcome.errLines(), name);
      return;
    }
    assertEquals(0, outcome.exitCode(), name + ": " + outcome);
    assertEquals(CliTestSupport.readString(expected.resolve("stdout.txt")),
        outcome.out().replace(outdir.toString(), "OUTDIR"), name + ": printed output");
    List<String> expectedFiles = npyFiles(expected);
    assertEquals(expectedFiles, npyFiles(outdir), name + ": files written");
    assertTrue(!expectedFiles.isEmpty(), name + ": saved_model_cli wrote no files");
    for (String file : expectedFiles) {
      byte[] want = CliTestSupport.read(expected.resolve(file));
      byte[] got = CliTestSupport.read(outdir.resolve(file));
      if (want.length != got.length) {
        fail(name + "/" + file + ": " + got.length + " bytes, saved_model_cli wrote "
            + want.length + firstDifference(want, got));
      }
      assertArrayEquals(want, got, name + "/" + file + ": bytes differ" + firstDifference(want,
          got));
    }
  }

  private static List<String> npyFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".npy")).sorted()
          .toList();
    }
  }

  private static String firstDifference(byte[] a, byte[] b) {
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] != b[i]) {
        return " (first difference at byte " + i + ")";
      }
    }
    return "";
  }
}
