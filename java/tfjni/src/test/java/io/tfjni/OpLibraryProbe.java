package io.tfjni;

import java.nio.file.Path;

/**
 * Run in a child JVM by {@link OpLibraryTest}, where no op library was loaded yet: loads the
 * SavedModel given, optionally after the op libraries of a directory, and reports how it went.
 * A fresh process is needed because a loaded op library stays loaded.
 */
public final class OpLibraryProbe {
  private OpLibraryProbe() {}

  /** Args: the SavedModel directory, then optionally an op library directory to load first. */
  public static void main(String[] args) {
    try {
      if (args.length > 1) {
        System.out.println("libraries=" + TensorFlow.loadLibraries(Path.of(args[1])).size());
      }
      try (SavedModel model = SavedModel.load(Path.of(args[0]))) {
        System.out.println("loaded=" + model.signatures().size());
      }
    } catch (TensorFlowException e) {
      System.out.println("thrown=" + e.getClass().getName());
      System.out.println("code=" + e.code());
      System.out.println("message=" + e.getMessage());
      System.exit(3);
    }
  }
}
