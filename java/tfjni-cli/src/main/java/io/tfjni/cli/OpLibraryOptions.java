package io.tfjni.cli;

import io.tfjni.OpLibrary;
import io.tfjni.TensorFlow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Custom op libraries to load before the model ({@code show}, {@code run}, {@code bench}), as a
 * picocli mixin: models exported with TensorFlow Text, for example, need its libraries.
 */
final class OpLibraryOptions {
  @Option(names = {"--op_library", "--op-library"}, paramLabel = "FILE",
      description = "Load this TensorFlow op library (a .so registering custom ops) before the"
          + " model. Repeatable.")
  List<Path> libraries = new ArrayList<>();

  @Option(names = {"--op_library_dir", "--op-library-dir"}, paramLabel = "DIR",
      description = "Load every op library under DIR, e.g. an installed Python package such as"
          + " site-packages/tensorflow_text (Python extension modules are skipped). Repeatable.")
  List<Path> directories = new ArrayList<>();

  boolean any() {
    return !libraries.isEmpty() || !directories.isEmpty();
  }

  /**
   * Loads the libraries, those named one by one first, then the directories', in the order
   * given; a TensorFlowException (missing file, wrong TensorFlow version, ...) goes to the caller.
   */
  List<OpLibrary> load() {
    List<OpLibrary> loaded = new ArrayList<>();
    for (Path library : libraries) {
      loaded.add(TensorFlow.loadLibrary(library));
    }
    for (Path directory : directories) {
      loaded.addAll(TensorFlow.loadLibraries(directory));
    }
    return loaded;
  }

  /** "Op library PATH: N ops (A, B)", one line per library. */
  static String describe(List<OpLibrary> loaded) {
    StringBuilder text = new StringBuilder();
    for (OpLibrary library : loaded) {
      text.append("Op library ").append(library.path()).append(": ")
          .append(library.opNames().size()).append(library.opNames().size() == 1 ? " op" : " ops")
          .append(library.opNames().isEmpty() ? "" : " (" + String.join(", ", library.opNames())
              + ")")
          .append('\n');
    }
    return text.toString();
  }
}
