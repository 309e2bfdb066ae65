package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.tfjni.TensorFlowException;
import org.junit.jupiter.api.Test;

/**
 * Where DJL's operations mean something other than TensorFlow's op of the same name (torch.gather,
 * MXNet's gather_nd, numpy's take/percentile/diff/rot90, INT64 sums): expected values worked out
 * by hand from those definitions.
 */
class SemanticsTest extends ManagerTest {
  private NDArray matrix(int rows, int cols) {
    return manager.arange(0f, rows * cols, 1f).reshape(rows, cols);
  }

  @Test
  void createCopiesTheCallersArray() {
    // create(float[]) hands the wrapped array to the native copy without a Java copy of its own
    float[] data = {1, 2, 3, 4};
    NDArray a = manager.create(data, new Shape(2, 2));
    data[0] = 99;
    assertArrayEquals(new float[] {1, 2, 3, 4}, a.toFloatArray());
    java.nio.FloatBuffer offset = java.nio.FloatBuffer.wrap(new float[] {7, 1, 2}, 1, 2).slice();
    assertArrayEquals(new float[] {1, 2}, manager.create(offset, new Shape(2)).toFloatArray());
  }

  @Test
  void gatherTakesAlongTheAxis() {
    // out[i][j] = a[i][index[i][j]], a[i][k] = 4i + k
    NDArray a = matrix(3, 4);
    NDArray index = manager.create(new long[] {3, 0, 1, 1, 2, 3}, new Shape(3, 2));
    assertArrayEquals(new float[] {3, 0, 5, 5, 10, 11}, a.gather(index, 1).toFloatArray());
  }

  @Test
  void gatherNdReadsCoordinatesFromTheFirstAxis() {
    NDArray a = matrix(3, 4);
    NDArray index = manager.create(new long[] {2, 0, 1, 3}, new Shape(2, 2));
    // coordinates (2, 1) and (0, 3)
    assertArrayEquals(new float[] {9, 3}, a.gatherNd(index).toFloatArray());
  }

  @Test
  void takeIndexesTheFlatArray() {
    NDArray a = matrix(3, 4);
    NDArray index = manager.create(new long[] {11, 0, 5, 6}, new Shape(2, 2));
    NDArray taken = a.take(index);
    assertEquals(new Shape(2, 2), taken.getShape());
    assertArrayEquals(new float[] {11, 0, 5, 6}, taken.toFloatArray());
  }

  @Test
  void putWritesAtFlatIndicesInTheArraysType() {
    NDArray a = matrix(3, 4);
    NDArray index = manager.create(new float[] {11, 0, 5});
    NDArray put = a.put(index, manager.create(new int[] {-1, -2, -3}));
    assertEquals(new Shape(3, 4), put.getShape());
    assertArrayEquals(new float[] {-2, 1, 2, 3, 4, -3, 6, 7, 8, 9, 10, -1}, put.toFloatArray());
  }

  @Test
  void pickTakesOneEntryPerRowOfAShorterIndex() {
    NDArray a = matrix(3, 4);
    NDArray picked = a.get(new NDIndex().addAllDim().addPickDim(
        manager.create(new long[] {3, 0, 2})));
    // rows 0, 1, 2 at columns 3, 0, 2; the picked axis kept with size 1
    assertEquals(new Shape(3, 1), picked.getShape());
    assertArrayEquals(new float[] {3, 4, 10}, picked.toFloatArray());
  }

  @Test
  void sumsOfIntegersAreInt64() {
    NDArray a = manager.create(new byte[] {(byte) 200, (byte) 100}, new Shape(2));
    NDArray u8 = a.toType(DataType.UINT8, false);
    NDArray sum = u8.sum();
    assertEquals(DataType.INT64, sum.getDataType());
    assertEquals(300L, sum.getLong());
  }

  @Test
  void percentileInterpolatesLinearly() {
    NDArray a = manager.create(new float[] {7, 1, 3, 5, 9});
    // sorted 1 3 5 7 9; 25% -> rank 1 -> 3; 60% -> rank 2.4 -> 5 + 0.4 * 2
    assertEquals(3f, a.percentile(25).getFloat());
    assertEquals(5.8f, a.percentile(60).getFloat(), 1e-6);
    assertEquals(5f, a.median().getFloat());
    NDArray m = manager.create(new float[] {4, 1, 2, 8, 6, 7}, new Shape(2, 3));
    assertArrayEquals(new float[] {2, 7}, m.median(new int[] {1}).toFloatArray());
  }

