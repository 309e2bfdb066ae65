package io.tfjni.eager;

import io.tfjni.TensorFlow;
import java.util.Objects;

/** The string ops behind {@link NDArray}'s methods that need more than one TensorFlow op. */
final class StringOps {
  private StringOps() {}

  /**
   * tf.strings.split on a scalar or vector: StringSplitV2 gives the pieces with their (row,
   * column) indices; the row splits are counted from the row indices here.
   */
  static NDArray[] split(NDArray input, String separator, int maxSplit) {
    Objects.requireNonNull(separator, "separator");
    int rank = input.shape().length;
    if (rank > 1) {
      throw new IllegalArgumentException("split needs a scalar or a vector of strings, got rank "
          + rank);
    }
    NDManager manager = input.getManager();
    NDArray[] sparse;
    try (NDArray vector = rank == 0 ? input.reshape(1) : null;
        NDArray sep = manager.scalar(separator)) {
      sparse = input.op("StringSplitV2").addInput(vector != null ? vector : input).addInput(sep)
          .setAttr("maxsplit", (long) maxSplit).buildAll();
    }
    NDArray values = sparse[1];
    try (NDArray indices = sparse[0]; NDArray denseShape = sparse[2]) {
      long[] coordinates = indices.toLongArray();
      long[] rowSplits = new long[Math.toIntExact(denseShape.toLongArray()[0]) + 1];
      for (int i = 0; i < coordinates.length; i += 2) {
        rowSplits[Math.toIntExact(coordinates[i]) + 1]++;
      }
      for (int i = 1; i < rowSplits.length; i++) {
        rowSplits[i] += rowSplits[i - 1];
      }
      return new NDArray[] {values, manager.vector(rowSplits)};
    } catch (RuntimeException | Error e) {
      values.close();
      throw e;
    }
  }

  /** ReduceJoin over every axis, last axis first, so the strings join in row-major order. */
  static NDArray reduceJoin(NDArray input, String separator) {
    int rank = input.shape().length;
    int[] axes = new int[rank];
    for (int i = 0; i < rank; i++) {
      axes[i] = rank - 1 - i;
    }
    return reduceJoin(input, axes, separator);
  }

  static NDArray reduceJoin(NDArray input, int axis, String separator) {
    return reduceJoin(input, new int[] {axis}, separator);
  }

  private static NDArray reduceJoin(NDArray input, int[] axes, String separator) {
    Objects.requireNonNull(separator, "separator");
    try (NDArray a = input.getManager().vector(axes)) {
      return input.op("ReduceJoin").addInput(input).addInput(a).setAttr("keep_dims", false)
          .setAttr("separator", separator).build();
    }
  }
}
