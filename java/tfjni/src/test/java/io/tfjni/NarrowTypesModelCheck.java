package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A SavedModel of TensorFlow 2.21 Python whose signature takes and returns tensors of the
 * one-byte types (float8, float4, int4, int2), run on TensorFlow 2.21's libtensorflow; expected
 * values are TensorFlow Python's (scripts/goldens/generate_narrow_types_model.py).
 *
 * <p>Not a default test (the name does not end in "Test"): it needs that model and a
 * libtensorflow of 2.21 or later, which scripts/test/tf-versions.sh provides when it tests 2.21,
 * running this class alone with {@code -Dtest=NarrowTypesModelCheck
 * -Dtfjni.test.narrow_types_model=DIR}.
 */
@ExtendWith(TestModels.NoLeaks.class)
class NarrowTypesModelCheck {
  private static Path modelDir() {
    String dir = System.getProperty("tfjni.test.narrow_types_model");
    assertNotNull(dir, "set tfjni.test.narrow_types_model to the generator's output directory");
    return Path.of(dir);
  }

  private static JsonNode expected() throws IOException {
    return new ObjectMapper().readTree(Files.readString(modelDir().resolve("expected.json")));
  }

  @Test
  void signatureHasTensorFlowsTypes() throws IOException {
    JsonNode expected = expected();
    try (SavedModel model = SavedModel.load(modelDir().resolve("model"))) {
      Signature signature = model.signature(expected.path("signature").asText());
      for (String side : List.of("inputs", "outputs")) {
        expected.path(side).properties().forEach(entry -> {
          TensorSpec spec = side.equals("inputs") ? signature.input(entry.getKey())
              : signature.output(entry.getKey());
          int code = entry.getValue().path("dtype_enum").asInt();
          assertSame(DataType.fromCode(code), spec.dataType(), side + " " + entry.getKey());
          if (code >= DataType.FLOAT8_E5M2.code()) {  // ml_dtypes' names are the enum's
            assertEquals(entry.getValue().path("dtype").asText().toUpperCase(Locale.ROOT),
                spec.dataType().name(), side + " " + entry.getKey());
          }
        });
      }
    }
  }

  @Test
  void runGivesTensorFlowPythonsBytes() throws IOException {
    JsonNode expected = expected();
    HexFormat hex = HexFormat.of();
    Map<String, Tensor> inputs = new LinkedHashMap<>();
    try (SavedModel model = SavedModel.load(modelDir().resolve("model"))) {
      expected.path("inputs").properties().forEach(entry -> {
        JsonNode input = entry.getValue();
        inputs.put(entry.getKey(), Tensor.of(DataType.fromCode(input.path("dtype_enum").asInt()),
            hex.parseHex(input.path("bytes_hex").asText()), TestModels.shape(input)));
      });
      try (RunResult result = model.run(expected.path("signature").asText(), inputs)) {
        assertEquals(expected.path("outputs").size(), result.size());
        expected.path("outputs").properties().forEach(entry -> {
          JsonNode output = entry.getValue();
          Tensor actual = result.get(entry.getKey());
          assertSame(DataType.fromCode(output.path("dtype_enum").asInt()), actual.dataType(),
              entry.getKey());
          assertArrayEquals(TestModels.shape(output), actual.shape(), entry.getKey());
          // Little-endian bytes from Python; this machine (x86_64, aarch64) is little-endian.
          assertArrayEquals(hex.parseHex(output.path("bytes_hex").asText()),
              TestModels.bufferBytes(actual), entry.getKey());
        });
      }
    } finally {
      inputs.values().forEach(Tensor::close);
    }
  }

  @Test
  void theModelComesFromTensorFlow221AndRunsOnIt() throws IOException {
    assertTrue(expected().path("tensorflow_version").asText().startsWith("2.21."),
        expected().path("tensorflow_version").asText());
    assertTrue(TensorFlow.version().startsWith("2.21."), TensorFlow.version());
  }
}
