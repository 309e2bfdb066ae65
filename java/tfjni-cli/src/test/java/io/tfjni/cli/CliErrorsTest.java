package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import io.tfjni.numpy.NpyFiles;
import io.tfjni.numpy.PythonLiteral;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad argument or input gives exactly one line on stderr, naming the problem, no stack
 * trace, and a non-zero exit status (2 for bad arguments and inputs); nothing leaks. The CLI runs
 * in this JVM; CliEndToEndTest checks the same through bin/tfjni.
 */
@ExtendWith(TestModels.NoLeaks.class)
class CliErrorsTest {
  @TempDir
  static Path dir;

  private static String multi;

  @BeforeAll
  static void files() throws IOException {
    multi = TestModels.dir().resolve("multi").toString();
    Files.write(dir.resolve("int64.npy"), NpyFiles.npy("<i8", "(3,)", new byte[24]));
    Files.write(dir.resolve("float32_2x2.npy"), NpyFiles.npy("<f4", "(2, 2)", new byte[16]));
    Files.write(dir.resolve("float32_3.npy"), NpyFiles.npy("<f4", "(3,)", new byte[12]));
    Files.write(dir.resolve("truncated.npy"), NpyFiles.npy("<f4", "(3,)", new byte[11]));
    Files.write(dir.resolve("garbage.npy"), "this is not numpy".getBytes(StandardCharsets.UTF_8));
    Files.write(dir.resolve("bad_header.npy"), NpyFiles.npy("<f4", "(3,", new byte[12]));
    Files.write(dir.resolve("object.npy"), NpyFiles.npy("|O", "(3,)", new byte[] {(byte) 0x80, 4}));
    Files.write(dir.resolve("datetime.npy"), NpyFiles.npy("<M8[s]", "(3,)", new byte[24]));
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(dir.resolve("two.npz")))) {
      for (String name : List.of("a", "b")) {
        zip.putNextEntry(new ZipEntry(name + ".npy"));
        zip.write(NpyFiles.npy("<f4", "(3,)", new byte[12]));
        zip.closeEntry();
      }
    }
    Files.createDirectories(dir.resolve("not_a_model"));
    Files.write(dir.resolve("out_file"), new byte[0]);
  }

  /** Runs the CLI and asserts one stderr line starting with {@code prefix} and holding each of
   * {@code fragments}; returns that line. */
  private static String assertError(int exitCode, List<String> fragments, String... args) {
    Outcome outcome = CliTestSupport.inProcess(args);
    assertEquals(exitCode, outcome.exitCode(), outcome.toString());
    List<String> lines = outcome.errLines();
    assertEquals(1, lines.size(), "one line of error: " + outcome);
    String line = lines.get(0);
    String command = args.length > 0 && !args[0].startsWith("-") ? "tfjni " + args[0] : "tfjni";
    assertTrue(line.startsWith(command + ": ") || line.startsWith("tfjni: "), line);
    for (String fragment : fragments) {
      assertTrue(line.contains(fragment), "'" + fragment + "' in: " + line);
    }
    assertFalse(line.contains("Exception") || line.contains("\tat "), line);
    return line;
  }

  private static String assertError(List<String> fragments, String... args) {
    return assertError(CliException.USAGE, fragments, args);
  }

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  @Test
  void missingOrBadModelDirectory() {
    assertError(List.of("Missing required option: '--dir=DIR'", "tfjni show --help"), "show");
    assertError(List.of("no SavedModel directory", "does not exist"), "show", "--dir",
        file("nowhere"));
    assertError(List.of("no SavedModel in", "no saved_model.pb"), "run", "--dir",
        file("not_a_model"), "--input_exprs", "x=1");
    assertError(List.of("is not a directory"), "bench", "--dir", file("int64.npy"));
  }

  @Test
  void unknownTagSetOrSignature() {
    assertError(List.of("no MetaGraphDef with tag-set 'gpu'", "tag-sets are 'serve'"), "show",
        "--dir", multi, "--tag_set", "gpu");
    assertError(List.of("no SignatureDef 'nope'", "'add', 'any_rank', 'scale',"
        + " 'serving_default'"), "run", "--dir", multi, "--signature_def", "nope",
        "--input_exprs", "a=[1]");
    assertError(List.of("no SignatureDef 'nope'"), "show", "--dir", multi, "--tag_set", "serve",
        "--signature_def", "nope");
    assertError(List.of("no SignatureDef 'nope'"), "bench", "--dir", multi, "--signature_def",
        "nope");
  }

  @Test
  void unknownMissingOrRepeatedInputs() {
    assertError(List.of("'c' is not an input of signature 'add'", "its inputs are 'a', 'b'"),
        "run", "--dir", multi, "--signature_def", "add", "--input_exprs", "a=[1];b=[2];c=[3]");
    assertError(List.of("no value for input 'b' of signature 'add'", "its inputs are 'a', 'b'"),
        "run", "--dir", multi, "--signature_def", "add", "--input_exprs", "a=[1]");
    // half_plus_two: TensorFlow's own error would name the placeholder tf_example behind x.
    String halfPlusTwo = TestModels.dir().resolve("half_plus_two").toString();
    String line = assertError(List.of("no value for input 'x' of signature 'plus_offset'",
        "its inputs are 'offset', 'x'"), "run", "--dir", halfPlusTwo, "--signature_def",
        "plus_offset", "--input_exprs", "offset=1.5");
    assertFalse(line.contains("tf_example"), line);
    assertError(List.of("give the inputs of signature 'add'"), "run", "--dir", multi,
        "--signature_def", "add");
    assertError(List.of("input 'a' is given more than once"), "run", "--dir", multi,
        "--signature_def", "add", "--inputs", "a=" + file("float32_3.npy"), "--input_exprs",
        "a=[1];b=[2]");
    assertError(List.of("--inputs: 'a' is not KEY=FILE or KEY=FILE[NAME]"), "run", "--dir",
        multi, "--signature_def", "add", "--inputs", "a");
    assertError(List.of("input 'a': no file"), "run", "--dir", multi, "--signature_def", "add",
        "--inputs", "a=" + file("missing.npy"), "--input_exprs", "b=[1]");
  }

  @Test
  void deepLiteralsAndHeadersAreOneLineNamingTheLimit() throws IOException {
    String limit = "nested deeper than " + PythonLiteral.MAX_DEPTH + " levels";
    String deep = "[".repeat(5000) + "1" + "]".repeat(5000);
    // What the CLI reports: the parser's IllegalArgumentException, not a StackOverflowError.
    assertThrows(IllegalArgumentException.class, () -> PythonLiteral.parse(deep));
    String line = assertError(List.of("--input_exprs: input 'a': cannot parse the expression: "
        + limit + " at column " + (PythonLiteral.MAX_DEPTH + 1)), "run", "--dir", multi,
        "--signature_def", "add", "--input_exprs", "a=" + deep + ";b=[1]");
    assertTrue(line.length() < 250, "the line quotes a window of the literal: " + line);
    assertError(List.of("input 'a': cannot parse the expression: '-' before a non-number"),
        "run", "--dir", multi, "--signature_def", "add", "--input_exprs",
        "a=" + "-".repeat(20_000) + "'x';b=[1]");
    Path header = dir.resolve("deep_header.npy");
    Files.write(header, NpyFiles.npy("<f4", "(".repeat(5000) + "3" + ",)".repeat(5000),
        new byte[12]));
    line = assertError(List.of("input 'a': malformed .npy file " + header + ": bad header ("
        + limit), "run", "--dir", multi, "--signature_def", "add", "--inputs",
        "a=" + header, "--input_exprs", "b=[1]");
    assertTrue(line.length() < 400, "the line quotes a window of the header: " + line);
  }

  @Test
  void dtypeOrShapeMismatchWithTheSignature() {
    assertError(List.of("input 'a':", "holds int64 [3], but the signature wants float32 [?]"),
        "run", "--dir", multi, "--signature_def", "add", "--inputs", "a=" + file("int64.npy"),
        "--input_exprs", "b=[1, 2, 3]");
    assertError(List.of("input 'x':", "has shape [3], but the signature wants float32 [?, 3]"),
        "run", "--dir", multi, "--signature_def", "scale", "--inputs",
        "x=" + file("float32_3.npy"));
    assertError(List.of("input 'x':", "has shape [2, 2], but the signature wants float32 [?, 3]"),
        "run", "--dir", multi, "--signature_def", "scale", "--inputs",
        "x=" + file("float32_2x2.npy"));
    assertError(List.of("--input_exprs: input 'x' has shape [3], but the signature wants"
        + " float32 [?, 3]"), "run", "--dir", multi, "--signature_def", "scale", "--input_exprs",
        "x=[1, 2, 3]");
  }

  @Test
  void malformedOrUnsupportedNpyFiles() {
    List<String> base = List.of("run", "--dir", multi, "--signature_def", "add",
        "--input_exprs", "b=[1, 2, 3]", "--inputs");
    String[][] cases = {
        {"truncated.npy", "malformed", "expected 12 data bytes after the header, found 11"},
        {"garbage.npy", "malformed", "not a .npy file"},
        {"bad_header.npy", "malformed", "bad header"},
        {"object.npy", "unsupported", "pickle"},
        {"datetime.npy", "unsupported", "datetime"},
    };
    for (String[] c : cases) {
      List<String> args = new ArrayList<>(base);
      args.add("a=" + file(c[0]));
      assertError(List.of("input 'a': " + c[1] + " .npy file " + file(c[0]), c[2]),
          args.toArray(new String[0]));
    }
  }

  @Test
  void npzArrayNames() {
    assertError(List.of("holds 2 arrays [a, b]; name one, e.g. a=" + file("two.npz") + "[a]"),
        "run", "--dir", multi, "--signature_def", "add", "--inputs", "a=" + file("two.npz"),
        "--input_exprs", "b=[1, 2, 3]");
    assertError(List.of("has no array 'c'; its arrays are [a, b]"), "run", "--dir", multi,
        "--signature_def", "add", "--inputs", "a=" + file("two.npz") + "[c]", "--input_exprs",
        "b=[1, 2, 3]");
    assertError(List.of("is a .npy file, which holds one array"), "run", "--dir", multi,
        "--signature_def", "add", "--inputs", "a=" + file("float32_3.npy") + "[x]",
        "--input_exprs", "b=[1, 2, 3]");
  }

  @Test
  void unparsableOrUnfitExpressions() {
    String[][] cases = {
        {"a=[1, 2", "cannot parse the expression: '[' is never closed"},
        {"a=[1, 2]]", "cannot parse the expression: unexpected ']'"},
        {"a=foo(1)", "'foo' is not a literal"},
        {"a=['x']", "'x' is not a number, and the signature wants float32"},
        {"a=[[1], [2, 3]]", "ragged"},
        {"a=[None]", "None has no tensor value"},
        {"a=np.eye(3)", "cannot parse the expression: 'np.eye' is not accepted (--input_exprs"
            + " takes Python literals, and np.zeros, np.ones, np.full, np.arange, np.linspace"
            + " (with dtype=) followed by .reshape(...)) at column 1 of 'np.eye(3)'"},
        {"a=np.ones(3).astype(np.float32)", "'.astype' is not accepted"},
        {"a=np.ones((2, 2))", "has shape [2, 2], but the signature wants float32"},
        {"a=np.ones(3, dtype=np.int32)", "has dtype int32, but the signature wants float32"},
        {"a=np.full(3, 'x')", "'x' is not a number, and the signature wants float32"},
    };
    for (String[] c : cases) {
      assertError(List.of("--input_exprs: input 'a'", c[1]), "run", "--dir", multi,
          "--signature_def", "add", "--input_exprs", c[0] + ";b=[1]");
    }
    String shapes = TestModels.dir().resolve("shapes").toString();
    assertError(List.of("1.5 is not a whole number, and the signature wants int64"), "run",
        "--dir", shapes, "--signature_def", "int_scalar", "--input_exprs", "n=1.5");
    assertError(List.of("9223372036854775808 is out of range for int64"), "run", "--dir",
        shapes, "--signature_def", "int_scalar", "--input_exprs", "n=9223372036854775808");
    assertError(List.of("--input_exprs: 'nokey' is not KEY=EXPRESSION"), "run", "--dir", multi,
        "--signature_def", "add", "--input_exprs", "nokey");
  }

  @Test
  void existingOutputFiles() throws IOException {
    Path out = dir.resolve("outputs");
    Files.createDirectories(out);
    Files.write(out.resolve("sum.npy"), new byte[0]);
    assertError(List.of("output file " + out.resolve("sum.npy") + " already exists; add"
        + " --overwrite"), "run", "--dir", multi, "--signature_def", "add", "--input_exprs",
        "a=[1];b=[2]", "--outdir", out.toString());
    assertError(List.of("is a file, not a directory"), "run", "--dir", multi, "--signature_def",
        "add", "--input_exprs", "a=[1];b=[2]", "--outdir", file("out_file"));
    Outcome overwritten = CliTestSupport.inProcess("run", "--dir", multi,
        "--signature_def", "add", "--input_exprs", "a=[1];b=[2]", "--outdir", out.toString(),
        "--overwrite");
    assertEquals(0, overwritten.exitCode(), overwritten.toString());
    assertTrue(Files.size(out.resolve("sum.npy")) > 0);
  }

  @Test
  void badBenchOptions() {
    assertError(List.of("give --duration or --iterations, not both"), "bench", "--dir", multi,
        "--duration", "1s", "--iterations", "5");
    assertError(List.of("Invalid value for option '--duration'", "not a duration like 20s"),
        "bench", "--dir", multi, "--duration", "soon");
    assertError(List.of("--threads: each count must be between 1 and 4096, got 0"), "bench",
        "--dir", multi, "--threads", "1,0");
    assertError(List.of("Invalid value for option '--threads'"), "bench", "--dir", multi,
        "--threads", "two");
    assertError(List.of("--plot writes a PNG file"), "bench", "--dir", multi, "--plot",
        "chart.svg");
    assertError(List.of("--progress must be auto, bar, lines or none"), "bench", "--dir", multi,
        "--progress", "fancy");
    assertError(List.of("--batch must be >= 1"), "bench", "--dir", multi, "--batch", "0");
    assertError(List.of("input 'x' has an unknown rank"), "bench", "--dir", multi,
        "--signature_def", "any_rank", "--iterations", "1");
  }

  @Test
  void badCommandLines() {
    assertError(List.of("missing command"));
    assertError(List.of("Unmatched argument at index 0: 'launch'"), "launch");
    assertError(List.of("Unknown option: '--bogus'"), "show", "--dir", multi, "--bogus");
    assertError(List.of("no digits model in " + file("nowhere")), "demo", "--models",
        file("nowhere"));
  }

  @Test
  void helpForEveryCommand() {
    for (String command : List.of("show", "run", "convert", "bench", "demo")) {
      Outcome help = CliTestSupport.inProcess(command, "--help");
      assertEquals(0, help.exitCode(), help.toString());
      assertTrue(help.out().startsWith("Usage: tfjni " + command + " "), help.out());
      assertEquals("", help.err());
    }
    Outcome top = CliTestSupport.inProcess("--help");
    assertEquals(0, top.exitCode());
    for (String command : List.of("show", "run", "convert", "bench", "demo")) {
      assertTrue(top.out().contains("\n  " + command + " "), top.out());
    }
  }
}
