package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(TestModels.NoLeaks.class)
class TensorTest {
  private static SavedModel multi;

  @BeforeAll
  static void loadModel() {
    multi = TestModels.loadMultiWithMapApiPrepared();
  }

  @AfterAll
  static void closeModel() {
    if (multi != null) {
      multi.close();
    }
  }

  // ------------------------------------------------------------ from Java arrays

  @Test
  void floatArray() {
    float[] values = {1.5f, -2.25f, Float.MAX_VALUE, Float.MIN_VALUE, Float.NaN, -0.0f};
    try (Tensor t = Tensor.of(values, 2, 3)) {
      assertEquals(DataType.FLOAT, t.dataType());
      assertArrayEquals(new long[] {2, 3}, t.shape());
      assertEquals(2, t.rank());
      assertEquals(6, t.numElements());
      assertEquals(24, t.byteSize());
      assertArrayEquals(values, t.toFloatArray());
      assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(t.toFloatArray()[5]));
      assertEquals(1.5f, t.buffer().getFloat(0));
      assertEquals(-2.25f, t.buffer().asFloatBuffer().get(1));
    }
  }

  @Test
  void doubleArray() {
    double[] values = {Math.PI, -Math.E, Double.MIN_VALUE, Double.NEGATIVE_INFINITY};
    try (Tensor t = Tensor.of(values, 4)) {
      assertEquals(DataType.DOUBLE, t.dataType());
      assertArrayEquals(values, t.toDoubleArray());
      assertEquals(32, t.byteSize());
    }
  }

  @Test
  void intArray() {
    int[] values = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE, 42};
    try (Tensor t = Tensor.of(values, 3, 1, 2)) {
      assertEquals(DataType.INT32, t.dataType());
      assertArrayEquals(new long[] {3, 1, 2}, t.shape());
      assertArrayEquals(values, t.toIntArray());
      assertEquals(Integer.MIN_VALUE, t.buffer().getInt(0));
    }
  }

  @Test
  void longArray() {
    long[] values = {Long.MIN_VALUE, -1, Long.MAX_VALUE};
    try (Tensor t = Tensor.of(values, 3)) {
      assertEquals(DataType.INT64, t.dataType());
      assertArrayEquals(values, t.toLongArray());
    }
  }

  @Test
  void booleanArray() {
    boolean[] values = {true, false, false, true};
    try (Tensor t = Tensor.of(values, 2, 2)) {
      assertEquals(DataType.BOOL, t.dataType());
      assertArrayEquals(values, t.toBooleanArray());
      assertEquals(4, t.byteSize());
      assertEquals(1, t.buffer().get(0));
      assertEquals(0, t.buffer().get(1));
    }
  }

  @Test
  void byteArrayForInt8AndUint8() {
    byte[] values = {-128, -1, 0, 1, 127, (byte) 200};
    for (DataType type : List.of(DataType.INT8, DataType.UINT8)) {
      try (Tensor t = Tensor.of(type, values, 6)) {
        assertEquals(type, t.dataType());
        assertArrayEquals(values, t.toByteArray());
        assertEquals(6, t.byteSize());
      }
    }
  }

  @Test
  void shortArrayForInt16Uint16HalfAndBfloat16() {
    short[] values = {Short.MIN_VALUE, -1, 0, 1, Short.MAX_VALUE, (short) 0x3c00};
    for (DataType type : List.of(DataType.INT16, DataType.UINT16, DataType.HALF,
        DataType.BFLOAT16)) {
      try (Tensor t = Tensor.of(type, values, 2, 3)) {
        assertEquals(type, t.dataType());
        assertArrayEquals(values, t.toShortArray());
        assertEquals(12, t.byteSize());
        assertEquals((short) 0x3c00, t.buffer().getShort(10));
      }
    }
  }

  @Test
  void unsignedWideTypes() {
    int[] u32 = {-1, 0, 0x80000000};
    try (Tensor t = Tensor.of(DataType.UINT32, u32, 3)) {
      assertEquals(DataType.UINT32, t.dataType());
      assertArrayEquals(u32, t.toIntArray());
      assertEquals(0xffffffffL, Integer.toUnsignedLong(t.toIntArray()[0]));
    }
    long[] u64 = {-1L, 0, Long.MIN_VALUE};
    try (Tensor t = Tensor.of(DataType.UINT64, u64, 3)) {
      assertEquals(DataType.UINT64, t.dataType());
      assertArrayEquals(u64, t.toLongArray());
    }
  }

  @Test
  void complexPairs() {
    float[] c64 = {1, 2, 3, 4, -5, -6};
    try (Tensor t = Tensor.of(DataType.COMPLEX64, c64, 3)) {
      assertEquals(DataType.COMPLEX64, t.dataType());
      assertEquals(3, t.numElements());
      assertEquals(24, t.byteSize());
      assertArrayEquals(c64, t.toFloatArray());
      assertEquals(4f, t.buffer().getFloat(12), "the imaginary part of element 1");
    }
    double[] c128 = {0.5, -0.5};
    try (Tensor t = Tensor.of(DataType.COMPLEX128, c128)) {
      assertEquals(0, t.rank());
      assertArrayEquals(c128, t.toDoubleArray());
    }
    // An element is a pair: an odd number of floats does not fit.
    assertThrows(IllegalArgumentException.class,
        () -> Tensor.of(DataType.COMPLEX64, new float[] {1, 2, 3}, 3));
  }

  @Test
  void theArrayIsCopiedOnce() {
    float[] values = {1, 2, 3};
    try (Tensor t = Tensor.of(values, 3)) {
      values[0] = 99;
      assertEquals(1f, t.toFloatArray()[0]);
      float[] read = t.toFloatArray();
      read[1] = 77;
      assertEquals(2f, t.toFloatArray()[1]);
    }
  }

  @Test
  void copyToFillsACallersArray() {
    try (Tensor t = Tensor.of(new long[] {5, 6, 7}, 3)) {
      long[] into = new long[3];
      t.copyTo(into);
      assertArrayEquals(new long[] {5, 6, 7}, into);
      assertThrows(IllegalArgumentException.class, () -> t.copyTo(new long[4]));
      assertThrows(IllegalArgumentException.class, () -> t.copyTo(new long[2]));
      assertThrows(IllegalArgumentException.class, () -> t.copyTo(new int[6]));
      assertThrows(NullPointerException.class, () -> t.copyTo(null));
    }
  }

  // ------------------------------------------------------------ scalars and empty

  @Test
  void scalars() {
    try (Tensor f = Tensor.scalar(2.5f);
        Tensor d = Tensor.scalar(-1.25);
        Tensor i = Tensor.scalar(-7);
        Tensor l = Tensor.scalar(1L << 40);
        Tensor b = Tensor.scalar(true)) {
      for (Tensor t : List.of(f, d, i, l, b)) {
        assertEquals(0, t.rank(), t.toString());
        assertArrayEquals(new long[0], t.shape());
        assertEquals(1, t.numElements());
      }
      assertEquals(DataType.FLOAT, f.dataType());
      assertArrayEquals(new float[] {2.5f}, f.toFloatArray());
      assertEquals(DataType.DOUBLE, d.dataType());
      assertArrayEquals(new double[] {-1.25}, d.toDoubleArray());
      assertEquals(DataType.INT32, i.dataType());
      assertArrayEquals(new int[] {-7}, i.toIntArray());
      assertEquals(DataType.INT64, l.dataType());
      assertArrayEquals(new long[] {1L << 40}, l.toLongArray());
      assertEquals(DataType.BOOL, b.dataType());
      assertArrayEquals(new boolean[] {true}, b.toBooleanArray());
      assertEquals(8, l.byteSize());
    }
  }

  @Test
  void aScalarRunsThroughAScalarSignature() {
    try (SavedModel shapes = SavedModel.load(TestModels.modelPath("shapes"));
        Tensor x = Tensor.scalar(3f);
        RunResult result = shapes.run("square", Map.of("x", x))) {
      assertEquals(0, result.get("y").rank());
      assertArrayEquals(new float[] {9f}, result.get("y").toFloatArray());
    }
  }

  @Test
  void shapesOfEveryRankUpToTwelveRoundTrip() {
    // Native code reads a shape of up to 8 dimensions into inline storage, a longer one into
    // the heap: both sides of that limit, through every factory that takes a shape.
    for (int rank = 0; rank <= 12; rank++) {
      long[] shape = new long[rank];
      Arrays.fill(shape, 1);
      if (rank > 0) {
        shape[rank - 1] = 3;
      }
      int elements = rank == 0 ? 1 : 3;
      float[] values = Arrays.copyOf(new float[] {0.5f, -1.0f, 7.0f}, elements);
      String[] strings = Arrays.copyOf(new String[] {"x", "yz", ""}, elements);
      try (Tensor f = Tensor.of(values, shape);
          Tensor a = Tensor.allocate(DataType.INT32, shape);
          Tensor s = Tensor.ofStrings(strings, shape);
          Tensor w = Tensor.of(DataType.FLOAT, Tensor.allocateAlignedBuffer(4 * elements),
              shape)) {
        assertArrayEquals(shape, f.shape(), "rank " + rank);
        assertArrayEquals(values, f.toFloatArray());
        assertArrayEquals(shape, a.shape(), "rank " + rank);
        assertEquals(elements, a.toIntArray().length);
        assertArrayEquals(shape, s.shape(), "rank " + rank);
        assertArrayEquals(strings, s.toStringArray());
        assertArrayEquals(shape, w.shape(), "rank " + rank);
      }
    }
  }

  @Test
  void emptyTensors() {
    try (Tensor f = Tensor.of(new float[0], 0, 3);
        Tensor s = Tensor.ofStrings(new String[0], 2, 0);
        Tensor a = Tensor.allocate(DataType.INT64, 5, 0, 2)) {
      assertArrayEquals(new long[] {0, 3}, f.shape());
      assertEquals(0, f.numElements());
      assertEquals(0, f.byteSize());
      assertEquals(0, f.toFloatArray().length);
      assertEquals(0, f.buffer().remaining());
      assertEquals(0, s.numElements());
      assertEquals(DataType.STRING, s.dataType());
      assertEquals(0, s.toStringArray().length);
      assertEquals(0, a.numElements());
      assertArrayEquals(new long[] {5, 0, 2}, a.shape());
      assertEquals(0, a.toLongArray().length);
      // An empty batch runs: row_sums of a [0, 3] input is a [0] output.
      try (SavedModel shapes = SavedModel.load(TestModels.modelPath("shapes"));
          RunResult result = shapes.run("row_sums", Map.of("x", f))) {
        assertArrayEquals(new long[] {0}, result.get("sums").shape());
        assertEquals(0, result.get("sums").toFloatArray().length);
      }
    }
  }

  // ------------------------------------------------------------ allocate and fill in place

  @ParameterizedTest
  @EnumSource(value = DataType.class, names = {"FLOAT", "DOUBLE", "INT32", "UINT8", "INT16",
      "INT8", "COMPLEX64", "INT64", "BOOL", "BFLOAT16", "UINT16", "COMPLEX128", "HALF", "UINT32",
      "UINT64"})
  void allocateIsZeroFilledAndFilledInPlace(DataType type) {
    try (Tensor t = Tensor.allocate(type, 2, 3)) {
      assertEquals(type, t.dataType());
      assertArrayEquals(new long[] {2, 3}, t.shape());
      long bytes = 6L * type.byteSize();
      assertEquals(bytes, t.byteSize());
      ByteBuffer buffer = t.buffer();
      assertTrue(buffer.isDirect());
      assertFalse(buffer.isReadOnly());
      assertEquals(ByteOrder.nativeOrder(), buffer.order());
      assertEquals(bytes, buffer.remaining());
      for (int i = 0; i < bytes; i++) {
        assertEquals(0, buffer.get(i), "byte " + i + " is not zero");
      }
      // Fill through one view, read through another and through the array reader.
      byte[] pattern = new byte[(int) bytes];
      for (int i = 0; i < pattern.length; i++) {
        pattern[i] = (byte) (type == DataType.BOOL ? i % 2 : i * 7 + 1);
      }
      buffer.put(pattern);
      ByteBuffer again = t.buffer();
      byte[] read = new byte[(int) bytes];
      again.get(read);
      assertArrayEquals(pattern, read);
      Object array = Array.newInstance(type.javaComponent(), 6 * type.componentsPerElement());
      t.copyTo(array);
      assertArrayEquals(pattern, ManifestCasesTest.bytesOf(array));
    }
  }

  @Test
  void anAllocatedInputIsFedWithItsInPlaceContents() {
    try (Tensor x = Tensor.allocate(DataType.FLOAT, 2, 3)) {
      x.buffer().asFloatBuffer().put(new float[] {1, 2, 3, 4, 5, 6});
      try (RunResult result = multi.run("scale", Map.of("x", x))) {
        assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12}, result.get("scaled").toFloatArray());
        assertArrayEquals(new float[] {21}, result.get("total").toFloatArray());
      }
    }
  }

  @Test
  void allocateRefusesTypesWithoutFixedSize() {
    for (DataType type : List.of(DataType.STRING, DataType.RESOURCE, DataType.VARIANT,
        DataType.INVALID)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Tensor.allocate(type, 2));
      assertTrue(e.getMessage().contains(type.toString()), e.getMessage());
    }
  }

  // ------------------------------------------------------------ direct buffers

  @Test
  void alignedDirectBufferIsZeroCopy() {
    ByteBuffer data = Tensor.allocateAlignedBuffer(24);
    assertEquals(24, data.capacity());
    assertEquals(ByteOrder.nativeOrder(), data.order());
    assertEquals(0, data.alignmentOffset(0, Tensor.ALIGNMENT));
    assertTrue(Tensor.isZeroCopyCandidate(data));
    data.asFloatBuffer().put(new float[] {1, 2, 3, 4, 5, 6});
    try (Tensor x = Tensor.of(DataType.FLOAT, data, 2, 3)) {
      assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, x.toFloatArray());
      // The tensor is the buffer: a change made before the run is what the run sees.
      data.putFloat(0, 100f);
      assertEquals(100f, x.toFloatArray()[0]);
      try (RunResult result = multi.run("scale", Map.of("x", x))) {
        assertArrayEquals(new float[] {200, 4, 6, 8, 10, 12}, result.get("scaled").toFloatArray());
      }
      // And a write through the tensor's view lands in the caller's buffer.
      x.buffer().putFloat(4, -1f);
      assertEquals(-1f, data.getFloat(4));
    }
  }

  @Test
  void aWrappedBufferStaysAliveWhileTheTensorDoes() throws InterruptedException {
    // Reachability is observed with phantom references, not by reading memory that may have been
    // freed: a canary buffer that nothing keeps shows that a collection has run, and the wrapped
    // buffer must not have gone with it. After close it must go: the tensor let it go.
    ReferenceQueue<ByteBuffer> queue = new ReferenceQueue<>();
    Wrapped wrapped = wrapFreshBuffer(4096, queue);
    PhantomReference<ByteBuffer> canary = new PhantomReference<>(
        ByteBuffer.allocateDirect(64), queue);
    try (Tensor x = wrapped.tensor()) {
      // Nothing in Java refers to either buffer any more: only the tensor keeps one alive.
      awaitCleared(canary, queue);
      // A collection clears every phantom reference to what it found unreachable at once.
      assertFalse(wrapped.buffer().refersTo(null),
          "the wrapped buffer was collected while its tensor was open");
      long[] values = x.toLongArray();
      for (int i = 0; i < values.length; i++) {
        assertEquals(i * 31L, values[i], "element " + i);
      }
    }
    awaitCleared(wrapped.buffer(), queue);  // hangs, rather than passes, if close kept it
  }

  /** A tensor over a fresh buffer, and a phantom reference to that buffer. */
  private record Wrapped(Tensor tensor, PhantomReference<ByteBuffer> buffer) {}

  private static Wrapped wrapFreshBuffer(int elements, ReferenceQueue<ByteBuffer> queue) {
    ByteBuffer data = Tensor.allocateAlignedBuffer(elements * 8);
    for (int i = 0; i < elements; i++) {
      data.putLong(i * 8, i * 31L);
    }
    assertTrue(Tensor.isZeroCopyCandidate(data));
    return new Wrapped(Tensor.of(DataType.INT64, data, elements),
        new PhantomReference<>(data, queue));
  }

  /** Collects until {@code ref}'s referent is found unreachable. */
  private static void awaitCleared(PhantomReference<ByteBuffer> ref,
      ReferenceQueue<ByteBuffer> queue) throws InterruptedException {
    while (!ref.refersTo(null)) {
      System.gc();
      queue.remove(100);  // lets reference processing run; the loop condition decides
    }
  }

  @Test
  void zeroCopyAtAnAlignedPosition() {
    ByteBuffer data = Tensor.allocateAlignedBuffer(128);
    data.position(64);
    data.limit(64 + 8);
    assertTrue(Tensor.isZeroCopyCandidate(data));
    try (Tensor x = Tensor.of(DataType.INT64, data, 1)) {
      data.putLong(64, 1234567890123L);
      assertArrayEquals(new long[] {1234567890123L}, x.toLongArray());
      assertEquals(64, data.position(), "the caller's position is left alone");
    }
  }

  @Test
  void emptyTensorsFromBuffers() {
    ByteBuffer aligned = Tensor.allocateAlignedBuffer(0);
    try (Tensor zeroCopy = Tensor.of(DataType.FLOAT, aligned, 0, 3);
        Tensor heap = Tensor.of(DataType.INT32, ByteBuffer.allocate(0), 4, 0);
        RunResult result = multi.run("scale", Map.of("x", zeroCopy))) {
      assertArrayEquals(new long[] {0, 3}, zeroCopy.shape());
      assertEquals(0, zeroCopy.toFloatArray().length);
      assertEquals(0, heap.toIntArray().length);
      assertArrayEquals(new long[] {0, 3}, result.get("scaled").shape());
      assertArrayEquals(new float[] {0f}, result.get("total").toFloatArray());
    }
  }

  @Test
  void misalignedDirectBufferIsCopied() {
    ByteBuffer aligned = Tensor.allocateAlignedBuffer(64 + 24);
    ByteBuffer data = aligned.position(4).slice().order(ByteOrder.nativeOrder());
    data.limit(24);
    assertFalse(Tensor.isZeroCopyCandidate(data));
    data.asFloatBuffer().put(new float[] {1, 2, 3, 4, 5, 6});
    try (Tensor x = Tensor.of(DataType.FLOAT, data, 2, 3)) {
      data.putFloat(0, 100f);
      assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, x.toFloatArray(),
          "a copied tensor must not see later changes to the buffer");
      try (RunResult result = multi.run("scale", Map.of("x", x))) {
        assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12}, result.get("scaled").toFloatArray());
      }
      assertEquals(0, data.position(), "the caller's position is left alone");
    }
  }

  @Test
  void heapAndReadOnlyAndForeignOrderBuffersAreCopied() {
    ByteBuffer heap = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
    heap.asIntBuffer().put(new int[] {7, 8, 9});
    ByteBuffer readOnly = Tensor.allocateAlignedBuffer(12);
    readOnly.asIntBuffer().put(new int[] {7, 8, 9});
    ByteBuffer ro = readOnly.asReadOnlyBuffer().order(ByteOrder.nativeOrder());
    assertFalse(Tensor.isZeroCopyCandidate(heap));
    assertFalse(Tensor.isZeroCopyCandidate(ro));
    for (ByteBuffer data : List.of(heap, ro)) {
      try (Tensor t = Tensor.of(DataType.INT32, data, 3)) {
        assertArrayEquals(new int[] {7, 8, 9}, t.toIntArray());
        if (!data.isReadOnly()) {
          data.putInt(0, -5);
          assertEquals(7, t.toIntArray()[0], "a copied tensor must not see later changes");
        }
        assertFalse(t.buffer().isReadOnly(), "a tensor made by the caller is writable");
      }
    }
  }

  @Test
  void bufferMustHoldExactlyTheShapesBytes() {
    ByteBuffer data = Tensor.allocateAlignedBuffer(24);
    IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
        () -> Tensor.of(DataType.FLOAT, data, 2, 4));
    assertTrue(small.getMessage().contains("32") && small.getMessage().contains("24"),
        small.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Tensor.of(DataType.FLOAT, data, 5));
    assertThrows(IllegalArgumentException.class, () -> Tensor.of(DataType.FLOAT, data, 7));
  }

  // ------------------------------------------------------------ strings

  private static final String[] STRINGS = {
      "hello", "", "héllo wörld ✓ 日本語 😀", "a string that is definitely longer than twenty-two bytes",
      "exactly twenty-two byt" /* 22 bytes: the longest inline TF_TString */,
      "twenty-three bytes long" + "x".repeat(1000)};

  @Test
  void stringsRoundTrip() {
    try (Tensor t = Tensor.ofStrings(STRINGS, 2, 3)) {
      assertEquals(DataType.STRING, t.dataType());
      assertArrayEquals(new long[] {2, 3}, t.shape());
      assertEquals(6, t.numElements());
      assertArrayEquals(STRINGS, t.toStringArray());
      byte[][] bytes = t.toBytesArray();
      for (int i = 0; i < STRINGS.length; i++) {
        assertArrayEquals(STRINGS[i].getBytes(StandardCharsets.UTF_8), bytes[i], "string " + i);
      }
    }
  }

  @Test
  void arbitraryBytesRoundTrip() {
    byte[][] values = {
        {(byte) 0xff, (byte) 0xfe, 0, 'b', 'i', 'n'},
        {},
        {0},
        {0, 0, 0},
        {(byte) 0xc3},
        new byte[300]};
    for (int i = 0; i < values[5].length; i++) {
      values[5][i] = (byte) i;
    }
    try (Tensor t = Tensor.ofBytes(values, 6)) {
      TestModels.assertBytesArrays(values, t.toBytesArray(), "ofBytes");
      // Malformed UTF-8 decodes to replacement characters, and the bytes are not changed.
      assertEquals("\uFFFD", t.toStringArray()[4]);
      TestModels.assertBytesArrays(values, t.toBytesArray(), "ofBytes read twice");
    }
  }

  @Test
  void stringTensorsAreCopiedFromTheirArrays() {
    byte[][] values = {{'a', 'b'}, {'c'}};
    try (Tensor t = Tensor.ofBytes(values, 2)) {
      values[0][0] = 'z';
      assertArrayEquals(new byte[] {'a', 'b'}, t.toBytesArray()[0]);
    }
  }

  @Test
  void stringsThroughAModelKeepEveryByte() {
    // Identity in the dtypes model: what goes in comes back, NUL and non-UTF-8 bytes included.
    byte[][] values = {
        {(byte) 0xff, (byte) 0xfe, 0, 'x'}, "日本語".getBytes(StandardCharsets.UTF_8), {},
        "a string that is definitely longer than twenty-two bytes".getBytes(
            StandardCharsets.UTF_8), {0}, {'z'}};
    try (SavedModel dtypes = SavedModel.load(TestModels.modelPath("dtypes"));
        Tensor x = Tensor.ofBytes(values, 2, 3);
        RunResult result = dtypes.run("string", Map.of("x", x))) {
      TestModels.assertBytesArrays(values, result.get("same").toBytesArray(), "same");
      byte[][] reversed = {values[3], values[4], values[5], values[0], values[1], values[2]};
      TestModels.assertBytesArrays(reversed, result.get("reversed").toBytesArray(), "reversed");
    }
  }

  @Test
  void stringsNeedTheirOwnFactoriesAndReaders() {
    try (Tensor t = Tensor.ofStrings(new String[] {"a"}, 1)) {
      assertThrows(IllegalArgumentException.class, t::buffer);
      assertThrows(IllegalStateException.class, t::toFloatArray);
      assertThrows(IllegalStateException.class, t::toByteArray);
      assertThrows(IllegalArgumentException.class, () -> t.copyTo(new byte[1]));
      assertTrue(t.byteSize() > 0, "string headers take memory");
    }
    try (Tensor f = Tensor.of(new float[] {1}, 1)) {
      assertThrows(IllegalStateException.class, f::toStringArray);
      assertThrows(IllegalStateException.class, f::toBytesArray);
    }
  }

  // ------------------------------------------------------------ outputs

  @Test
  void outputsOfRunsAreReadOnly() {
    try (Tensor a = Tensor.of(new float[] {1, 2}, 2);
        Tensor b = Tensor.of(new float[] {3, 4}, 2);
        RunResult result = multi.run("add", Map.of("a", a, "b", b))) {
      Tensor sum = result.get("sum");
      ByteBuffer view = sum.buffer();
      assertTrue(view.isReadOnly());
      assertEquals(ByteOrder.nativeOrder(), view.order());
      assertThrows(java.nio.ReadOnlyBufferException.class, () -> view.putFloat(0, 9f));
      assertArrayEquals(new float[] {4, 6}, sum.toFloatArray());
      // The caller's own tensors stay writable.
      assertFalse(a.buffer().isReadOnly());
    }
  }

  // ------------------------------------------------------------ close

  @Test
  void closeIsIdempotent() {
    Tensor t = Tensor.of(new int[] {1, 2}, 2);
    assertFalse(t.isClosed());
    LiveObjects open = TensorFlow.liveObjects();
    t.close();
    assertTrue(t.isClosed());
    LiveObjects closed = TensorFlow.liveObjects();
    assertEquals(open.tensors() - 1, closed.tensors());
    assertEquals(open.tensorBytes() - 8, closed.tensorBytes());
    t.close();
    t.close();
    assertTrue(t.isClosed());
    assertEquals(closed, TensorFlow.liveObjects());
    assertEquals("Tensor(closed)", t.toString());
  }

  /** Every method of a closed tensor throws IllegalStateException. */
  private static final List<Consumer<Tensor>> EVERY_METHOD = List.of(
      Tensor::dataType, Tensor::shape, Tensor::rank, Tensor::numElements, Tensor::byteSize,
      Tensor::buffer, t -> t.copyTo(new float[2]), Tensor::toFloatArray, Tensor::toDoubleArray,
      Tensor::toIntArray, Tensor::toLongArray, Tensor::toShortArray, Tensor::toByteArray,
      Tensor::toBooleanArray, Tensor::toBytesArray, Tensor::toStringArray);

  @Test
  void useAfterCloseThrows() {
    // Fresh, and after every cached property was read once.
    for (boolean warm : new boolean[] {false, true}) {
      Tensor t = Tensor.of(new float[] {1, 2}, 2);
      if (warm) {
        t.dataType();
        t.shape();
        t.buffer();
      }
      t.close();
      for (int i = 0; i < EVERY_METHOD.size(); i++) {
        Consumer<Tensor> method = EVERY_METHOD.get(i);
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> method.accept(t), "method " + i + (warm ? " (after use)" : " (fresh)"));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
      }
    }
    Tensor s = Tensor.ofStrings(new String[] {"x"}, 1);
    s.toStringArray();
    s.close();
    assertThrows(IllegalStateException.class, s::toStringArray);
    assertThrows(IllegalStateException.class, s::dataType);
  }

  @Test
  void outputsAfterTheResultIsClosedThrow() {
    Tensor sum;
    try (Tensor a = Tensor.of(new float[] {1}, 1);
        Tensor b = Tensor.of(new float[] {2}, 1);
        RunResult result = multi.run("add", Map.of("a", a, "b", b))) {
      sum = result.get("sum");
      assertArrayEquals(new float[] {3}, sum.toFloatArray());
    }
    assertTrue(sum.isClosed());
    assertThrows(IllegalStateException.class, sum::toFloatArray);
    assertThrows(IllegalStateException.class, sum::shape);
    assertThrows(IllegalStateException.class, sum::dataType);
  }

  @Test
  void liveCountsFollowTensors() {
    LiveObjects before = TensorFlow.liveObjects();
    List<Tensor> tensors = new ArrayList<>();
    try {
      tensors.add(Tensor.of(new double[10], 10));
      tensors.add(Tensor.allocate(DataType.INT8, 3));
      tensors.add(Tensor.ofStrings(new String[] {"a", "b"}, 2));
      LiveObjects during = TensorFlow.liveObjects();
      assertEquals(before.tensors() + 3, during.tensors());
      assertTrue(during.tensorBytes() >= before.tensorBytes() + 83, during.toString());
      assertEquals(before.total() + 3, during.total());
    } finally {
      tensors.forEach(Tensor::close);
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void aTensorIsReusableAcrossRunsAndModels() {
    try (Tensor x = Tensor.of(new float[] {1, 2, 3}, 1, 3);
        SavedModel shapes = SavedModel.load(TestModels.modelPath("shapes"))) {
      for (int i = 0; i < 3; i++) {
        try (RunResult scaled = multi.run("scale", Map.of("x", x));
            RunResult sums = shapes.run("row_sums", Map.of("x", x))) {
          assertArrayEquals(new float[] {2, 4, 6}, scaled.get("scaled").toFloatArray());
          assertArrayEquals(new float[] {6}, sums.get("sums").toFloatArray());
        }
      }
      assertArrayEquals(new float[] {1, 2, 3}, x.toFloatArray(), "inputs are not changed");
    }
  }
}
