package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.tfjni.Tensor;
import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** tfjni's types as DJL's: the ones DJL has map both ways, the others are UNKNOWN. */
class DataTypesTest extends ManagerTest {
  /** DJL's type of each TensorFlow type it has one for (DJL's DataType enum, by name). */
  private static final Map<io.tfjni.DataType, String> DJL_NAMES = Map.ofEntries(
      Map.entry(io.tfjni.DataType.FLOAT, "FLOAT32"), Map.entry(io.tfjni.DataType.DOUBLE, "FLOAT64"),
      Map.entry(io.tfjni.DataType.HALF, "FLOAT16"),
      Map.entry(io.tfjni.DataType.BFLOAT16, "BFLOAT16"),
      Map.entry(io.tfjni.DataType.UINT8, "UINT8"), Map.entry(io.tfjni.DataType.UINT16, "UINT16"),
      Map.entry(io.tfjni.DataType.UINT32, "UINT32"), Map.entry(io.tfjni.DataType.UINT64, "UINT64"),
      Map.entry(io.tfjni.DataType.INT8, "INT8"), Map.entry(io.tfjni.DataType.INT16, "INT16"),
      Map.entry(io.tfjni.DataType.INT32, "INT32"), Map.entry(io.tfjni.DataType.INT64, "INT64"),
      Map.entry(io.tfjni.DataType.BOOL, "BOOLEAN"), Map.entry(io.tfjni.DataType.STRING, "STRING"),
      Map.entry(io.tfjni.DataType.COMPLEX64, "COMPLEX64"));

  /** The float8, float4, 4-bit and 2-bit integer types: DJL 0.36 has none of them. */
  private static final io.tfjni.DataType[] NARROW_TYPES = {io.tfjni.DataType.FLOAT8_E5M2,
      io.tfjni.DataType.FLOAT8_E4M3FN, io.tfjni.DataType.FLOAT8_E4M3FNUZ,
      io.tfjni.DataType.FLOAT8_E4M3B11FNUZ, io.tfjni.DataType.FLOAT8_E5M2FNUZ,
      io.tfjni.DataType.INT4, io.tfjni.DataType.UINT4, io.tfjni.DataType.INT2,
      io.tfjni.DataType.UINT2, io.tfjni.DataType.FLOAT4_E2M1FN};

  @Test
  void typesDjlHasMapBothWaysAndTheRestAreUnknown() {
    for (io.tfjni.DataType type : io.tfjni.DataType.values()) {
      String djlName = DJL_NAMES.get(type);
      if (djlName == null) {
        assertSame(DataType.UNKNOWN, DataTypes.fromTf(type), type.name());
      } else {
        assertSame(DataType.valueOf(djlName), DataTypes.fromTf(type), type.name());
        assertSame(type, DataTypes.toTf(DataType.valueOf(djlName)), djlName);
      }
    }
    for (io.tfjni.DataType type : NARROW_TYPES) {
      assertSame(DataType.UNKNOWN, DataTypes.fromTf(type), type.name());
    }
  }

  @Test
  void anArrayOfANarrowTypeKeepsItsBytesAndIsRefusedByOperations() {
    byte[] bytes = {0x01, (byte) 0x80, 0x7f, 0x00};
    for (io.tfjni.DataType type : NARROW_TYPES) {
      NDArray array = ((TfjniNDManager) manager).wrap(Tensor.of(type, bytes, 2, 2));
      assertSame(DataType.UNKNOWN, array.getDataType(), type.name());
      assertEquals(new Shape(2, 2), array.getShape(), type.name());
      ByteBuffer buffer = array.toByteBuffer();
      byte[] read = new byte[buffer.remaining()];
      buffer.get(read);
      assertArrayEquals(bytes, read, type.name());
      UnsupportedOperationException e =
          assertThrows(UnsupportedOperationException.class, () -> array.add(1), type.name());
      assertTrue(e.getMessage().contains("no DJL counterpart"), e.getMessage());
    }
  }
}
