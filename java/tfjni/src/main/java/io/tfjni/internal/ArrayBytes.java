package io.tfjni.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A primitive Java array's elements as the bytes a tensor of its type holds (native byte order,
 * booleans one byte each), in one copy and without a native call.
 */
public final class ArrayBytes {
  private ArrayBytes() {}

  /**
   * The array's elements in native byte order.
   *
   * @param array a float[], double[], int[], long[], short[], byte[] or boolean[]
   * @throws IllegalArgumentException for any other type
   */
  public static byte[] of(Object array) {
    if (array instanceof byte[] bytes) {
      return bytes.clone();
    }
    if (array instanceof boolean[] booleans) {
      byte[] bytes = new byte[booleans.length];
      for (int i = 0; i < booleans.length; i++) {
        bytes[i] = (byte) (booleans[i] ? 1 : 0);
      }
      return bytes;
    }
    if (array instanceof float[] floats) {
      byte[] bytes = new byte[floats.length * Float.BYTES];
      wrap(bytes).asFloatBuffer().put(floats);
      return bytes;
    }
    if (array instanceof double[] doubles) {
      byte[] bytes = new byte[doubles.length * Double.BYTES];
      wrap(bytes).asDoubleBuffer().put(doubles);
      return bytes;
    }
    if (array instanceof int[] ints) {
      byte[] bytes = new byte[ints.length * Integer.BYTES];
      wrap(bytes).asIntBuffer().put(ints);
      return bytes;
    }
    if (array instanceof long[] longs) {
      byte[] bytes = new byte[longs.length * Long.BYTES];
      wrap(bytes).asLongBuffer().put(longs);
      return bytes;
    }
    if (array instanceof short[] shorts) {
      byte[] bytes = new byte[shorts.length * Short.BYTES];
      wrap(bytes).asShortBuffer().put(shorts);
      return bytes;
    }
    throw new IllegalArgumentException("not a primitive array of a tensor type: "
        + array.getClass().getSimpleName());
  }

  private static ByteBuffer wrap(byte[] bytes) {
    return ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
  }
}
