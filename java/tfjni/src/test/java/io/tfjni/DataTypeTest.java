package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The dtype table against TensorFlow's own, and the newest types through the native library. */
@ExtendWith(TestModels.NoLeaks.class)
class DataTypeTest {
  /**
   * TensorFlow 2.21's DataType enum, value to name without "DT_" (types.pb.h of the
   * tensorflow-cpu 2.21.0 wheel; tf_datatype.h has the same codes).
   */
  private static final Map<Integer, String> TENSORFLOW_2_21_NAMES = new TreeMap<>(Map.ofEntries(
      Map.entry(0, "INVALID"), Map.entry(1, "FLOAT"), Map.entry(2, "DOUBLE"),
      Map.entry(3, "INT32"), Map.entry(4, "UINT8"), Map.entry(5, "INT16"), Map.entry(6, "INT8"),
      Map.entry(7, "STRING"), Map.entry(8, "COMPLEX64"), Map.entry(9, "INT64"),
      Map.entry(10, "BOOL"), Map.entry(11, "QINT8"), Map.entry(12, "QUINT8"),
      Map.entry(13, "QINT32"), Map.entry(14, "BFLOAT16"), Map.entry(15, "QINT16"),
      Map.entry(16, "QUINT16"), Map.entry(17, "UINT16"), Map.entry(18, "COMPLEX128"),
      Map.entry(19, "HALF"), Map.entry(20, "RESOURCE"), Map.entry(21, "VARIANT"),
      Map.entry(22, "UINT32"), Map.entry(23, "UINT64"), Map.entry(24, "FLOAT8_E5M2"),
      Map.entry(25, "FLOAT8_E4M3FN"), Map.entry(26, "FLOAT8_E4M3FNUZ"),
      Map.entry(27, "FLOAT8_E4M3B11FNUZ"), Map.entry(28, "FLOAT8_E5M2FNUZ"),
      Map.entry(29, "INT4"), Map.entry(30, "UINT4"), Map.entry(31, "INT2"),
      Map.entry(32, "UINT2"), Map.entry(33, "FLOAT4_E2M1FN")));

  /**
   * Bytes per element of the types newer than 2.18's half-precision ones: TF_DataTypeSize of the
   * 2.21 library and tf.dtypes.&lt;name&gt;.size in its Python are 1 for each (no packing).
   */
  private static final int NEWEST_TYPES_SIZE = 1;

  @Test
  void everyTensorFlowTypeByItsCodeAndName() {
    assertEquals(TENSORFLOW_2_21_NAMES.size(), DataType.values().length);
    TENSORFLOW_2_21_NAMES.forEach((code, name) -> {
      DataType type = DataType.valueOf(name);
      assertEquals(code, type.code(), name);
      assertSame(type, DataType.fromCode(code), name);
    });
  }

  @Test
  void theNewestTypesAreOneByteElementsOfJavaBytes() {
    for (int code = 24; code <= 33; code++) {
      DataType type = DataType.fromCode(code);
      assertEquals(NEWEST_TYPES_SIZE, type.byteSize(), type.name());
      assertTrue(type.isFixedSize(), type.name());
      assertEquals(byte.class, type.javaComponent(), type.name());
      assertEquals(1, type.componentsPerElement(), type.name());
      assertFalse(type.isFloatingPoint() || type.isInteger(), type.name());
    }
  }

  @Test
  void codesNoTensorFlowDefinesAreRefused() {
    for (int code : new int[] {34, 101, -1}) {  // 101: DT_FLOAT_REF, no tensor's type
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> DataType.fromCode(code));
      assertEquals("unknown TensorFlow dtype code " + code, e.getMessage());
    }
  }

  /**
   * A tensor of each newest type crosses JNI both ways: the native library accepts the code and
   * reads it back from TensorFlow's tensor. TensorFlow 2.18 holds tensors of types it predates.
   */
  @Test
  void tensorsOfTheNewestTypesKeepTheirTypeAndBytes() {
    byte[] bytes = {0x01, (byte) 0x80, 0x7f};
    for (String name : new String[] {"FLOAT8_E4M3FNUZ", "FLOAT8_E4M3B11FNUZ", "FLOAT8_E5M2FNUZ",
        "INT2", "UINT2", "FLOAT4_E2M1FN"}) {
      DataType type = DataType.valueOf(name);
      try (Tensor t = Tensor.of(type, bytes, 3)) {
        assertSame(type, t.dataType(), name);
        assertEquals(3, t.byteSize(), name);
        byte[] back = new byte[3];
        t.buffer().get(back);
        assertArrayEquals(bytes, back, name);
      }
      try (Tensor t = Tensor.allocate(type, 2, 2)) {
        assertSame(type, t.dataType(), name);
        assertEquals(4, t.byteSize(), name);
      }
    }
  }
}
