package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.internal.NDArrayEx;
import ai.djl.ndarray.types.Shape;
import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.TensorFlowException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DJL's pooling, convolution and normalization layers against djl_layer_goldens.json, written
 * by scripts/goldens/djl_layer_goldens.py from TensorFlow Python (and numpy loops for PyTorch's ceil
 * mode, padding-excluding averages and transposed convolution).
 */
class LayerOpsTest extends ManagerTest {
  private static final GoldenCases CASES = new GoldenCases("djl_layer_goldens.json");

  static Stream<String> caseNames() {
    return CASES.names();
  }

  private static JsonNode byName(String name) {
    return CASES.byName(name);
  }

  private NDArray input(JsonNode t) {
    if (t.isNull()) {
      return null;
    }
    return GoldenCases.array(manager, t);
  }

  private static Shape shape(JsonNode dims) {
    return GoldenCases.shape(dims);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("caseNames")
  void layerGivesTensorFlowPythonsValues(String name) {
    JsonNode c = byName(name);
    JsonNode p = c.get("params");
    List<NDArray> in = new ArrayList<>();
    c.get("inputs").forEach(t -> in.add(input(t)));
    NDArrayEx ex = in.get(0).getNDArrayInternal();
    NDArray out;
    switch (c.get("op").asText()) {
      case "maxPool":
        out = ex.maxPool(shape(p.get("kernel")), shape(p.get("stride")),
            shape(p.get("padding")), p.get("ceil").asBoolean());
        break;
      case "avgPool":
        out = ex.avgPool(shape(p.get("kernel")), shape(p.get("stride")),
            shape(p.get("padding")), p.get("ceil").asBoolean(),
            p.get("countIncludePad").asBoolean());
        break;
      case "lpPool":
        out = ex.lpPool((float) p.get("norm").asDouble(), shape(p.get("kernel")),
            shape(p.get("stride")), shape(p.get("padding")), p.get("ceil").asBoolean());
        break;
      case "globalMaxPool":
        out = ex.globalMaxPool();
        break;
      case "globalAvgPool":
        out = ex.globalAvgPool();
        break;
      case "globalLpPool":
        out = ex.globalLpPool((float) p.get("norm").asDouble());
        break;
      case "convolution":
        out = ex.convolution(in.get(0), in.get(1), in.get(2), shape(p.get("stride")),
            shape(p.get("padding")), shape(p.get("dilation")), p.get("groups").asInt())
            .singletonOrThrow();
        break;
      case "deconvolution":
        out = ex.deconvolution(in.get(0), in.get(1), in.get(2), shape(p.get("stride")),
            shape(p.get("padding")), shape(p.get("outPadding")), shape(p.get("dilation")),
            p.get("groups").asInt()).singletonOrThrow();
        break;
      case "batchNorm":
        out = ex.batchNorm(in.get(0), in.get(1), in.get(2), in.get(3), in.get(4),
            p.get("axis").asInt(), 0.9f, (float) p.get("eps").asDouble(), false)
            .singletonOrThrow();
        break;
      case "layerNorm":
        out = ex.layerNorm(in.get(0), shape(p.get("normalizedShape")), in.get(1), in.get(2),
            (float) p.get("eps").asDouble()).singletonOrThrow();
        break;
      case "interpolation":
        out = ex.interpolation(shape(p.get("size")).getShape(), p.get("mode").asInt(),
            p.get("alignCorners").asBoolean());
        break;
      default:
        throw new IllegalArgumentException(c.get("op").asText());
    }
    JsonNode expected = c.get("expected");
    assertArrayEquals(shape(expected.get("shape")).getShape(), out.getShape().getShape(),
        name + ": shape");
    float[] actual = out.toFloatArray();
    for (int i = 0; i < actual.length; i++) {
      double want = expected.get("data").get(i).asDouble();
      assertEquals(want, actual[i], 1e-4 + 1e-4 * Math.abs(want), name + " at " + i);
    }
  }

  @Test
  void bilinearInterpolationUsesHalfPixelCenters() {
    // Source x of output x' is (x' + 0.5) / 2 - 0.5: -0.25, 0.25, 0.75, 1.25, clamped.
    try (NDArray row = manager.create(new float[] {0, 1}, new Shape(1, 1, 1, 2));
        NDArray wide = row.getNDArrayInternal().interpolation(new long[] {1, 4}, 1, false);
        NDArray nearest = row.getNDArrayInternal().interpolation(new long[] {1, 4}, 0, false)) {
      assertArrayEquals(new float[] {0, 0.25f, 0.75f, 1}, wide.toFloatArray(), 1e-6f);
      assertArrayEquals(new float[] {0, 0, 1, 1}, nearest.toFloatArray());
      assertThrows(UnsupportedOperationException.class,
          () -> row.getNDArrayInternal().interpolation(new long[] {1, 4}, 7, false));
      for (int cornerless : new int[] {0, 2}) {  // NEAREST, AREA: no corners to align
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> row.getNDArrayInternal().interpolation(new long[] {1, 4}, cornerless, true));
        assertTrue(e.getMessage().contains("alignCorners"), e.getMessage());
      }
    }
  }

