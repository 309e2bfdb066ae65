package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import io.tfjni.eager.ResizeMethod;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The README's pipeline, as written there: decode an image file, resize, normalise, run the CNN
 * SavedModel, take the top 5. TensorFlow Python ran the same steps on the same files
 * (generate_models.py, build_digit_pipeline) for the expected indices and probabilities.
 */
@ExtendWith(TestModels.NoLeaks.class)
class PipelineTest {

  @ParameterizedTest
  @ValueSource(strings = {"png", "jpeg"})
  void decodeResizeNormaliseClassifyTopFive(String format) throws Exception {
    JsonNode expected = TestModels.manifest().at("/models/digits/pipeline");
    Path imageFile = TestModels.dir().resolve(expected.get(format).asText());
    Path modelDir = TestModels.modelPath("digits");

    // --- as in README.md, "Eager pre- and post-processing" ---
    try (SavedModel model = SavedModel.load(modelDir);
        Predictor predictor = model.predictor("serving_default");
        NDManager manager = NDManager.newBaseManager()) {
      NDArray image = manager.decodeImage(Files.readAllBytes(imageFile), 1); // UINT8 [h, w, 1]
      NDArray input = image.cast(DataType.FLOAT)
          .resize(8, 8, ResizeMethod.BILINEAR)
          .div(255f)
          .expandDims(0);                                                    // FLOAT [1, 8, 8, 1]
      try (Tensor batch = input.toTensor();
          RunResult result = predictor.run(batch)) {
        NDArray[] top5 = manager.from(result.get(0)).topK(5);               // {values, indices}
        float[] probabilities = top5[0].toFloatArray();
        int[] digits = top5[1].toIntArray();
        // --- end of the README's code ---

        JsonNode top = expected.get(format + "_top5");
        int[] expectedDigits = new int[5];
        float[] expectedProbabilities = new float[5];
        for (int i = 0; i < 5; i++) {
          expectedDigits[i] = top.get("indices").get(i).asInt();
          expectedProbabilities[i] = (float) top.get("values").get(i).asDouble();
        }
        assertArrayEquals(expectedDigits, digits);
        assertArrayEquals(expectedProbabilities, probabilities, 1e-6f);
        assertEquals(expected.get("label").asInt(), digits[0]);
      }
    }
  }
}
