package io.tfjni.djl;

import io.tfjni.DataType;
import io.tfjni.eager.NDArray;

/**
 * torch.unique over the core's {@link NDArray#uniqueWithCounts}, which keeps the order of first
 * occurrence: for {@code sorted} the unique values (or slices along the axis) are put in
 * ascending (lexicographic) order, the counts follow them and the inverse indices are renumbered.
 */
final class Unique {
  private Unique() {}

  /**
   * {values, inverse indices, counts} (INT64) of {@code x}: of its elements when {@code axis} is
   * null (the inverse then has x's shape), else of its slices along {@code axis} (normalized).
   */
  static NDArray[] unique(NDArray x, Integer axis, boolean sorted) {
    try (Temporaries t = new Temporaries()) {
      NDArray source = axis == null ? t.add(x.reshape(-1)) : x;
      int a = axis == null ? 0 : axis;
      NDArray[] found = source.uniqueWithCounts(a);
      NDArray values = t.add(found[0]);
      NDArray inverse = t.add(found[1]);
      NDArray counts = t.add(found[2]);
      long k = counts.shape()[0];
      if (sorted && k > 1) {
        // order[i]: which first-occurrence entry comes i-th; position[j]: where entry j goes.
        NDArray position = t.add(source.shape().length == 1 ? rankOfValues(t, values)
            : rankOfSlices(t, values, a));
        NDArray order = t.add(position.argSort(0, false));
        values = t.add(values.gather(order, a));
        counts = t.add(counts.gather(order, 0));
        inverse = t.add(position.gather(inverse, 0));
      }
      // The results outlive the temporaries: fresh handles of the kept values.
      NDArray inverseShaped = axis == null ? inverse.reshape(x.shape()) : inverse.copy();
      return new NDArray[] {values.copy(), inverseShaped, counts.copy()};
    }
  }

  /** The ascending rank of each (distinct) value of a vector: the inverse of its argsort. */
  private static NDArray rankOfValues(Temporaries t, NDArray values) {
    NDArray order = t.add(values.argSort(0, false));
    NDArray rank = t.add(order.argSort(0, false));
    return rank.cast(DataType.INT64);
  }

  /**
   * The lexicographic rank of each (distinct) slice along {@code axis}: how many slices are
   * smaller, compared at the first element where the two differ. O(k^2 * slice size) memory.
   */
  private static NDArray rankOfSlices(Temporaries t, NDArray values, int axis) {
    int r = values.shape().length;
    int[] perm = new int[r];
    perm[0] = axis;
    for (int i = 0, j = 1; i < r; i++) {
      if (i != axis) {
        perm[j++] = i;
      }
    }
    long k = values.shape()[axis];
    NDArray front = t.add(values.transpose(perm));
    NDArray rows = t.add(front.reshape(k, -1));
    int width = Math.toIntExact(rows.shape()[1]);
    if (width == 0) {
      return values.getManager().zeros(DataType.INT64, k);
    }
    NDArray mine = t.add(rows.expandDims(1));     // [k, 1, w]: slice i
    NDArray theirs = t.add(rows.expandDims(0));   // [1, k, w]: slice j
    NDArray smaller = t.add(theirs.lt(mine));     // [k, k, w]: slice j's element below i's
    NDArray differs = t.add(theirs.neq(mine));
    NDArray differsInt = t.add(differs.cast(DataType.INT32));
    NDArray firstDifference = t.add(differsInt.argMax(2));
    NDArray atFirst = t.add(firstDifference.oneHot(width));
    NDArray smallerF = t.add(smaller.cast(DataType.FLOAT));
    NDArray decided = t.add(smallerF.mul(atFirst));
    NDArray jBelowI = t.add(decided.sum(2));
    NDArray count = t.add(jBelowI.sum(1));
    return count.cast(DataType.INT64);
  }
}
