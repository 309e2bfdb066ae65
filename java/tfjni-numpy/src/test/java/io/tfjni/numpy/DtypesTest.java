package io.tfjni.numpy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses;
import io.tfjni.TestProcesses.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The dtype names and .npy descrs of the float8, float4 and sub-byte integer types. */
@ExtendWith(TestModels.NoLeaks.class)
class DtypesTest {
  @TempDir
  static Path dir;

  /**
   * TensorFlow 2.21 Python: {@code tf.dtypes.as_dtype(code).name}, and the descr np.save writes
   * for an array of its {@code as_numpy_dtype} (ml_dtypes 0.7.0).
   */
  private static final Map<DataType, List<String>> TENSORFLOW_2_21 = Map.of(
      DataType.FLOAT8_E5M2, List.of("float8_e5m2", "<f1"),
      DataType.FLOAT8_E4M3FN, List.of("float8_e4m3fn", "<V1"),
      DataType.FLOAT8_E4M3FNUZ, List.of("float8_e4m3fnuz", "<V1"),
      DataType.FLOAT8_E4M3B11FNUZ, List.of("float8_e4m3b11fnuz", "<V1"),
      DataType.FLOAT8_E5M2FNUZ, List.of("float8_e5m2fnuz", "<V1"),
      DataType.INT4, List.of("int4", "<V1"),
      DataType.UINT4, List.of("uint4", "<V1"),
      DataType.INT2, List.of("int2", "<V1"),
      DataType.UINT2, List.of("uint2", "<V1"),
      DataType.FLOAT4_E2M1FN, List.of("float4_e2m1fn", "<V1"));

  /** NumPy with the venv's ml_dtypes, which has the three FNUZ float8 types. */
  @BeforeAll
  static void numpyWritesFixtures() {
    String script = String.join("\n",
        "import numpy as np, sys, ml_dtypes",
        "d = sys.argv[1]",
        "for n in ['float8_e4m3fnuz', 'float8_e4m3b11fnuz', 'float8_e5m2fnuz']:",
        "    a = np.array([[1, -2, 0.5], [0, 0.25, -1]], dtype=getattr(ml_dtypes, n))",
        "    np.save(f'{d}/{n}.npy', a)",
        "    np.save(f'{d}/{n}_bits.npy', a.view(np.uint8))");
    Outcome outcome = TestProcesses.runPython(script, dir, 120);
    assertEquals(0, outcome.exitCode(), outcome.toString());
  }

  @Test
  void namesAndDescrsAreTensorFlowPythons() {
    TENSORFLOW_2_21.forEach((type, expected) -> {
      assertEquals(expected.get(0), Dtypes.pythonName(type), type.name());
      assertEquals(expected.get(0), Dtypes.pythonName(type.code()), type.name());
      assertEquals("DT_" + type.name(), Dtypes.protoName(type.code()), type.name());
      assertEquals(expected.get(1), Dtypes.descr(type), type.name());
    });
  }

  @Test
  void typesWithoutAnArrayInNumpyAreRefusedByName() {
    for (DataType type : new DataType[] {DataType.RESOURCE, DataType.VARIANT}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Dtypes.descr(type));
      assertEquals("a " + type + " tensor cannot be saved as .npy", e.getMessage());
    }
  }

  /** A raw one-byte NumPy array becomes a tensor of any one-byte ml_dtypes type, bits intact. */
  @Test
  void numpysFnuzFloat8ArraysReadAsTheirTensorFlowTypes() throws IOException {
    for (DataType type : new DataType[] {DataType.FLOAT8_E4M3FNUZ, DataType.FLOAT8_E4M3B11FNUZ,
        DataType.FLOAT8_E5M2FNUZ}) {
      String name = Dtypes.pythonName(type);
      NpyArray array = Npy.readArray(dir.resolve(name + ".npy"));
      assertTrue(array.isRaw(), array.describe());
      assertTrue(array.convertsTo(type), name);
      assertFalse(array.convertsTo(DataType.BFLOAT16), "two bytes wide");
      byte[] bits;
      try (Tensor numpyBits = Npy.read(dir.resolve(name + "_bits.npy"))) {
        bits = new byte[(int) numpyBits.byteSize()];
        numpyBits.buffer().get(bits);
      }
      try (Tensor tensor = array.toTensor(type)) {
        assertEquals(type, tensor.dataType());
        assertArrayEquals(new long[] {2, 3}, tensor.shape());
        byte[] read = new byte[6];
        tensor.buffer().get(read);
        assertArrayEquals(bits, read, name);
        assertWritesWhatNumpyWrote(name + ".npy", tensor);
      }
    }
  }

  /**
   * int2, uint2 and float4_e2m1fn are newer than the venv's ml_dtypes, but their descr is
   * float8_e4m3fnuz's ("<V1", above): the same bits and shape make the same file.
   */
  @Test
  void theNewestTypesWriteWhatNumpyWritesForOneByteMlDtypes() throws IOException {
    byte[] bits;
    try (Tensor numpyBits = Npy.read(dir.resolve("float8_e4m3fnuz_bits.npy"))) {
      bits = new byte[(int) numpyBits.byteSize()];
      numpyBits.buffer().get(bits);
    }
    for (DataType type : new DataType[] {DataType.INT2, DataType.UINT2, DataType.FLOAT4_E2M1FN}) {
      try (Tensor tensor = Tensor.of(type, bits, 2, 3)) {
        assertWritesWhatNumpyWrote("float8_e4m3fnuz.npy", tensor);
      }
      try (Tensor back = Npy.readArray(dir.resolve("float8_e4m3fnuz.npy")).toTensor(type)) {
        assertEquals(type, back.dataType());
      }
    }
  }

  private static void assertWritesWhatNumpyWrote(String numpyFile, Tensor tensor)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    NpyWriter.write(tensor, out);
    assertArrayEquals(Files.readAllBytes(dir.resolve(numpyFile)), out.toByteArray(),
        numpyFile + " as " + tensor.dataType());
  }
}
