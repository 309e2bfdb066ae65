package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** --input_exprs literals converted to the signature's dtype. */
@ExtendWith(TestModels.NoLeaks.class)
class InputLoaderTest {
  private static InputLoader.Spec spec(DataType type, long... shape) {
    return new InputLoader.Spec(type, shape);
  }

  @Test
  void convertsToTheSignaturesDtype() {
    try (Tensor t = InputLoader.fromExpression("x", "[[1, 2.5], [True, -4]]",
        spec(DataType.DOUBLE, -1, 2))) {
      assertArrayEquals(new long[] {2, 2}, t.shape());
      assertArrayEquals(new double[] {1, 2.5, 1, -4}, t.toDoubleArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "[18446744073709551615, 0]",
        spec(DataType.UINT64, -1))) {
      assertArrayEquals(new long[] {-1, 0}, t.toLongArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "[-128, 127, 2.0]", spec(DataType.INT8, 3))) {
      assertArrayEquals(new byte[] {-128, 127, 2}, t.toByteArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "[0, 2, False]", spec(DataType.BOOL, 3))) {
      assertArrayEquals(new boolean[] {false, true, false}, t.toBooleanArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "[1+2j, 3]",
        spec(DataType.COMPLEX64, 2))) {
      assertArrayEquals(new float[] {1, 2, 3, 0}, t.toFloatArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "['caf\u00e9', b'\\xff']",
        spec(DataType.STRING, 2))) {
      assertArrayEquals(new byte[][] {"caf\u00e9".getBytes(StandardCharsets.UTF_8),
          {(byte) 0xff}}, t.toBytesArray());
    }
    try (Tensor t = InputLoader.fromExpression("x", "7", new InputLoader.Spec(DataType.INT32,
        null))) {
      assertEquals(0, t.rank());
      assertArrayEquals(new int[] {7}, t.toIntArray());
    }
    // float16, rounded to nearest even from the double as NumPy does: 0.1 -> 0x2E66,
    // 65504 (the largest) -> 0x7BFF, 65520 (halfway to 65536) -> inf, 2049 -> 2048 (tie, even),
    // 2^-25 (halfway to the smallest subnormal) -> 0, 3 * 2^-25 -> 2 * 2^-24.
    try (Tensor t = InputLoader.fromExpression("x", "[0.1, 65504, 65520, 2049, "
        + "2.98023223876953125e-08, 8.94069671630859375e-08, -0.0]", spec(DataType.HALF, 7))) {
      assertArrayEquals(new short[] {0x2E66, 0x7BFF, 0x7C00, 0x6800, 0, 2, (short) 0x8000},
          t.toShortArray());
    }
  }

  @Test
  void refusesLossyOrWrongConversions() {
    String[][] cases = {
        {"[1.5]", "INT32", "1.5 is not a whole number"},
        {"[128]", "INT8", "128 is out of range for int8"},
        {"[-1]", "UINT64", "-1 is out of range for uint64"},
        {"[18446744073709551616]", "UINT64", "out of range for uint64"},
        {"['a']", "FLOAT", "'a' is not a number"},
        {"[1]", "STRING", "1 is not a string"},
        {"[1j]", "FLOAT", "is not a number"},
        {"['a']", "BOOL", "is not a bool"},
        {"{1: 2}", "INT32", "a dict has no tensor value"},
    };
    for (String[] c : cases) {
      CliException e = assertThrows(CliException.class, () -> InputLoader.fromExpression("x",
          c[0], spec(DataType.valueOf(c[1]), -1)), c[0]);
      assertTrue(e.getMessage().contains(c[2]), c[2] + " in " + e.getMessage());
    }
  }
}
