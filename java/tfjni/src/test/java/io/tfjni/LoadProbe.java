package io.tfjni;

import java.nio.file.Path;
import java.util.Map;

/**
 * Run in a child JVM by {@link LibraryLoadingTest}: loads tfjni as configured by the child's
 * properties and environment, reports where libtensorflow came from, and runs one model.
 */
public final class LoadProbe {
  private LoadProbe() {}

  public static void main(String[] args) {
    try {
      System.out.println("version=" + TensorFlow.version());
      System.out.println("library=" + TensorFlow.libraryPath());
      try (SavedModel model = SavedModel.load(Path.of(args[0], "multi"));
          Tensor a = Tensor.of(new float[] {1, 2}, 2);
          Tensor b = Tensor.of(new float[] {10, 20}, 2);
          RunResult result = model.run("add", Map.of("a", a, "b", b))) {
        float[] sum = result.get("sum").toFloatArray();
        System.out.println("sum=" + sum[0] + "," + sum[1]);
      }
    } catch (UnsatisfiedLinkError e) {
      System.out.println("thrown=" + e.getClass().getName());
      System.out.println("error=" + e.getMessage());
      System.exit(3);
    }
  }
}
