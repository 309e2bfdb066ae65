package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.LiteRtConversions;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses;
import io.tfjni.TestProcesses.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tfjni convert} end to end (bin/tfjni finding the venv's TensorFlow Python by itself),
 * {@code show --litert}, and its errors: a damaged SavedModel, no Python, a Python without
 * TensorFlow, bad batch sizes. Values of the converted model against arithmetic (half_plus_two's
 * serving_default: y = 0.5 x + 2).
 */
@ExtendWith(TestModels.NoLeaks.class)
class ConvertCommandTest {
  /** Converting starts TensorFlow Python: generous, on a machine shared with other builds. */
  private static final int PYTHON_SECONDS = 900;

  private static Path copy(String model, Path tmp) {
    Path copy = tmp.resolve(model);
    TestModels.copyTree(TestModels.dir().resolve(model), copy, Set.of("litert"));
    return copy;
  }

  private static Outcome tfjni(String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestProcesses.repositoryRoot().resolve("bin/tfjni").toString());
    command.addAll(List.of(args));
    return TestProcesses.process(command,
        Map.of("TFJNI_CLASSPATH", System.getProperty("java.class.path")), PYTHON_SECONDS);
  }

  @Test
  void convertsWritesTheLayoutAndShowListsIt(@TempDir Path tmp) {
    Path dir = copy("half_plus_two", tmp);
    Outcome converted = tfjni("convert", dir.toString(), "--batch-sizes", "2",
        "--signatures", "serving_default,regress_x_to_y");
    assertEquals(0, converted.exitCode(), converted.err());
    // In the order asked for; the listing sorts.
    assertTrue(converted.err().contains("[1/2] serving_default, batch 2: serving_default/"
        + "batch-2.tflite, max |TensorFlow - LiteRT| 0"), converted.err());
    assertTrue(converted.err().contains("[2/2] regress_x_to_y, batch 2: converting"),
        converted.err());
    assertTrue(converted.err().contains("TensorFlow 2."), converted.err());

    LiteRtConversions conversions = LiteRtConversions.read(dir);
    assertEquals(2, conversions.all().size());
    LiteRtConversions.Conversion ok = conversions.find("serving_default", 2).orElseThrow();
    assertEquals(dir.resolve("litert/serving_default/batch-2.tflite"), ok.file());
    assertTrue(Files.isRegularFile(ok.file()));
    assertEquals(Map.of("y", 0.0), ok.maxAbsDifference()); // 0.5 x + 2 is exact in float
    assertFalse(conversions.find("regress_x_to_y", 2).orElseThrow().converted());

    Outcome shown = CliTestSupport.inProcess("show", "--dir", dir.toString(), "--litert");
    assertEquals(0, shown.exitCode(), shown.err());
    assertEquals(converted.out(), shown.out());
    assertEquals("LiteRT models (" + dir.resolve("litert/conversion.json") + "):\n"
        + "  signature 'regress_x_to_y', batch 2: does not convert: input inputs is a string"
        + " (tfjni exchanges numbers and booleans with LiteRT) (TensorFlow "
        + ok.tensorFlowVersion() + ")\n"
        + "  signature 'serving_default', batch 2: serving_default/batch-2.tflite, max"
        + " |TensorFlow - LiteRT| y 0.00 (TensorFlow " + ok.tensorFlowVersion() + ")\n"
        + "1 of 2 converted.\n", shown.out());

    // The converted model runs, with TensorFlow's values.
    try (SavedModel saved = SavedModel.load(dir, SessionOptions.defaults().preferLiteRt(1),
        SavedModel.DEFAULT_TAG);
        Tensor x = Tensor.of(new float[] {3, -8}, 2, 1)) {
      assertEquals(List.of(2), saved.liteRtBatchSizes("serving_default"));
      Predictor predictor = saved.predictor("serving_default", 2);
      try (RunResult result = predictor.run(x)) {
        float[] y = result.get("y").toFloatArray();
        assertEquals(3.5f, y[0]);
        assertEquals(-2f, y[1]);
      }
    }
  }

  @Test
  void showWithoutALayoutSaysSo() {
    Outcome shown = CliTestSupport.inProcess("show", "--dir",
        TestModels.dir().resolve("multi").toString(), "--litert");
    assertEquals(0, shown.exitCode(), shown.err());
    assertTrue(shown.out().startsWith("No LiteRT models: "), shown.out());
  }

  @Test
  void aSavedModelTensorFlowCannotLoadIsReported(@TempDir Path tmp) throws IOException {
    Path dir = copy("digits", tmp);
    try (var files = Files.list(dir.resolve("variables"))) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    Outcome outcome = CliTestSupport.inProcess("convert", dir.toString(), "--batch-sizes", "1",
        "--python", TestProcesses.python().toString());
    assertEquals(CliException.USAGE, outcome.exitCode(), outcome.err());
    List<String> lines = outcome.errLines();
    assertTrue(lines.get(lines.size() - 1).startsWith("tfjni convert: cannot convert " + dir
        + ": Unsuccessful TensorSliceReader constructor"), outcome.err());
    assertFalse(Files.exists(dir.resolve("litert")));
  }

  @Test
  void aDamagedSavedModelIsReportedBeforePythonStarts(@TempDir Path tmp) throws IOException {
    Path dir = copy("digits", tmp);
    Files.write(dir.resolve("saved_model.pb"), new byte[] {1, 2, 3, 4, 5});
    Outcome outcome = CliTestSupport.inProcess("convert", dir.toString(), "--batch-sizes", "1",
        "--python", tmp.resolve("no-such-python").toString());
    assertEquals(CliException.USAGE, outcome.exitCode(), outcome.err());
    assertTrue(outcome.err().contains("saved_model.pb"), outcome.err());
    assertFalse(outcome.err().contains("Python"), outcome.err());
  }

  @Test
  void noPythonOrNoTensorFlowIsReported(@TempDir Path tmp) throws IOException {
    Path dir = copy("half_plus_two", tmp);
    Outcome missing = CliTestSupport.inProcess("convert", dir.toString(), "--batch-sizes", "1",
        "--python", tmp.resolve("no-such-python").toString());
    assertEquals(CliException.FAILURE, missing.exitCode(), missing.err());
    assertTrue(missing.err().startsWith("tfjni convert: cannot run Python '"
        + tmp.resolve("no-such-python") + "'"), missing.err());
    assertTrue(missing.err().contains("--python or TFJNI_PYTHON"), missing.err());

    // A Python without TensorFlow: the venv's interpreter with its site-packages out of reach.
    Path python = tmp.resolve("python-without-tensorflow");
    Files.writeString(python, "#!/bin/sh\nexec " + TestProcesses.python() + " -S \"$@\"\n");
    assertTrue(python.toFile().setExecutable(true));
    Outcome bare = CliTestSupport.inProcess("convert", dir.toString(), "--batch-sizes", "1",
        "--python", python.toString());
    assertEquals(CliException.FAILURE, bare.exitCode(), bare.err());
    assertTrue(bare.err().contains("has no TensorFlow"), bare.err());
    assertTrue(bare.err().contains("pip install tensorflow"), bare.err());
    assertFalse(Files.exists(dir.resolve("litert")));
  }

  @Test
  void badBatchSizesAndSignaturesAreUsageErrors() {
    String dir = TestModels.dir().resolve("half_plus_two").toString();
    Outcome zero = CliTestSupport.inProcess("convert", dir, "--batch-sizes", "1,0");
    assertEquals(CliException.USAGE, zero.exitCode());
    assertTrue(zero.err().contains("batch sizes must be at least 1, got 0"), zero.err());
    Outcome text = CliTestSupport.inProcess("convert", dir, "--batch-sizes", "one");
    assertEquals(CliException.USAGE, text.exitCode());
    Outcome none = CliTestSupport.inProcess("convert", dir);
    assertEquals(CliException.USAGE, none.exitCode());
    assertTrue(none.err().contains("--batch-sizes"), none.err());
    Outcome signature = CliTestSupport.inProcess("convert", dir, "--batch-sizes", "1",
        "--signatures", "nope");
    assertEquals(CliException.USAGE, signature.exitCode());
    assertTrue(signature.err().contains("no SignatureDef 'nope'"), signature.err());
  }

  @Test
  void thePythonIsTheOneNamedElseTheVenvOfTheTensorFlowDirectory() {
    // VENV/lib/python3.X/site-packages/tensorflow, as scripts/common.sh's tensorflow_dir gives it.
    Path tensorflowDir = Path.of(System.getProperty("tfjni.tensorflow.dir"));
    assertEquals(TestProcesses.python().toAbsolutePath().normalize(),
        PythonLocator.venvPython(tensorflowDir));
    assertEquals(null, PythonLocator.venvPython(tensorflowDir.getParent()));
    assertEquals("/a/python", PythonLocator.python("/a/python",
        Map.of(PythonLocator.PYTHON_ENV, "/b/python")));
    assertEquals("/b/python", PythonLocator.python(null,
        Map.of(PythonLocator.PYTHON_ENV, "/b/python")));
  }
}
