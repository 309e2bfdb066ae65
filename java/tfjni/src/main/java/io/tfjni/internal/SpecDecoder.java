package io.tfjni.internal;

import io.tfjni.DataType;
import io.tfjni.TensorSpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the little-endian encoding native code uses to return specs in one crossing. Not API:
 * the package is not exported.
 */
public final class SpecDecoder {
  private final ByteBuffer in;

  public SpecDecoder(byte[] bytes) {
    in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  public int readInt() {
    return in.getInt();
  }

  public long readLong() {
    return in.getLong();
  }

  /** A length-prefixed byte string. */
  public byte[] readBytes() {
    byte[] bytes = new byte[in.getInt()];
    in.get(bytes);
    return bytes;
  }

  public String readString() {
    byte[] bytes = new byte[in.getInt()];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  public List<TensorSpec> readSpecs() {
    int count = in.getInt();
    List<TensorSpec> specs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String key = readString();
      String tensorName = readString();
      DataType dataType = DataType.fromCode(in.getInt());
      int rank = in.getInt();
      long[] shape = null;
      if (rank >= 0) {
        shape = new long[rank];
        for (int d = 0; d < rank; d++) {
          shape[d] = in.getLong();
        }
      }
      specs.add(new TensorSpec(key, tensorName, dataType, shape));
    }
    return specs;
  }
}
