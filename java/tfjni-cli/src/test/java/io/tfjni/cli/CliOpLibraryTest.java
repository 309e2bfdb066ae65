package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import io.tfjni.numpy.Npy;
import io.tfjni.numpy.NpyWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --op_library} and {@code --op_library_dir} of show, run and bench, on the text_ops model
 * (TensorFlow Text ops): run's outputs equal TensorFlow Python's, and without the libraries the
 * model fails to load naming a missing op. Bad libraries end in one line and a non-zero exit.
 */
class CliOpLibraryTest {
  private static final String MODEL = "text_ops";

  private static String model() {
    return TestModels.dir().resolve(MODEL).toString();
  }

  private static String packageDir() {
    return TestModels.opLibraryDir(MODEL).toString();
  }

  private static JsonNode call() {
    return TestModels.testCase("text_ops_tokenize").path("calls").get(0);
  }

  /** The case's input written as a .npy file, as saved_model_cli's --inputs reads one. */
  private static Path writeInput(Path dir) throws Exception {
    Path file = dir.resolve("text.npy");
    try (Tensor text = TestModels.tensor(call().path("inputs").path("text"))) {
      NpyWriter.write(text, file);
    }
    return file;
  }

  private static List<String> customOps() {
    List<String> ops = new ArrayList<>();
    TestModels.manifest().path("models").path(MODEL).path("custom_ops")
        .forEach(op -> ops.add(op.asText()));
    return ops;
  }

  /** The op library files (not the whole package) that register the ops the model needs. */
  private static List<String> neededLibraries() {
    List<String> files = new ArrayList<>();
    JsonNode libraries = TestModels.manifest().path("models").path(MODEL).path("op_libraries");
    for (String relative : TestModels.fieldNames(libraries)) {
      for (JsonNode op : libraries.path(relative)) {
        if (customOps().contains(op.asText())) {
          files.add(TestModels.opLibraryDir(MODEL).resolve(relative).toString());
          break;
        }
      }
    }
    return files;
  }

  private static void assertOutputsMatchPython(Path outdir) throws Exception {
    JsonNode expected = call().path("outputs");
    for (String key : TestModels.fieldNames(expected)) {
      try (Tensor actual = Npy.read(outdir.resolve(key + ".npy"))) {
        TestModels.assertTensor(expected.path(key), actual, true, "tfjni run " + key);
      }
    }
  }

  @Test
  void runWithThePackageDirectoryMatchesPython(@TempDir Path dir) throws Exception {
    Path outdir = dir.resolve("out");
    Outcome outcome = CliTestSupport.tfjni("run", "--dir", model(), "--signature_def",
        "tokenize", "--inputs", "text=" + writeInput(dir), "--op_library_dir", packageDir(),
        "--outdir", outdir.toString());
    assertEquals(0, outcome.exitCode(), outcome.toString());
    assertOutputsMatchPython(outdir);
  }

  @Test
  void runWithTheNeededLibrariesOneByOneMatchesPython(@TempDir Path dir) throws Exception {
    Path outdir = dir.resolve("out");
    List<String> args = new ArrayList<>(List.of("run", "--dir", model(), "--signature_def",
        "tokenize", "--inputs", "text=" + writeInput(dir), "--outdir", outdir.toString()));
    List<String> libraries = neededLibraries();
    assertTrue(libraries.size() >= 2, libraries.toString());
    for (String library : libraries) {
      args.add("--op_library");
      args.add(library);
    }
    Outcome outcome = CliTestSupport.tfjni(args.toArray(new String[0]));
    assertEquals(0, outcome.exitCode(), outcome.toString());
    assertOutputsMatchPython(outdir);
  }

