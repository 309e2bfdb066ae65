package io.tfjni.djl;

/**
 * Axis arithmetic the engine's operations share, and the move of an axis to the end and back for
 * TensorFlow ops that work on the innermost axis only.
 */
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
   * The permutation that swaps {@code axis} with the last axis, for TensorFlow ops that work on
   * the innermost axis only; it is its own inverse, so it also swaps the result back.
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

  /** {@code x} with {@code axis} swapped to the end; {@code x} itself if it is there. */
  static io.tfjni.eager.NDArray toEnd(io.tfjni.eager.NDArray x, int axis) {
    int r = x.shape().length;
    if (axis == r - 1) {
      return x;
    }
    return x.transpose(swapWithLast(r, axis));
  }

  /**
   * {@code done}'s last axis swapped back to {@code axis} (undoing {@link #toEnd}); when that
   * moves it, {@code done} is registered with {@code t} to be freed.
   */
  static io.tfjni.eager.NDArray backFromEnd(Temporaries t, io.tfjni.eager.NDArray done, int axis) {
    int r = done.shape().length;
    if (axis == r - 1) {
      return done;
    }
    t.add(done);
    return done.transpose(swapWithLast(r, axis));
  }
}
