package io.tfjni;

/**
 * Run in a child JVM by {@link LeakTracingTest}: leaves one tensor open and prints the traced
 * open objects, so the test sees what the property or environment variable turned on.
 */
public final class LeakTracingProbe {
  private LeakTracingProbe() {}

  public static void main(String[] args) {
    Tensor leaked = leakOne();
    TensorFlow.printOpenObjects(System.out);
    leaked.close();
    TensorFlow.printOpenObjects(System.out);
  }

  private static Tensor leakOne() {
    return Tensor.of(new float[] {1, 2, 3}, 3);
  }
}
