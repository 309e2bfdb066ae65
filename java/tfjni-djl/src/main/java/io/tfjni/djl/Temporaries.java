package io.tfjni.djl;

import java.util.ArrayList;
import java.util.List;

/**
 * The intermediate tfjni arrays of a composite operation, closed together when it returns, so
 * a chain of ops frees every step but the result whatever path it takes (including exceptions).
 */
final class Temporaries implements AutoCloseable {
  private final List<io.tfjni.eager.NDArray> arrays = new ArrayList<>();

  /** Registers {@code a} to be closed; returns it. */
  io.tfjni.eager.NDArray add(io.tfjni.eager.NDArray a) {
    arrays.add(a);
    return a;
  }

  /** Registers {@code a} unless it is {@code kept} (an input that must outlive this scope). */
  io.tfjni.eager.NDArray addUnless(io.tfjni.eager.NDArray a, io.tfjni.eager.NDArray kept) {
    return a == kept ? a : add(a);
  }

  /** One step of a {@link #chain}: the next array from {@code x} at step {@code i}. */
  interface Step {
    io.tfjni.eager.NDArray apply(io.tfjni.eager.NDArray x, int i);
  }

  /**
   * {@code steps} steps applied in turn from {@code start}, each intermediate freed when the next
   * is made (and on failure); {@code start} itself, not a copy, when there are no steps.
   */
  static io.tfjni.eager.NDArray chain(io.tfjni.eager.NDArray start, int steps, Step step) {
    io.tfjni.eager.NDArray current = start;
    try (Temporaries t = new Temporaries()) {
      for (int i = 0; i < steps; i++) {
        current = step.apply(t.addUnless(current, start), i);
      }
    }
    return current;
  }

  @Override
  public void close() {
    for (int i = arrays.size() - 1; i >= 0; i--) {
      arrays.get(i).close();
    }
    arrays.clear();
  }
}
