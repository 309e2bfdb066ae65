package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.DataType;
import ai.djl.modality.cv.Image;
import ai.djl.modality.cv.util.NDImageUtils;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import io.tfjni.TensorFlow;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The branches of the operations the engine composes from several TensorFlow ops (tile, repeat,
 * dot, matMul, diff, rot90, topK, trace, where, cumulative sums, linear, image ops, samplers,
 * ...): values by hand from numpy's and PyTorch's definitions, and each call leaving no
 * intermediate array alive, only its results.
 */
class ComposedOpsTest extends ManagerTest {
  /** [[0 1 2] [3 4 5]] and so on, as an op's result (so no input becomes eager inside a call). */
  private NDArray matrix(int rows, int cols) {
    return manager.arange(0f, rows * cols, 1f).reshape(rows, cols);
  }

  private NDArray vector(float... values) {
    NDArray v = manager.create(values);
    ((TfjniNDArray) v).tfArray();  // eager now, not during the call measured
    return v;
  }

  /** Runs {@code op}; checks it leaves exactly {@code results} more live tensor handles. */
  private static <T> T leaving(int results, Supplier<T> op) {
    long before = TensorFlow.liveObjects().tensorHandles();
    T value = op.get();
    assertEquals(before + results, TensorFlow.liveObjects().tensorHandles(),
        "live handles after the call");
    return value;
  }

  @Test
  void tileRepeatsLeadingAxesBeyondTheRankAndAlignsFewerToTheLast() {
    NDArray v = vector(1, 2);
    NDArray wide = leaving(1, () -> v.tile(new long[] {2, 2}));  // [1 2] as [[1 2]], then tiled
    assertEquals(new Shape(2, 4), wide.getShape());
    assertArrayEquals(new float[] {1, 2, 1, 2, 1, 2, 1, 2}, wide.toFloatArray());
    NDArray m = matrix(2, 2);
    NDArray lastAxis = leaving(1, () -> m.tile(new long[] {2}));  // repeats (1, 2)
    assertEquals(new Shape(2, 4), lastAxis.getShape());
    assertArrayEquals(new float[] {0, 1, 0, 1, 2, 3, 2, 3}, lastAxis.toFloatArray());
  }

  @Test
  void repeatRepeatsEachElementAlongEachAxisInTurn() {
    NDArray m = matrix(2, 2);  // [[0 1] [2 3]]
    NDArray both = leaving(1, () -> m.repeat(2));
    assertEquals(new Shape(4, 4), both.getShape());
    assertArrayEquals(new float[] {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3},
        both.toFloatArray());
    NDArray columns = leaving(1, () -> m.repeat(1, 3));
    assertArrayEquals(new float[] {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}, columns.toFloatArray());
    NDArray rows = leaving(1, () -> m.repeat(new long[] {3, 1}));
    assertEquals(new Shape(6, 2), rows.getShape());
    assertArrayEquals(new float[] {0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3}, rows.toFloatArray());
    NDArray none = leaving(1, () -> m.repeat(new long[0]));
    assertNotSame(m, none);
    assertArrayEquals(m.toFloatArray(), none.toFloatArray());
    // Axis 2 of a matrix: refused after two steps, whose arrays are freed.
    long before = TensorFlow.liveObjects().tensorHandles();
    assertThrows(IllegalArgumentException.class, () -> m.repeat(new long[] {1, 2, 2}));
    assertEquals(before, TensorFlow.liveObjects().tensorHandles(), "live handles after");
  }

  @Test
  void dotOfVectorsIsASumAndOfAMatrixAndAVectorAMatrixProduct() {
    NDArray u = vector(1, 2, 3);
    NDArray w = vector(4, 5, 6);
    NDArray inner = leaving(1, () -> u.dot(w));  // 4 + 10 + 18
    assertEquals(new Shape(), inner.getShape());
    assertEquals(32f, inner.getFloat());
    NDArray ints = manager.create(new int[] {1, 2, 3});
    NDArray intInner = ints.dot(ints);  // integer sums are INT64, as sum()'s
    assertEquals(DataType.INT64, intInner.getDataType());
    assertEquals(14L, intInner.getLong());
    NDArray m = matrix(2, 3);
    NDArray ones = vector(1, 1, 1);
    NDArray rowSums = leaving(1, () -> m.dot(ones));
    assertEquals(new Shape(2), rowSums.getShape());
    assertArrayEquals(new float[] {3, 12}, rowSums.toFloatArray());
    NDArray stack = manager.arange(0f, 8f, 1f).reshape(2, 2, 2);
    NDArray pair = vector(1, 2);
    NDArray stacked = leaving(1, () -> stack.dot(pair));  // [0 1].[1 2] = 2, [2 3] -> 8, ...
    assertEquals(new Shape(2, 2), stacked.getShape());
    assertArrayEquals(new float[] {2, 8, 14, 20}, stacked.toFloatArray());
  }

