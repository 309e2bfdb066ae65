package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Inputs reused across runs: refilling an input in place never changes a result the caller still
 * holds, even when the output is an Identity of that input. Expected values are arithmetic.
 */
@ExtendWith(TestModels.NoLeaks.class)
class AliasingTest {
  private static SavedModel model;
  private static Predictor identity;

  @BeforeAll
  static void load() {
    model = SavedModel.load(TestModels.dir().resolve("dtypes"));
    identity = model.predictor("float32", java.util.List.of("x"), java.util.List.of("same"));
  }

  @AfterAll
  static void close() {
    model.close();
  }

  private static float[] values(float start) {
    float[] v = new float[6];
    for (int i = 0; i < v.length; i++) {
      v[i] = start + i;
    }
    return v;
  }

  @Test
  void refillingAnAllocatedInputLeavesTheIdentityOutputUnchanged() {
    try (Tensor x = Tensor.allocate(DataType.FLOAT, 2, 3);
        RunResult result = identity.newResult()) {
      FloatBuffer in = x.buffer().asFloatBuffer();
      in.put(values(1));
      identity.run(x, result);
      Tensor same = result.get("same");
      in.clear();
      in.put(values(100));
      assertArrayEquals(values(1), same.toFloatArray());
      identity.run(x, result);
      assertSame(same, result.get("same"), "the result holder reuses its tensors");
      assertArrayEquals(values(100), same.toFloatArray());
    }
  }

  @Test
  void refillingAZeroCopyInputLeavesTheIdentityOutputUnchanged() {
    ByteBuffer memory = Tensor.allocateAlignedBuffer(6 * Float.BYTES);
    assertTrue(Tensor.isZeroCopyCandidate(memory));
    memory.asFloatBuffer().put(values(1));
    try (Tensor x = Tensor.of(DataType.FLOAT, memory, 2, 3);
        RunResult result = identity.run(x)) {
      memory.asFloatBuffer().put(values(-50));
      assertArrayEquals(values(1), result.get(0).toFloatArray());
      try (RunResult second = identity.run(x)) {
        assertArrayEquals(values(-50), second.get(0).toFloatArray(),
            "zero-copy: the run sees the buffer as it is now");
      }
    }
  }

  @Test
  void outputsAreReadOnly() {
    try (Tensor x = Tensor.of(values(0), 2, 3); RunResult result = identity.run(x)) {
      ByteBuffer out = result.get(0).buffer();
      assertTrue(out.isReadOnly());
      assertThrows(java.nio.ReadOnlyBufferException.class, () -> out.putFloat(0, 1f));
    }
  }

  @Test
  void aFailedRunLeavesTheResultEmptyAndReusable() {
    try (Tensor good = Tensor.of(values(0), 2, 3);
        Tensor wrongShape = Tensor.of(values(0), 3, 2, 1);
        RunResult result = identity.newResult()) {
      identity.run(good, result);
      assertThrows(TensorFlowException.class, () -> identity.run(wrongShape, result));
      assertThrows(IllegalStateException.class, () -> result.get(0));
      identity.run(good, result);
      assertArrayEquals(values(0), result.get(0).toFloatArray());
    }
  }
}