  /** A fresh process with no op library: TensorFlow names an op it does not know. */
  @Test
  void runWithoutTheLibrariesNamesAMissingOp(@TempDir Path dir) throws Exception {
    Outcome outcome = CliTestSupport.tfjni("run", "--dir", model(), "--signature_def",
        "tokenize", "--inputs", "text=" + writeInput(dir));
    assertEquals(CliException.FAILURE, outcome.exitCode(), outcome.toString());
    assertTrue(outcome.err().contains("TensorFlow error (NOT_FOUND)"), outcome.err());
    assertTrue(customOps().stream().anyMatch(op -> outcome.err().contains("'" + op + "'")),
        "no op of " + customOps() + " named in: " + outcome.err());
  }

  @Test
  void showListsWhatEachLibraryRegisters() {
    String library = neededLibraries().get(0);
    Outcome outcome = CliTestSupport.inProcess("show", "--dir", model(), "--op_library",
        library);
    assertEquals(0, outcome.exitCode(), outcome.toString());
    JsonNode ops = TestModels.manifest().path("models").path(MODEL).path("op_libraries")
        .path(TestModels.opLibraryDir(MODEL).relativize(Path.of(library)).toString());
    List<String> names = new ArrayList<>();
    ops.forEach(op -> names.add(op.asText()));
    assertTrue(outcome.out().contains(": " + names.size() + " op"), outcome.out());
    assertTrue(outcome.out().contains("(" + String.join(", ", names) + ")"), outcome.out());
    assertTrue(outcome.out().contains("The given SavedModel contains the following tag-sets:"),
        outcome.out());
  }

  @Test
  void benchLoadsTheLibrariesFirst(@TempDir Path dir) throws Exception {
    Outcome outcome = CliTestSupport.inProcess("bench", "--dir", model(), "--signature_def",
        "tokenize", "--inputs", "text=" + writeInput(dir), "--iterations", "2", "--threads", "1",
        "--progress", "none", "--op_library_dir", packageDir());
    assertEquals(0, outcome.exitCode(), outcome.toString());
    assertTrue(outcome.out().contains("op libraries: "), outcome.out());
  }

  @Test
  void badLibrariesGiveOneLine(@TempDir Path dir) throws Exception {
    Path text = Files.writeString(dir.resolve("notes.so"), "not a library\n");
    String mismatched = TestModels.mismatchedOpLibraryPackage()
        .resolve("python/ops/_normalize_ops.so").toString();
    Map<List<String>, List<String>> cases = Map.of(
        List.of("--op_library", dir.resolve("missing.so").toString()),
        List.of("TensorFlow error (NOT_FOUND)", "missing.so"),
        List.of("--op_library", text.toString()),
        List.of("TensorFlow error (INVALID_ARGUMENT)", "not a shared library"),
        List.of("--op_library_dir", dir.resolve("nothing").toString()),
        List.of("TensorFlow error (NOT_FOUND)", "does not exist"),
        List.of("--op_library", mismatched),
        List.of("TensorFlow error (FAILED_PRECONDITION)", "another TensorFlow version"));
    for (Map.Entry<List<String>, List<String>> c : cases.entrySet()) {
      for (String command : List.of("show", "run", "bench")) {
        List<String> args = new ArrayList<>(List.of(command, "--dir", model()));
        args.addAll(c.getKey());
        Outcome outcome = CliTestSupport.inProcess(args.toArray(new String[0]));
        assertEquals(CliException.FAILURE, outcome.exitCode(), outcome.toString());
        assertEquals(1, outcome.errLines().size(), outcome.toString());
        for (String fragment : c.getValue()) {
          assertTrue(outcome.err().contains(fragment), fragment + " in " + outcome);
        }
      }
    }
  }

  @Test
  void helpDescribesTheOptions() {
    for (String command : List.of("show", "run", "bench")) {
      Outcome outcome = CliTestSupport.inProcess(command, "--help");
      assertTrue(outcome.out().contains("--op_library=FILE"), outcome.out());
      assertTrue(outcome.out().contains("--op_library_dir=DIR"), outcome.out());
    }
  }
}