  @Test
  void matMulTreatsAVectorAsARowOnTheLeftAndAColumnOnTheRight() {
    NDArray v = vector(1, 2);
    NDArray m = matrix(2, 3);
    NDArray row = leaving(1, () -> v.matMul(m));  // [1 2] x [[0 1 2] [3 4 5]]
    assertEquals(new Shape(3), row.getShape());
    assertArrayEquals(new float[] {6, 9, 12}, row.toFloatArray());
    NDArray u = vector(1, 2, 3);
    NDArray scalar = leaving(1, () -> u.matMul(u));
    assertEquals(new Shape(), scalar.getShape());
    assertEquals(14f, scalar.getFloat());
    NDArray column = leaving(1, () -> m.matMul(u));  // [0 + 2 + 6, 3 + 8 + 15]
    assertArrayEquals(new float[] {8, 26}, column.toFloatArray());
  }

  @Test
  void diffAlongAnInnerAxisAndPastTheLength() {
    NDArray m = manager.create(new float[] {1, 4, 9, 0, 2, 7}, new Shape(2, 3));
    ((TfjniNDArray) m).tfArray();
    NDArray columns = leaving(1, () -> m.diff(1, 1));
    assertArrayEquals(new float[] {3, 5, 2, 5}, columns.toFloatArray());
    NDArray second = leaving(1, () -> m.diff(2, -1));
    assertArrayEquals(new float[] {2, 3}, second.toFloatArray());
    NDArray empty = leaving(1, () -> m.diff(3, 1));  // [1 4 9] -> [3 5] -> [2] -> []
    assertEquals(new Shape(2, 0), empty.getShape());
    NDArray none = leaving(1, () -> m.diff(0, 1));
    assertNotSame(m, none);
    assertArrayEquals(m.toFloatArray(), none.toFloatArray());
  }

  @Test
  void rotate90ThreeQuarterTurnsIsOneTheOtherWay() {
    NDArray m = matrix(2, 3);  // [[0 1 2] [3 4 5]]; numpy.rot90(m, -1) = [[3 0] [4 1] [5 2]]
    NDArray back = leaving(1, () -> m.rotate90(3, new int[] {0, 1}));
    assertEquals(new Shape(3, 2), back.getShape());
    assertArrayEquals(new float[] {3, 0, 4, 1, 5, 2}, back.toFloatArray());
    assertArrayEquals(back.toFloatArray(), m.rotate90(-1, new int[] {0, 1}).toFloatArray());
  }

  @Test
  void topKOfAnInnerAxisAndSmallestOfTheLast() {
    NDArray m = manager.create(new float[] {3, 9, 1, 4, 2, 8}, new Shape(2, 3));
    ((TfjniNDArray) m).tfArray();
    NDList down = leaving(2, () -> m.topK(1, 0, true, true));
    assertEquals(new Shape(1, 3), down.get(0).getShape());
    assertArrayEquals(new float[] {4, 9, 8}, down.get(0).toFloatArray());
    assertArrayEquals(new long[] {1, 0, 1}, down.get(1).toLongArray());
    NDList smallest = leaving(2, () -> m.topK(2, -1, false, true));
    assertArrayEquals(new float[] {1, 3, 2, 4}, smallest.get(0).toFloatArray());
    assertEquals(DataType.INT64, smallest.get(1).getDataType());
    assertArrayEquals(new long[] {2, 0, 1, 0}, smallest.get(1).toLongArray());
  }

  @Test
  void traceSumsADiagonal() {
    NDArray m = matrix(3, 3);  // [[0 1 2] [3 4 5] [6 7 8]]
    NDArray main = leaving(1, () -> m.trace(0, 0, 1));
    assertEquals(12f, main.getFloat());
    assertEquals(6f, m.trace(1, 0, 1).getFloat());  // 1 + 5
    NDArray ints = m.toType(DataType.INT32, false);
    assertEquals(DataType.INT64, ints.trace(-1, 0, 1).getDataType());
    assertEquals(10L, ints.trace(-1, 0, 1).getLong());  // 3 + 7
  }