  @Test
  void layersRejectBadShapesWithJavaExceptions() {
    try (NDArray vector = manager.ones(new Shape(4));
        NDArray image = manager.ones(new Shape(1, 2, 3, 3));
        NDArray weight = manager.ones(new Shape(2, 2, 3))) {
      NDArrayEx ex = vector.getNDArrayInternal();
      assertThrows(IllegalArgumentException.class,
          () -> ex.maxPool(new Shape(2), new Shape(2), new Shape(0), false));
      assertThrows(IllegalArgumentException.class, ex::globalAvgPool);
      NDArrayEx im = image.getNDArrayInternal();
      assertThrows(IllegalArgumentException.class,
          () -> im.maxPool(new Shape(4, 4), new Shape(1, 1), new Shape(0, 0), false));
      assertThrows(IllegalArgumentException.class,
          () -> im.avgPool(new Shape(2), new Shape(1, 1), new Shape(0, 0), false, true));
      assertThrows(IllegalArgumentException.class, () -> im.convolution(image, weight, null,
          new Shape(1, 1), new Shape(0, 0), new Shape(1, 1), 1));
      // TensorFlow's own check (channels 2 vs a weight for 3), as a Java exception.
      try (NDArray wrongIn = manager.ones(new Shape(2, 3, 1, 1))) {
        TensorFlowException e = assertThrows(TensorFlowException.class, () -> im.convolution(
            image, wrongIn, null, new Shape(1, 1), new Shape(0, 0), new Shape(1, 1), 1));
        assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("input depth must be evenly divisible by filter depth:"
            + " 2 vs 3"), e.getMessage());
      }
    }
  }

  @Test
  void trainingBatchNormIsUnsupported() {
    try (NDArray x = manager.ones(new Shape(1, 2, 3, 3));
        NDArray stats = manager.ones(new Shape(2))) {
      NDArrayEx ex = x.getNDArrayInternal();
      assertThrows(UnsupportedOperationException.class,
          () -> ex.batchNorm(x, stats, stats, stats, stats, 1, 0.9f, 1e-5f, true));

    }
  }

  @Test
  void closedInputIsRejected() {
    NDArray x = manager.ones(new Shape(1, 1, 4, 4));
    NDArrayEx ex = x.getNDArrayInternal();
    x.close();
    assertThrows(IllegalStateException.class,
        () -> ex.maxPool(new Shape(2, 2), new Shape(2, 2), new Shape(0, 0), false));
    try (NDArray w = manager.ones(new Shape(1, 1, 1, 1))) {
      assertThrows(IllegalStateException.class, () -> w.getNDArrayInternal().convolution(x, w,
          null, new Shape(1, 1), new Shape(0, 0), new Shape(1, 1), 1));
    }
  }
}
