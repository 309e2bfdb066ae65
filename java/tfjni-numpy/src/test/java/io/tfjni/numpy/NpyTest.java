package io.tfjni.numpy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import io.tfjni.TestProcesses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading files NumPy wrote ({@link Npy}, {@link Npz}) and writing what NumPy writes
 * ({@link NpyWriter}). NumPy (the venv's) writes the fixtures; the expected values are
 * arithmetic: element i of every numeric fixture is i.
 */
@ExtendWith(TestModels.NoLeaks.class)
class NpyTest {
  @TempDir
  static Path dir;

  private static final Map<String, DataType> NUMERIC = Map.ofEntries(
      Map.entry("float16", DataType.HALF), Map.entry("float32", DataType.FLOAT),
      Map.entry("float64", DataType.DOUBLE), Map.entry("int8", DataType.INT8),
      Map.entry("int16", DataType.INT16), Map.entry("int32", DataType.INT32),
      Map.entry("int64", DataType.INT64), Map.entry("uint8", DataType.UINT8),
      Map.entry("uint16", DataType.UINT16), Map.entry("uint32", DataType.UINT32),
      Map.entry("uint64", DataType.UINT64), Map.entry("complex64", DataType.COMPLEX64),
      Map.entry("complex128", DataType.COMPLEX128));

  @BeforeAll
  static void numpyWritesFixtures() {
    String script = String.join("\n",
        "import numpy as np, sys, ml_dtypes",
        "d = sys.argv[1]",
        "names = " + pythonList(NUMERIC.keySet()),
        "for n in names:",
        "    a = np.arange(24).reshape(2, 3, 4).astype(n)",
        "    np.save(f'{d}/{n}.npy', a)",
        "    np.save(f'{d}/{n}_big.npy', a.astype(a.dtype.newbyteorder('>')))",
        "    np.save(f'{d}/{n}_fortran.npy', np.asfortranarray(a))",
        "np.save(f'{d}/bool.npy', np.arange(24).reshape(2, 3, 4) % 3 == 1)",
        "np.save(f'{d}/bfloat16.npy', np.arange(24).astype(ml_dtypes.bfloat16))",
        "np.save(f'{d}/scalar.npy', np.float64(2.5))",
        "np.save(f'{d}/empty.npy', np.zeros((0, 3), dtype=np.int32))",
        "np.save(f'{d}/bytes.npy', np.array([[b'ab', b''], [b'a\\x00b', b'xyz']]))",
        "np.save(f'{d}/bytes_fortran.npy', np.asfortranarray(np.array([[b'a', b'bb', b'c'],"
            + " [b'dd', b'e', b'ff']])))",
        "np.save(f'{d}/unicode.npy', np.array(['caf\\u00e9', '', '\\U0001F600x']))",
        "np.save(f'{d}/unicode_big.npy', np.array(['ab', 'c']).astype('>U2'))",
        "np.savez(f'{d}/arrays.npz', x=np.arange(3, dtype=np.int64), y=np.ones(2))",
        "np.savez_compressed(f'{d}/one.npz', only=np.arange(5, dtype=np.float32))",
        // What np.save writes for what TensorFlow Python returns: bytes for a string scalar,
        // object arrays of (distinct) bytes objects otherwise.
        "np.save(f'{d}/w_scalar_bytes.npy', b'abc')",
        "np.save(f'{d}/w_scalar_empty.npy', b'')",
        "def objects(values, shape):",
        "    a = np.empty(len(values), dtype=object)",
        "    for i, v in enumerate(values): a[i] = bytes(bytearray(v))",
        "    return a.reshape(shape)",
        "np.save(f'{d}/w_single.npy', objects([b'only'], (1,)))",
        "np.save(f'{d}/w_empty.npy', objects([], (0, 2)))",
        "np.save(f'{d}/w_rank4.npy', objects([b'x' * i for i in range(16)], (2, 2, 2, 2)))",
        // A pickle frame reaching 64 KiB with the 1000th element, the end of an APPENDS batch:
        // CPython checks at the start of each save, so APPENDS and MARK stay in that frame.
        "np.save(f'{d}/w_frame_at_batch_end.npy', objects([b'y' * 62] * 999 + [b'z' * 500]"
            + " + [b'w' * 10] * 5, (1005,)))",
        "np.save(f'{d}/w_float32_0d.npy', np.float32(-1.25))",
        "np.save(f'{d}/w_uint16.npy', np.arange(7, dtype=np.uint16))");
    Outcome outcome = TestProcesses.runPython(script, dir, 120);
    assertEquals(0, outcome.exitCode(), outcome.toString());
  }

  private static String pythonList(java.util.Collection<String> names) {
    StringBuilder sb = new StringBuilder("[");
    for (String name : names) {
      sb.append('\'').append(name).append("', ");
    }
    return sb.append(']').toString();
  }

  @Test
  void numericDtypesInEveryByteOrderAndLayout() throws IOException {
    for (Map.Entry<String, DataType> entry : NUMERIC.entrySet()) {
      for (String variant : List.of("", "_big", "_fortran")) {
        String name = entry.getKey() + variant + ".npy";
        NpyArray array = Npy.readArray(dir.resolve(name));
        assertEquals(entry.getValue(), array.dataType(), name);
        assertArrayEquals(new long[] {2, 3, 4}, array.shape(), name);
        double[] values = values(entry.getValue(), array.data());
        for (int i = 0; i < 24; i++) {
          assertEquals(i, values[i], name + " element " + i);
        }
        try (Tensor tensor = array.toTensor()) {
          assertEquals(entry.getValue(), tensor.dataType());
          assertArrayEquals(new long[] {2, 3, 4}, tensor.shape());
        }
      }
    }
  }

  /** Element values (real parts for complex) from little-endian bytes. */
  private static double[] values(DataType type, byte[] data) {
    ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    int n = data.length / type.byteSize();
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      int at = i * type.byteSize();
      values[i] = switch (type) {
        case HALF -> Half.toDouble(in.getShort(at));
        case FLOAT, COMPLEX64 -> in.getFloat(at);
        case DOUBLE, COMPLEX128 -> in.getDouble(at);
        case INT8, UINT8 -> in.get(at);
        case INT16, UINT16 -> in.getShort(at);
        case INT32, UINT32 -> in.getInt(at);
        default -> in.getLong(at);
      };
      if (type == DataType.COMPLEX64) {
        assertEquals(0f, in.getFloat(at + 4), "imaginary part");
      } else if (type == DataType.COMPLEX128) {
        assertEquals(0.0, in.getDouble(at + 8), "imaginary part");
      }
    }
    return values;
  }

  @Test
  void boolScalarEmptyAndBfloat16() throws IOException {
    NpyArray bool = Npy.readArray(dir.resolve("bool.npy"));
    assertEquals(DataType.BOOL, bool.dataType());
    byte[] flags = bool.data();
    for (int i = 0; i < 24; i++) {
      assertEquals(i % 3 == 1 ? 1 : 0, flags[i], "element " + i);
    }
    try (Tensor scalar = Npy.read(dir.resolve("scalar.npy"))) {
      assertEquals(0, scalar.rank());
      assertArrayEquals(new double[] {2.5}, scalar.toDoubleArray());
    }
    try (Tensor empty = Npy.read(dir.resolve("empty.npy"))) {
      assertArrayEquals(new long[] {0, 3}, empty.shape());
      assertEquals(DataType.INT32, empty.dataType());
    }
    NpyArray bfloat16 = Npy.readArray(dir.resolve("bfloat16.npy"));
    assertTrue(bfloat16.isRaw(), bfloat16.describe());
    assertTrue(bfloat16.convertsTo(DataType.BFLOAT16));
    assertFalse(bfloat16.convertsTo(DataType.HALF), "a raw V2 is not float16");
    ByteBuffer bits = ByteBuffer.wrap(bfloat16.data()).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 24; i++) {
      assertEquals(i, Half.bfloat16ToDouble(bits.getShort(i * 2)), "element " + i);
    }
    try (Tensor tensor = bfloat16.toTensor(DataType.BFLOAT16)) {
      assertEquals(DataType.BFLOAT16, tensor.dataType());
    }
  }

  @Test
  void byteAndUnicodeStrings() throws IOException {
    try (Tensor bytes = Npy.read(dir.resolve("bytes.npy"))) {
      assertEquals(DataType.STRING, bytes.dataType());
      assertArrayEquals(new long[] {2, 2}, bytes.shape());
      // NumPy drops trailing NULs of fixed-width bytes, not inner ones.
      byte[][] values = bytes.toBytesArray();
      assertArrayEquals("ab".getBytes(StandardCharsets.UTF_8), values[0]);
      assertArrayEquals(new byte[0], values[1]);
      assertArrayEquals(new byte[] {'a', 0, 'b'}, values[2]);
      assertArrayEquals("xyz".getBytes(StandardCharsets.UTF_8), values[3]);
    }
    try (Tensor fortran = Npy.read(dir.resolve("bytes_fortran.npy"))) {
      assertArrayEquals(new String[] {"a", "bb", "c", "dd", "e", "ff"}, fortran.toStringArray());
    }
    try (Tensor unicode = Npy.read(dir.resolve("unicode.npy"))) {
      assertArrayEquals(new String[] {"caf\u00e9", "", "\uD83D\uDE00x"}, unicode.toStringArray());
    }
    try (Tensor unicode = Npy.read(dir.resolve("unicode_big.npy"))) {
      assertArrayEquals(new String[] {"ab", "c"}, unicode.toStringArray());
    }
  }

  @Test
  void npzArchives() throws IOException {
    assertEquals(List.of("x", "y"), Npz.names(dir.resolve("arrays.npz")));
    assertTrue(Npz.isNpz(dir.resolve("arrays.npz")));
    assertFalse(Npz.isNpz(dir.resolve("scalar.npy")));
    try (Tensor x = Npz.read(dir.resolve("arrays.npz"), "x").toTensor()) {
      assertArrayEquals(new long[] {0, 1, 2}, x.toLongArray());
    }
    try (Tensor only = Npz.read(dir.resolve("one.npz"), "only").toTensor()) {
      assertArrayEquals(new float[] {0, 1, 2, 3, 4}, only.toFloatArray());
    }
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> Npz.read(dir.resolve("arrays.npz"), "z"));
    assertTrue(unknown.getMessage().contains("has no array 'z'; its arrays are [x, y]"),
        unknown.getMessage());
  }

  @Test
  void malformedFilesAreRejectedClearly() {
    byte[] good = NpyFiles.npy("<f4", "(2,)", new byte[8]);
    assertEquals(2, Npy.parse(good, "good").elementCount());
    String[][] cases = {
        {"<f4", "(2,)", "7", "expected 8 data bytes after the header, found 7"},
        {"<f4", "(2,)", "9", "expected 8 data bytes after the header, found 9"},
        {"<f4", "(-1,)", "0", "bad shape"},
        {"<f4", "(2, 'a')", "8", "bad shape"},
        {"<q9", "(2,)", "8", "has no TensorFlow equivalent"},
        {"|O", "(2,)", "8", "pickle"},
        {"<f4", "(99999999999, 99999999999)", "0", "too many elements"},
    };
    for (String[] c : cases) {
      byte[] file = NpyFiles.npy(c[0], c[1], new byte[Integer.parseInt(c[2])]);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Npy.parse(file, "f.npy"), String.join(" ", c));
      assertTrue(e.getMessage().startsWith("malformed .npy file f.npy: ")
          || e.getMessage().startsWith("unsupported .npy file f.npy: "), e.getMessage());
      assertTrue(e.getMessage().contains(c[3]), c[3] + " in " + e.getMessage());
    }
    byte[] badVersion = good.clone();
    badVersion[6] = 9;
    assertThrows(IllegalArgumentException.class, () -> Npy.parse(badVersion, "v"));
    assertThrows(IllegalArgumentException.class,
        () -> Npy.parse(java.util.Arrays.copyOf(good, 20), "short"));
  }

  @Test
  void writesWhatNumpyWritesForTensorFlowOutputs() throws IOException {
    try (Tensor scalar = Tensor.ofStrings(new String[] {"abc"})) {
      assertWrites("w_scalar_bytes.npy", scalar);
    }
    try (Tensor empty = Tensor.ofBytes(new byte[][] {new byte[0]})) {
      assertWrites("w_scalar_empty.npy", empty);
    }
    try (Tensor single = Tensor.ofStrings(new String[] {"only"}, 1)) {
      assertWrites("w_single.npy", single);
    }
    try (Tensor none = Tensor.ofBytes(new byte[0][], 0, 2)) {
      assertWrites("w_empty.npy", none);
    }
    byte[][] xs = new byte[16][];
    for (int i = 0; i < 16; i++) {
      xs[i] = "x".repeat(i).getBytes(StandardCharsets.UTF_8);
    }
    try (Tensor rank4 = Tensor.ofBytes(xs, 2, 2, 2, 2)) {
      assertWrites("w_rank4.npy", rank4);
    }
    byte[][] batch = new byte[1005][];
    for (int i = 0; i < batch.length; i++) {
      batch[i] = (i < 999 ? "y".repeat(62) : i == 999 ? "z".repeat(500) : "w".repeat(10))
          .getBytes(StandardCharsets.UTF_8);
    }
    try (Tensor t = Tensor.ofBytes(batch, 1005)) {
      assertWrites("w_frame_at_batch_end.npy", t);
    }
    try (Tensor f = Tensor.scalar(-1.25f)) {
      assertWrites("w_float32_0d.npy", f);
    }
    try (Tensor u = Tensor.of(DataType.UINT16, new short[] {0, 1, 2, 3, 4, 5, 6}, 7)) {
      assertWrites("w_uint16.npy", u);
    }
  }

  private static void assertWrites(String numpyFile, Tensor tensor) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    NpyWriter.write(tensor, out);
    assertArrayEquals(Files.readAllBytes(dir.resolve(numpyFile)), out.toByteArray(),
        numpyFile);
  }
}
