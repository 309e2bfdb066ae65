package io.tfjni.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tfjni convert}: LiteRT models of a SavedModel's signatures at static batch sizes, written
 * and checked by TensorFlow Python's converter (the script litert_convert.py, shipped in this
 * jar), then listed as {@code tfjni show --litert} lists them.
 */
@Command(name = "convert", sortOptions = false,
    description = {"Converts a SavedModel's signatures to LiteRT models, one per signature and"
        + " batch size (static shapes), with TensorFlow Python's converter, and checks each on"
        + " sample inputs against TensorFlow.",
        "Writes DIR/litert/<signature>/batch-<N>.tflite and DIR/litert/conversion.json (the file,"
        + " TensorFlow's version and the largest |TensorFlow - LiteRT| per output, or why it does"
        + " not convert), replacing an earlier DIR/litert. SavedModel.load with"
        + " SessionOptions.preferLiteRt runs them (docs/LITERT.md)."},
    footer = {"", "Python: --python, else TFJNI_PYTHON, else the virtual environment libtensorflow"
        + " comes from (TFJNI_TENSORFLOW_DIR = VENV/lib/python3*/site-packages/tensorflow), else"
        + " python3 on the PATH; it needs TensorFlow (pip install tensorflow)."})
final class ConvertCommand implements Callable<Integer> {
  static final String SCRIPT = "litert_convert.py";
  /** The script's exit status for a SavedModel it cannot load, and for no TensorFlow. */
  private static final int EXIT_BAD_MODEL = 2;
  private static final int EXIT_NO_TENSORFLOW = 3;
  private static final Pattern PROGRESS = Pattern.compile("^(\\[\\d+/\\d+\\] |TensorFlow ).*");
  private static final int KEPT_LINES = 20;

  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Parameters(index = "0", paramLabel = "SAVED_MODEL_DIR",
      description = "The SavedModel directory (holding saved_model.pb).")
  Path dir;

  @Option(names = {"--batch-sizes", "--batch_sizes"}, required = true, split = ",",
      paramLabel = "N", description = "The batch sizes to convert at, e.g. 1,8.")
  List<Integer> batchSizes;

  @Option(names = "--signatures", split = ",", paramLabel = "KEY",
      description = "The signatures to convert (default: all).")
  List<String> signatures;

  @Option(names = {"--tag_set", "--tag-set"}, paramLabel = "TAGS", defaultValue = "serve",
      description = "The MetaGraphDef's tags, comma-separated (default: ${DEFAULT-VALUE}).")
  String tagSet;

  @Option(names = "--python", paramLabel = "PYTHON",
      description = "The Python (with TensorFlow) to convert with.")
  String python;

  @Override
  public Integer call() throws IOException, InterruptedException {
    for (int size : batchSizes) {
      if (size < 1) {
        throw new CliException("batch sizes must be at least 1, got " + size);
      }
    }
    // Read without TensorFlow: a damaged or wrong directory is reported before Python starts.
    SavedModelInfo.MetaGraph metaGraph = SavedModelInfo.read(dir).metaGraph(tagSet);
    if (signatures != null) {
      for (String key : signatures) {
        SavedModelInfo.signature(metaGraph, key);
      }
    }
    PrintWriter err = spec.commandLine().getErr();
    Path work = Files.createTempDirectory("tfjni-convert");
    try {
      Path script = work.resolve(SCRIPT);
      try (InputStream in = ConvertCommand.class.getResourceAsStream(SCRIPT)) {
        if (in == null) {
          throw new IllegalStateException(SCRIPT + " is missing from the CLI's jar");
        }
        Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
      }
      runScript(script, err);
    } finally {
      Files.deleteIfExists(work.resolve(SCRIPT));
      Files.deleteIfExists(work);
    }
    spec.commandLine().getOut().print(LiteRtListing.render(dir));
    spec.commandLine().getOut().flush();
    return 0;
  }

  private void runScript(Path script, PrintWriter err) throws IOException, InterruptedException {
    Map<String, String> environment = System.getenv();
    String command = PythonLocator.python(python, environment);
    List<String> args = new ArrayList<>(List.of(command, script.toString(), dir.toString(),
        "--batch-sizes", join(batchSizes), "--tags", tagSet));
    if (signatures != null) {
      args.addAll(List.of("--signatures", String.join(",", signatures)));
    }
    ProcessBuilder builder = new ProcessBuilder(args).redirectErrorStream(true);
    builder.environment().putIfAbsent("TF_CPP_MIN_LOG_LEVEL", "2");
    builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    builder.environment().put("PYTHONUNBUFFERED", "1");
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new CliException("cannot run Python '" + command + "' (" + Main.oneLine(e.getMessage())
          + "); name one that has TensorFlow with --python or " + PythonLocator.PYTHON_ENV,
          CliException.FAILURE);
    }
    process.getOutputStream().close();
    boolean everyLine = "1".equals(environment.get("TFJNI_DEBUG"));
    String error = null;
    Deque<String> recent = new ArrayDeque<>();
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.startsWith("error: ")) {
          error = line.substring("error: ".length());
        } else if (everyLine || PROGRESS.matcher(line).matches()) {
          err.println(line);
          err.flush();
        } else {
          recent.addLast(line);
          if (recent.size() > KEPT_LINES) {
            recent.removeFirst();
          }
        }
      }
    }
    int status = process.waitFor();
    if (status == 0) {
      return;
    }
    if (status == EXIT_BAD_MODEL && error != null) {
      throw new CliException("cannot convert " + dir + ": " + error);
    }
    if (status == EXIT_NO_TENSORFLOW && error != null) {
      throw new CliException(error, CliException.FAILURE);
    }
    throw new CliException("Python '" + command + "' failed (exit status " + status + ")"
        + (error != null ? ": " + error : recent.isEmpty() ? ""
            : "; its last lines: " + String.join(" | ", recent)), CliException.FAILURE);
  }

  private static String join(List<Integer> sizes) {
    List<String> text = new ArrayList<>();
    for (int size : sizes) {
      text.add(Integer.toString(size));
    }
    return String.join(",", text);
  }
}
