package io.tfjni.eager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.DataType;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad arguments to Signal's, Nn's and the samplers' methods: each is refused with a Java
 * exception that says what was wrong (tfjni's own checks, or TensorFlow's message and code), and
 * leaves no array behind.
 */
@ExtendWith(TestModels.NoLeaks.class)
class LayerArgumentsTest {

  /** {@code call} throws {@code type} mentioning {@code words}, and no array is left open. */
  private static <T extends Throwable> void refused(Class<T> type, String words,
      Executable call) {
    long handles = TensorFlow.liveObjects().tensorHandles();
    T e = assertThrows(type, call);
    assertTrue(e.getMessage().contains(words), "'" + words + "' not in: " + e.getMessage());
    assertEquals(handles, TensorFlow.liveObjects().tensorHandles(), "arrays left open by " + words);
  }

  @Test
  void transformsRefuseTheWrongTypeALengthBelowOneAndAnAxisOutsideTheRank() {
    try (NDManager m = NDManager.newBaseManager();
        NDArray real = m.create(new float[] {1, 2, 3, 4}, 2, 2);
        NDArray complex = real.cast(DataType.COMPLEX64)) {
      refused(IllegalArgumentException.class, "COMPLEX64 or COMPLEX128",
          () -> Signal.fft(real, 2, 0));
      refused(IllegalArgumentException.class, "FLOAT or DOUBLE",
          () -> Signal.rfft(complex, 2, 0));
      refused(IllegalArgumentException.class, "must be positive",
          () -> Signal.ifft(complex, 0, 1));
      refused(IllegalArgumentException.class, "out of range",
          () -> Signal.irfft(complex, 4, 2));
      refused(IllegalArgumentException.class, "frameStep of 1 or more",
          () -> Signal.frame(real, 2, 0));
      refused(IllegalArgumentException.class, "needs a complex array", real::imag);
    }
  }

  @Test
  void layersRefuseARankTheyHaveNoKernelForAndPassOnTensorFlowsErrors() {
    try (NDManager m = NDManager.newBaseManager();
        NDArray matrix = m.zeros(DataType.FLOAT, 4, 3);
        NDArray images = m.zeros(DataType.FLOAT, 1, 4, 4, 3);
        NDArray twoChannelFilter = m.zeros(DataType.FLOAT, 2, 2, 2, 5)) {
      refused(IllegalArgumentException.class, "rank 3, 4 or 5",
          () -> Nn.maxPool(matrix, new long[] {2}, new long[] {1}));
      refused(IllegalArgumentException.class, "must hold 2 values of 1 or more",
          () -> Nn.avgPool(images, new long[] {2, 0}, new long[] {1, 1}));
      refused(IllegalArgumentException.class, "filter must have rank 4",
          () -> Nn.convolution(images, matrix, new long[] {1, 1}, new long[] {1, 1}));
      // Three input channels against a filter for two: TensorFlow's own refusal.
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> Nn.convolution(images, twoChannelFilter, new long[] {1, 1}, new long[] {1, 1}));
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
    }
  }

  @Test
  void samplersRefuseASeedThatIsNotTwoLongs() {
    try (NDManager m = NDManager.newBaseManager(); NDArray rate = m.scalar(2f)) {
      refused(IllegalArgumentException.class, "two longs",
          () -> m.randomInteger(new long[] {1, 2, 3}, 0, 5, DataType.INT64, 4));
      refused(IllegalArgumentException.class, "two longs",
          () -> m.randomPoisson(new long[] {1}, rate, DataType.FLOAT, 4));
    }
  }
}
