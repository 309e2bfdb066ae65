package io.tfjni.serving;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.batching.BatchedResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A versioned model loaded with {@link SessionOptions#preferLiteRt(int)}: digits, converted by
 * scripts/goldens/litert_convert.py (what {@code tfjni convert} runs) at batch 1 and 4, published with
 * its layout as versions 1 and 2. Its metrics show per version which batch sizes of which
 * signature run on LiteRT; runs of those sizes give TensorFlow Python's values within the
 * manifest's LiteRT tolerance, runs of another size TensorFlow Python's probabilities.
 */
@ExtendWith(TestModels.NoLeaks.class)
class ServingLiteRtTest {
  @TempDir
  Path temp;

  private VersionedModel build(Path base, SessionOptions options) {
    return VersionedModel.builder(base).pollInterval(Duration.ZERO).sessionOptions(options)
        .build();
  }

  @Test
  void theMetricsShowWhichSizesRunOnLiteRtAndTheValuesArePythons() throws IOException {
    Path base = Files.createDirectory(temp.resolve("digits"));
    VersionPublisher.publish(TestModels.modelPath("digits"), base, 1);
    VersionedModel model = build(base, SessionOptions.defaults().preferLiteRt(1));
    try {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      ServingBatchingPredictor batcher = model.batchingPredictor(SavedModel.DEFAULT_SIGNATURE,
          List.of("images"), List.of(), options -> options.maxBatchSize(4));
      Map<String, List<Integer>> expected = Map.of("serving_default", List.of(1, 4));
      assertEquals(expected, model.metrics().version(1).orElseThrow().liteRtBatchSizes());

      for (String name : new String[] {"litert_digits_b1", "litert_digits_b4"}) {
        JsonNode c = TestModels.liteRtCase(name);
        try (Tensor images = TestModels.tensor(c.path("inputs").path("images"));
            Tensor want = TestModels.tensor(c.path("outputs").path("output_0"));
            RunResult result = predictor.run(images);
            BatchedResult batched = batcher.predict(images)) {
          assertArrayEquals(want.shape(), result.get(0).shape(), name);
          TestModels.assertClose(want.toFloatArray(), result.get(0).toFloatArray(),
              c.path("tolerance").asDouble(), name);
          TestModels.assertClose(want.toFloatArray(), batched.get(0).toFloatArray(),
              c.path("tolerance").asDouble(), name + " through the batching predictor");
        }
      }
      // Batch 2 was not converted: TensorFlow's run, TensorFlow Python's probabilities (the
      // first two of the manifest's batch of 7).
      JsonNode seven = TestModels.testCase("digits_batch7").path("calls").get(0);
      try (Tensor all = TestModels.tensor(seven.path("inputs").path("images"));
          Tensor probs = TestModels.tensor(seven.path("outputs").path("output_0"));
          Tensor two = Tensor.of(Arrays.copyOf(all.toFloatArray(), 2 * 64), 2, 8, 8, 1);
          RunResult result = predictor.run(two)) {
        TestModels.assertClose(Arrays.copyOf(probs.toFloatArray(), 2 * 10),
            result.get(0).toFloatArray(), TestModels.FLOAT_TOLERANCE, "batch 2");
      }

      VersionPublisher.publish(TestModels.modelPath("digits"), base, 2);
      model.refresh();  // seen once: complete when it is unchanged at the next scan
      ServingStatus status = model.refresh();
      assertEquals(2, model.servingVersion(), status::toString);
      assertEquals(expected, model.metrics().version(2).orElseThrow().liteRtBatchSizes(),
          "the held predictors, prepared on the new version");
    } finally {
      model.close();
    }
  }

  @Test
  void withoutThePreferenceOrInAnotherOrderEverySizeRunsOnTensorFlow() throws IOException {
    Path base = Files.createDirectory(temp.resolve("half_plus_two"));
    VersionPublisher.publish(TestModels.modelPath("half_plus_two"), base, 1);
    VersionedModel plain = build(base, SessionOptions.defaults());
    try {
      plain.predictor("plus_offset");
      assertEquals(Map.of(), plain.metrics().version(1).orElseThrow().liteRtBatchSizes());
    } finally {
      plain.close();
    }
    VersionedModel preferring = build(base, SessionOptions.defaults().preferLiteRt(1));
    try {
      // x before offset: not the key order a LiteRT predictor feeds.
      ServingPredictor reordered = preferring.predictor("plus_offset", List.of("x", "offset"),
          List.of());
      assertEquals(Map.of(), preferring.metrics().version(1).orElseThrow().liteRtBatchSizes());
      try (Tensor x = Tensor.of(new float[] {1, -2, 10}, 3, 1);
          Tensor offset = Tensor.scalar(-7.25f); RunResult result = reordered.run(x, offset)) {
        assertArrayEquals(new float[] {0.5f - 7.25f, -1 - 7.25f, 5 - 7.25f},
            result.get(0).toFloatArray());
      }
      preferring.predictor("plus_offset");
      assertEquals(Map.of("plus_offset", List.of(3)),
          preferring.metrics().version(1).orElseThrow().liteRtBatchSizes());
    } finally {
      preferring.close();
    }
  }
}
