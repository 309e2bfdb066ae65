package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.inference.Predictor;
import ai.djl.modality.Classifications;
import ai.djl.modality.cv.Image;
import ai.djl.modality.cv.ImageFactory;
import ai.djl.modality.cv.transform.Resize;
import ai.djl.modality.cv.transform.ToTensor;
import ai.djl.modality.cv.translator.ImageClassificationTranslator;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * End to end as a DJL user classifies an image: an image file, Criteria with DJL's
 * ImageClassificationTranslator (Resize, ToTensor, softmax, top-5) on the test models'
 * MobileNetV2 SavedModel (keras.applications.MobileNetV2, weights=None, fixed seeds; see
 * scripts/goldens/generate_models.py), giving TensorFlow Python's top-5 classes and probabilities.
 */
class ImageClassificationTest {

  @Test
  void mobileNetV2GivesTensorFlowPythonsTopFive() throws Exception {
    JsonNode entry = TestModels.manifest().path("models").path("mobilenet_v2");
    JsonNode top5 = entry.path("top5");
    List<String> classes = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      classes.add("class_" + i);
    }
    Path modelDir = TestModels.modelPath("mobilenet_v2");
    Path imageFile = TestModels.dir().resolve(entry.path("image").asText());
    Engine.getEngine("TensorFlow");  // its eager context lives on
    LiveObjects before = TensorFlow.liveObjects();
    // --- as in tfjni-djl/README.md ---
    ImageClassificationTranslator translator = ImageClassificationTranslator.builder()
        .addTransform(new Resize(224, 224))
        .addTransform(new ToTensor())       // HWC floats / 255 for an engine named TensorFlow
        .optSynset(classes).optApplySoftmax(true).optTopK(5)
        .build();
    Criteria<Image, Classifications> criteria = Criteria.builder()
        .setTypes(Image.class, Classifications.class)
        .optModelPath(modelDir)
        .optEngine("TensorFlow")            // tfjni-djl, when it is the TensorFlow engine present
        .optTranslator(translator)
        .build();
    Image image = ImageFactory.getInstance().fromFile(imageFile);
    try (ZooModel<Image, Classifications> model = criteria.loadModel();
        Predictor<Image, Classifications> predictor = model.newPredictor()) {
      Classifications result = predictor.predict(image);
      List<Classifications.Classification> best = result.topK(5);
      // --- end of the README's code ---
      assertTopFive(top5, best);
      assertTopFive(top5, predictor.batchPredict(List.of(image, image)).get(1).topK(5));
    }
    assertEquals(before, TensorFlow.liveObjects(), "native objects after closing the model");
  }

  private static void assertTopFive(JsonNode top5, List<Classifications.Classification> best) {
    assertEquals(5, best.size());
    for (int i = 0; i < 5; i++) {
      assertEquals("class_" + top5.path("indices").get(i).asInt(), best.get(i).getClassName(),
          "rank " + i);
      double want = top5.path("values").get(i).asDouble();
      assertEquals(want, best.get(i).getProbability(), 1e-5 + 1e-4 * want, "rank " + i);
    }
  }

  /** The README shows the code between the markers above, line for line. */
  @Test
  void theReadmeShowsThisTestsCode() throws Exception {
    String test = Files.readString(Path.of(
        "src/test/java/io/tfjni/djl/ImageClassificationTest.java"));
    String readme = Files.readString(Path.of("README.md"));
    String begin = "// --- as in tfjni-djl/README.md ---";
    String code = test.substring(test.indexOf(begin) + begin.length(),
        test.indexOf("// --- end of the README's code ---"));
    int at = readme.indexOf("```java\n", readme.indexOf("## A complete example"));
    String shown = readme.substring(at + 8, readme.indexOf("```", at + 8));
    // the README closes the try block the test goes on in
    assertEquals(normalized(code) + "\n}", normalized(shown));
  }

  private static String normalized(String code) {
    return code.lines().map(String::strip).filter(l -> !l.isEmpty())
        .collect(java.util.stream.Collectors.joining("\n"));
  }
}
