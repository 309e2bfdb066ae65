package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * {@code NDManager.create(ByteBuffer, ...)} copies the buffer's next elements, from its position,
 * once: heap or direct, later writes to the buffer do not reach the array.
 */
class CreateFromBytesTest {

  private static ByteBuffer floats(boolean direct, float... values) {
    int bytes = 4 * (values.length + 1);
    ByteBuffer buffer = (direct ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes))
        .order(ByteOrder.nativeOrder());
    buffer.putFloat(-1);  // skipped: the array starts at the position
    for (float value : values) {
      buffer.putFloat(value);
    }
    buffer.position(4);
    return buffer;
  }

  @Test
  void theBuffersElementsFromItsPositionAreCopied() {
    LiveObjects before = TensorFlow.liveObjects();
    try (NDManager manager = NDManager.newBaseManager()) {
      for (boolean direct : new boolean[] {false, true}) {
        ByteBuffer buffer = floats(direct, 1.5f, 2.5f, -3f, 4f, 99f);
        NDArray array = manager.create(buffer, new Shape(2, 2), DataType.FLOAT32);
        buffer.putFloat(4, 100f);
        assertArrayEquals(new float[] {1.5f, 2.5f, -3f, 4f}, array.toFloatArray(),
            "direct " + direct);
        assertEquals(4, buffer.position(), "the caller's position is left as it was");
        try (NDArray sum = array.sum()) {
          assertEquals(5f, sum.getFloat());
        }
      }
    }
    assertEquals(before.tensors(), TensorFlow.liveObjects().tensors());
  }

  @Test
  void anyNonZeroByteIsTrue() {
    try (NDManager manager = NDManager.newBaseManager()) {
      ByteBuffer buffer = ByteBuffer.wrap(new byte[] {0, 1, 2, (byte) 255});
      NDArray array = manager.create(buffer, new Shape(4), DataType.BOOLEAN);
      assertArrayEquals(new boolean[] {false, true, true, true}, array.toBooleanArray());
      try (NDArray count = array.toType(DataType.INT32, false).sum()) {
        assertEquals(3L, count.getLong());
      }
    }
  }
}