  @Test
  void whereCastsANumericConditionAndTheOtherValues() {
    NDArray condition = vector(0, 1, 2);
    NDArray x = vector(1, 2, 3);
    NDArray y = manager.create(new int[] {7, 8, 9});
    ((TfjniNDArray) y).tfArray();
    NDArray picked = leaving(1, () -> NDArrays.where(condition, x, y));
    assertEquals(DataType.FLOAT32, picked.getDataType());
    assertArrayEquals(new float[] {7, 2, 3}, picked.toFloatArray());
  }

  @Test
  void eluScalesTheNegativeSideAndPreluMultipliesIt() {
    NDArray x = vector(-1, 0, 2);
    NDArray elu = leaving(1, () -> Activation.elu(x, 2f));
    // 2 * (e^-1 - 1), 0, 2
    assertArrayEquals(new float[] {(float) (2 * (Math.exp(-1) - 1)), 0, 2}, elu.toFloatArray(),
        1e-6f);
    NDArray alpha = vector(0.5f);
    NDList prelu = leaving(1, () -> x.getNDArrayInternal().prelu(x, alpha));
    assertArrayEquals(new float[] {-0.5f, 0, 2}, prelu.singletonOrThrow().toFloatArray());
  }

  private NDArray eager(NDArray a) {
    ((TfjniNDArray) a).tfArray();
    return a;
  }

  @Test
  void cumulativeOpsSumIntegersInInt64() {
    NDArray ints = eager(manager.create(new int[] {1, 2, 3, 4}, new Shape(2, 2)));
    NDArray flat = leaving(1, () -> ints.cumSum());
    assertEquals(DataType.INT64, flat.getDataType());
    assertArrayEquals(new long[] {1, 3, 6, 10}, flat.toLongArray());
    NDArray down = leaving(1, () -> ints.cumSum(0));
    assertArrayEquals(new long[] {1, 2, 4, 6}, down.toLongArray());
    NDArray products = leaving(1, () -> ints.cumProd(1));
    assertEquals(DataType.INT64, products.getDataType());
    assertArrayEquals(new long[] {1, 2, 3, 12}, products.toLongArray());
    NDArray floats = leaving(1, () -> ints.cumProd(1, DataType.FLOAT32));
    assertArrayEquals(new float[] {1, 2, 3, 12}, floats.toFloatArray());
    assertThrows(UnsupportedOperationException.class, () -> ints.cumProd(1, DataType.STRING));
  }

  @Test
  void argMaxAndArgMinOfTheFlatArrayAndOfAScalar() {
    NDArray m = eager(manager.create(new float[] {3, 9, 1, 4}, new Shape(2, 2)));
    NDArray max = leaving(1, () -> m.argMax());
    assertEquals(DataType.INT64, max.getDataType());
    assertEquals(1L, max.getLong());
    assertEquals(2L, leaving(1, () -> m.argMin()).getLong());
    NDArray empty = manager.create(new float[0], new Shape(0, 2));
    assertThrows(IllegalArgumentException.class, empty::argMax);
    NDArray scalar = eager(manager.create(5f));
    assertEquals(0L, scalar.argSort(0, true).getLong());
    NDArray where = leaving(1, () -> scalar.nonzero());  // one true element at no coordinates
    assertEquals(new Shape(1, 1), where.getShape());
    assertEquals(new Shape(0, 1), manager.create(0f).nonzero().getShape());
  }

  @Test
  void rpowiRaisesTheNumberToEachElementInPlace() {
    NDArray x = vector(0, 1, 3);
    NDArray same = leaving(0, () -> x.getNDArrayInternal().rpowi(2));
    assertEquals(x, same);
    assertArrayEquals(new float[] {1, 2, 8}, x.toFloatArray());
  }

  @Test
  void linearIsTheInputTimesTheTransposedWeightPlusTheBias() {
    NDArray x = matrix(2, 3);  // [[0 1 2] [3 4 5]]
    NDArray w = eager(manager.create(new float[] {1, 0, 0, 0, 1, 1}, new Shape(2, 3)));
    NDArray b = vector(10, 20);
    NDList y = leaving(1, () -> x.getNDArrayInternal().linear(x, w, b));
    assertArrayEquals(new float[] {10, 23, 13, 29}, y.singletonOrThrow().toFloatArray());
    NDList noBias = leaving(1, () -> x.getNDArrayInternal().linear(x, w, null));
    assertArrayEquals(new float[] {0, 3, 3, 9}, noBias.singletonOrThrow().toFloatArray());
    NDArray v = vector(1, 2, 3);
    NDList single = leaving(1, () -> v.getNDArrayInternal().linear(v, w, null));
    assertEquals(new Shape(2), single.singletonOrThrow().getShape());
    assertArrayEquals(new float[] {1, 5}, single.singletonOrThrow().toFloatArray());
  }