  @Test
  void diffRot90AndSequenceMask() {
    NDArray v = manager.create(new float[] {1, 4, 9, 16});
    assertArrayEquals(new float[] {3, 5, 7}, v.diff(1, 0).toFloatArray());
    assertArrayEquals(new float[] {2, 2}, v.diff(2, 0).toFloatArray());
    NDArray m = matrix(2, 3); // [[0 1 2] [3 4 5]]
    NDArray r = m.rotate90(1, new int[] {0, 1}); // [[2 5] [1 4] [0 3]]
    assertEquals(new Shape(3, 2), r.getShape());
    assertArrayEquals(new float[] {2, 5, 1, 4, 0, 3}, r.toFloatArray());
    NDArray lengths = manager.create(new long[] {1, 3});
    assertArrayEquals(new float[] {0, -1, -1, 3, 4, 5},
        m.sequenceMask(lengths, -1).toFloatArray());
    assertThrows(IllegalArgumentException.class, () -> v.sequenceMask(lengths));
  }

  @Test
  void getAndSetBySlices() {
    NDArray m = matrix(3, 4);
    assertArrayEquals(new float[] {5, 6, 9, 10}, m.get("1:, 1:3").toFloatArray());
    assertArrayEquals(new float[] {1, 5, 9}, m.get(":, 1").toFloatArray());
    m.set(new NDIndex("0, :"), 7);
    m.set(new NDIndex(":, 3"), manager.create(new float[] {-1, -2, -3}));
    assertArrayEquals(new float[] {7, 7, 7, -1, 4, 5, 6, -2, 8, 9, 10, -3}, m.toFloatArray());
  }

  @Test
  void whereBroadcastsAConditionOverTheLeadingAxes() {
    NDArray x = matrix(2, 2);
    NDArray y = manager.full(new Shape(2, 2), -1f);
    NDArray rows = manager.create(new boolean[] {false, true});
    assertArrayEquals(new float[] {-1, -1, 2, 3}, NDArrays.where(rows, x, y).toFloatArray());
  }

  @Test
  void topKAlongAnAxisGivesInt64Indices() {
    NDArray m = manager.create(new float[] {3, 9, 1, 4, 2, 8}, new Shape(2, 3));
    NDList top = m.topK(2, 1, true, true);
    assertArrayEquals(new float[] {9, 3, 8, 4}, top.get(0).toFloatArray());
    assertEquals(DataType.INT64, top.get(1).getDataType());
    assertArrayEquals(new long[] {1, 0, 2, 0}, top.get(1).toLongArray());
    NDList bottom = m.topK(1, 0, false, true);
    assertArrayEquals(new float[] {3, 2, 1}, bottom.get(0).toFloatArray());
  }

  @Test
  void smallestFirstHoldsForTheSmallestIntAndUnsignedBytes() {
    // Ranking by the largest of the negated values would lose the smallest int (its negation
    // overflows to itself) and has no kernel for UINT8.
    int[] ints = {5, Integer.MIN_VALUE, -1, Integer.MAX_VALUE, 0};
    NDList smallest = manager.create(ints).topK(3, 0, false, true);
    assertArrayEquals(new int[] {Integer.MIN_VALUE, -1, 0}, smallest.get(0).toIntArray());
    assertArrayEquals(new long[] {1, 2, 4}, smallest.get(1).toLongArray());
    NDArray bytes = manager.create(new byte[] {(byte) 255, 0, 7, (byte) 128}).toType(
        DataType.UINT8, false);
    NDList least = bytes.topK(2, 0, false, true);
    assertArrayEquals(new byte[] {0, 7}, least.get(0).toByteArray());
    assertArrayEquals(new long[] {1, 2}, least.get(1).toLongArray());
  }

  @Test
  void integerDivisionRoundsTowardZeroForEveryIntegerType() {
    // Java's / rounds toward zero: the expected values are Java's arithmetic.
    int[] a = {7, -7, 7, -7, 0};
    int[] b = {2, 2, -2, -2, 3};
    int[] quotients = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      quotients[i] = a[i] / b[i];
    }
    for (DataType type : new DataType[] {DataType.INT8, DataType.INT32, DataType.INT64}) {
      NDArray q = manager.create(a).toType(type, false).div(manager.create(b).toType(type, false));
      assertEquals(type, q.getDataType());
      assertArrayEquals(quotients, q.toType(DataType.INT32, false).toIntArray(), type.name());
    }
    NDArray u = manager.create(new int[] {7, 200, 255}).toType(DataType.UINT8, false);
    assertArrayEquals(new int[] {7 / 2, 200 / 2, 255 / 2},
        u.div(2).toType(DataType.INT32, false).toIntArray());
    NDArray lowest = manager.create(new long[] {Long.MIN_VALUE});
    assertArrayEquals(new long[] {Long.MIN_VALUE / -1}, lowest.div(-1L).toLongArray());
  }

  @Test
  void integerDivisionByZeroIsTensorFlowsError() {
    NDArray a = manager.create(new int[] {1, 2});
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> a.div(manager.create(new int[] {1, 0})));
    assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().contains("Integer division by zero"), e.getMessage());
  }

  @Test
  void stringsAddByConcatenating() {
    NDArray a = manager.create(new String[] {"a", "bc", ""});
    NDArray b = manager.create(new String[] {"x", "", "yz"});
    assertArrayEquals(new String[] {"ax", "bc", "yz"}, a.add(b).toStringArray());
  }
}
