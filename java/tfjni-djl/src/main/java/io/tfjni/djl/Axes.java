package io.tfjni.djl;

/** Axis arithmetic the engine's operations share. */
final class Axes {
  private Axes() {}

  /**
   * {@code axis} counted from 0 (a negative one counts from the end); a scalar has axis 0 too.
   *
   * @throws IllegalArgumentException for an axis outside the rank
   */
  static int normalize(int axis, int rank) {
    int a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= Math.max(rank, 1)) {
      throw new IllegalArgumentException("axis " + axis + " out of range for rank " + rank);
    }
    return a;
  }

  /**
   * The permutation that swaps {@code axis} with the last axis; it is its own inverse, so it also
   * swaps the result back.
   */
  static int[] swapWithLast(int rank, int axis) {
    int[] perm = new int[rank];
    for (int i = 0; i < rank; i++) {
      perm[i] = i;
    }
    perm[axis] = rank - 1;
    perm[rank - 1] = axis;
    return perm;
  }
}