  @Test
  void toTensorScalesTo0To1AndNormalizeCentresAndScalesEachChannel() {
    // Two pixels of three channels (NDImageUtils wants a height and width other than 3).
    NDArray pixels = eager(manager.create(new byte[] {0, 51, (byte) 255, 51, 0, 0},
        new Shape(2, 1, 3)).toType(DataType.UINT8, false));
    NDArray unit = leaving(1, () -> NDImageUtils.toTensor(pixels));
    assertEquals(DataType.FLOAT32, unit.getDataType());
    assertArrayEquals(new float[] {0, 0.2f, 1, 0.2f, 0, 0}, unit.toFloatArray(), 1e-7f);
    NDArray normalized = leaving(1, () -> NDImageUtils.normalize(unit,
        new float[] {0, 0.1f, 0.5f}, new float[] {1, 0.5f, 0.25f}));
    // (0 - 0) / 1, (0.2 - 0.1) / 0.5, (1 - 0.5) / 0.25, then 0.2 / 1, -0.1 / 0.5, -0.5 / 0.25
    assertArrayEquals(new float[] {0, 0.2f, 2, 0.2f, -0.2f, -2}, normalized.toFloatArray(),
        1e-6f);
    NDArray floats = vector(0, 127.5f, 255, 51, 0, 0).reshape(2, 1, 3);
    assertArrayEquals(new float[] {0, 0.5f, 1, 0.2f, 0, 0},
        leaving(1, () -> NDImageUtils.toTensor(floats)).toFloatArray());
  }

  @Test
  void resizeOfAnImageAndOfABatch() {
    NDArray image = eager(manager.create(new float[] {1, 2, 3, 4}, new Shape(2, 2, 1)));
    // Nearest with half-pixel centres: output i reads input floor((i + 0.5) / 2).
    float[] expected = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
    NDArray single = leaving(1,
        () -> NDImageUtils.resize(image, 4, 4, Image.Interpolation.NEAREST));
    assertEquals(new Shape(4, 4, 1), single.getShape());
    assertArrayEquals(expected, single.toFloatArray());
    NDArray batch = image.expandDims(0);
    NDArray batched = leaving(1,
        () -> NDImageUtils.resize(batch, 4, 4, Image.Interpolation.NEAREST));
    assertEquals(new Shape(1, 4, 4, 1), batched.getShape());
    assertArrayEquals(expected, batched.toFloatArray());
  }

  @Test
  void colorJitterWithNoRangesGivesTheImageBack() {
    NDArray image = eager(manager.create(new float[] {0.2f, 0.4f, 0.6f, 0.9f, 0.1f, 0.5f},
        new Shape(1, 2, 3)));
    // Every factor drawn from [-0, 0]: brightness, contrast, saturation 1 and hue 0.
    NDArray same = leaving(1, () -> NDImageUtils.randomColorJitter(image, 0, 0, 0, 0));
    assertArrayEquals(image.toFloatArray(), same.toFloatArray(), 1e-6f);
  }

  @Test
  void concatOfScalarsIsAVector() {
    NDArray one = eager(manager.create(1f));
    NDArray two = eager(manager.create(2f));
    NDArray three = eager(manager.create(3f));
    NDArray joined = leaving(1, () -> NDArrays.concat(new NDList(one, two, three)));
    assertEquals(new Shape(3), joined.getShape());
    assertArrayEquals(new float[] {1, 2, 3}, joined.toFloatArray());
  }

  @Test
  void randomPermutationAndNormalSamplesOfZeroSpread() {
    NDArray order = leaving(1, () -> manager.randomPermutation(5));
    assertEquals(DataType.INT64, order.getDataType());
    long[] sorted = order.toLongArray();
    java.util.Arrays.sort(sorted);
    assertArrayEquals(new long[] {0, 1, 2, 3, 4}, sorted);
    assertEquals(new Shape(0), manager.randomPermutation(0).getShape());
    NDArray mu = vector(1, 2);
    NDArray sigma = vector(0, 0);
    NDArray samples = leaving(1, () -> manager.sampleNormal(mu, sigma, new Shape(3)));
    assertEquals(new Shape(2, 3), samples.getShape());
    assertArrayEquals(new float[] {1, 1, 1, 2, 2, 2}, samples.toFloatArray());
  }
}
