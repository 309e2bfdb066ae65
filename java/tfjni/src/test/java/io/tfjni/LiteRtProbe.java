package io.tfjni;

import io.tfjni.internal.NativeLibrary;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Run in a child JVM by {@link LiteRtLoadingTest}: finds LiteRT's runtime library as configured
 * by the child's properties and class path, reports where it came from, and runs the {@code add}
 * signature of the test models' {@code litert/multi.tflite} on [1, 2, 3, 4] and [10, 20, 30, 40].
 * Exit codes: 3 for an {@link UnsatisfiedLinkError}, 4 for an {@link IllegalStateException}.
 */
public final class LiteRtProbe {
  private LiteRtProbe() {}

  public static void main(String[] args) {
    try (LiteRtModel model = LiteRtModel.load(Path.of(args[0], "litert", "multi.tflite"), 1);
        Predictor predictor = model.predictor("add");
        Tensor a = Tensor.of(new float[] {1, 2, 3, 4}, 4);
        Tensor b = Tensor.of(new float[] {10, 20, 30, 40}, 4);
        RunResult result = predictor.newResult()) {
      System.out.println("litert=" + NativeLibrary.liteRtLibrary());
      predictor.run(new Tensor[] {a, b}, result);
      System.out.println("sum=" + Arrays.toString(result.get("sum").toFloatArray()));
    } catch (UnsatisfiedLinkError e) {
      System.out.println("error=" + e.getMessage());
      System.exit(3);
    } catch (IllegalStateException e) {
      System.out.println("error=" + e.getMessage());
      System.exit(4);
    }
  }
}
