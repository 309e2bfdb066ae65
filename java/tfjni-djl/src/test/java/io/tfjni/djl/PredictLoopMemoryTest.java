package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.types.Shape;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import io.tfjni.LiveObjects;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Predictor.predict in a loop of 100,000 calls (-Dtfjni.djl.predict.calls to change) on the
 * tiny frozen layer of the test models (tanh(x W + b), 2 -> 3) through Criteria and a Translator,
 * as a DJL user runs it: the live native object count is sampled
 * every tenth of the loop and must equal the count after the first call each time (no growth),
 * and return to its start value when the model is closed. RSS is sampled too and printed (never
 * asserted: it depends on the allocator and the machine); scripts/test/djl-soak.sh reports it.
 */
class PredictLoopMemoryTest {
  private static final int CALLS = Integer.getInteger("tfjni.djl.predict.calls", 100_000);
  private static final int SAMPLES = 10;

  @Test
  void nativeObjectsStayFlatOverAHundredThousandPredicts() throws Exception {
    // TensorFlow Python's first row of the manifest's case frozen_tanh_batch4
    JsonNode call = TestModels.testCase("frozen_tanh_batch4").path("calls").get(0);
    float[] image = new float[2];
    float[] expected = new float[3];
    try (Tensor x = TestModels.tensor(call.path("inputs").path("x:0"));
        Tensor y = TestModels.tensor(call.path("outputs").path("Identity:0"))) {
      System.arraycopy(x.toFloatArray(), 0, image, 0, 2);
      System.arraycopy(y.toFloatArray(), 0, expected, 0, 3);
    }
    Engine.getEngine("TensorFlow");  // its eager context lives as long as the process
    LiveObjects start = TensorFlow.liveObjects();
    Criteria<float[], float[]> criteria = Criteria.builder().setTypes(float[].class, float[].class)
        .optModelPath(TestModels.modelPath("frozen")).optEngine("TensorFlow")
        .optOption("Inputs", "x:0").optOption("Outputs", "Identity:0")
        .optTranslator(new FloatArrayTranslator(new Shape(2))).build();
    LiveObjects[] seen = new LiveObjects[SAMPLES + 1];
    long[] rssKb = new long[SAMPLES + 1];
    long[] heapKb = new long[SAMPLES + 1];
    try (ZooModel<float[], float[]> model = criteria.loadModel();
        Predictor<float[], float[]> predictor = model.newPredictor()) {
      float[] first = predictor.predict(image);
      assertArrayEquals(expected, first, (float) TestModels.FLOAT_TOLERANCE);
      seen[0] = TensorFlow.liveObjects();
      rssKb[0] = rssKb();
      heapKb[0] = Runtime.getRuntime().totalMemory() / 1024;
      int every = CALLS / SAMPLES;
      float[] last = first;
      for (int s = 1; s <= SAMPLES; s++) {
        for (int i = 0; i < every; i++) {
          last = predictor.predict(image);
        }
        seen[s] = TensorFlow.liveObjects();
        rssKb[s] = rssKb();
        heapKb[s] = Runtime.getRuntime().totalMemory() / 1024;
      }
      assertArrayEquals(first, last, "the same input gives the same output throughout");
    }
    StringBuilder report = new StringBuilder("predict loop of " + CALLS + " calls: calls,"
        + " live native objects (total, tensor handles, tensor bytes), RSS kB, heap committed kB"
        + "\n");
    for (int s = 0; s <= SAMPLES; s++) {
      report.append(String.format("  %8d  %4d %4d %8d  %8d %8d%n", s * (CALLS / SAMPLES),
          seen[s].total(), seen[s].tensorHandles(), seen[s].tensorBytes(), rssKb[s],
          heapKb[s]));
    }
    System.out.print(report);
    for (int s = 1; s <= SAMPLES; s++) {
      assertEquals(seen[0], seen[s], "live native objects after " + s * (CALLS / SAMPLES)
          + " more calls\n" + report);
    }
    assertEquals(start, TensorFlow.liveObjects(), "native objects after closing the model");
  }

  /** The resident set size from /proc/self/status (0 where there is none). */
  static long rssKb() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return 0;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return 0;
  }
}
