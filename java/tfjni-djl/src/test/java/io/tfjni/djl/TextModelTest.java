package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.NoBatchifyTranslator;
import ai.djl.translate.TranslatorContext;
import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.LiveObjects;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A model with string input through a Translator: the test models' {@code strings} SavedModel
 * (signature transform: s -> upper, length, joined), against TensorFlow Python's outputs in the
 * manifest (case strings_transform; its UTF-8 texts, not the one of raw bytes).
 */
class TextModelTest {

  /** Texts in; for each, its upper-case form and its length in bytes. */
  static final class TextTranslator implements NoBatchifyTranslator<String[], String[]> {
    @Override
    public NDList processInput(TranslatorContext ctx, String[] texts) {
      NDArray s = ctx.getNDManager().create(texts);
      s.setName("s");
      return new NDList(s);
    }

    @Override
    public String[] processOutput(TranslatorContext ctx, NDList list) {
      NDArray upper = list.get("upper");
      NDArray length = list.get("length");
      String[] texts = upper.toStringArray(StandardCharsets.UTF_8);
      int[] bytes = length.toIntArray();
      String[] out = new String[texts.length];
      for (int i = 0; i < texts.length; i++) {
        out[i] = texts[i] + "|" + bytes[i];
      }
      return out;
    }
  }

  private static String utf8(JsonNode base64) {
    return new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.UTF_8);
  }

  @Test
  void stringsGoInAndComeOutThroughATranslator() throws Exception {
    JsonNode call = TestModels.testCase("strings_transform").path("calls").get(0);
    JsonNode in = call.path("inputs").path("s").path("strings");
    JsonNode upper = call.path("outputs").path("upper").path("strings");
    int[] lengths;
    try (Tensor length = TestModels.tensor(call.path("outputs").path("length"))) {
      lengths = length.toIntArray();
    }
    List<String> texts = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < in.size(); i++) {
      byte[] raw = Base64.getDecoder().decode(in.get(i).asText());
      if (!new String(raw, StandardCharsets.UTF_8).equals(utf8(in.get(i)))
          || utf8(in.get(i)).contains("\uFFFD")) {
        continue;  // raw bytes, not text: a String cannot carry them
      }
      texts.add(utf8(in.get(i)));
      expected.add(utf8(upper.get(i)) + "|" + lengths[i]);
    }
    assertEquals(4, texts.size(), "the manifest's UTF-8 texts");
    ai.djl.engine.Engine.getEngine("TensorFlow");  // its eager context lives on
    LiveObjects before = TensorFlow.liveObjects();
    Criteria<String[], String[]> criteria = Criteria.builder()
        .setTypes(String[].class, String[].class)
        .optModelPath(TestModels.modelPath("strings")).optEngine("TensorFlow")
        .optOption("SignatureDefKey", "transform").optTranslator(new TextTranslator()).build();
    try (ZooModel<String[], String[]> model = criteria.loadModel();
        Predictor<String[], String[]> predictor = model.newPredictor()) {
      String[] got = predictor.predict(texts.toArray(new String[0]));
      assertArrayEquals(expected.toArray(new String[0]), got);
      // one text at a time gives the same
      assertArrayEquals(new String[] {expected.get(2)},
          predictor.predict(new String[] {texts.get(2)}));
    }
    assertEquals(before, TensorFlow.liveObjects(), "native objects after closing the model");
  }
}
