package io.tfjni.bench;

import io.tfjni.NDArray;
import io.tfjni.NDManager;
import java.util.Arrays;

/**
 * Java's side of scripts/bench-eager-dispatch.sh: the cost of one small eager op (AddV2 of two
 * 1-element float arrays) built with the generic OpBuilder, closed after use. Prints the median
 * of several rounds in nanoseconds per op. A program, not a test: timings never run in CI.
 */
public final class EagerDispatchBench {
  private EagerDispatchBench() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    int opsPerRound = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    try (NDManager manager = NDManager.newBaseManager()) {
      NDArray a = manager.create(new float[] {1}, 1);
      NDArray b = manager.create(new float[] {2}, 1);
      for (int i = 0; i < opsPerRound * 3; i++) {
        addOnce(manager, a, b);  // warm-up: JIT and TensorFlow's kernel cache
      }
      double[] nanosPerOp = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        long start = System.nanoTime();
        for (int i = 0; i < opsPerRound; i++) {
          addOnce(manager, a, b);
        }
        nanosPerOp[r] = (System.nanoTime() - start) / (double) opsPerRound;
      }
      Arrays.sort(nanosPerOp);
      System.out.printf("java_opbuilder_add_median_ns %.0f%n", nanosPerOp[rounds / 2]);
    }
  }

  private static void addOnce(NDManager manager, NDArray a, NDArray b) {
    try (NDArray sum = manager.opBuilder("AddV2").addInput(a).addInput(b).build()) {
      if (sum.isClosed()) {
        throw new AssertionError();
      }
    }
  }
}
