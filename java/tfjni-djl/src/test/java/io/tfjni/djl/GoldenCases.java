package io.tfjni.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.TestModels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The named cases of a golden file that a scripts/djl_*_goldens.py script wrote into the test
 * models' directory, under the same oneDNN setting as the test models ({@link TestModels}).
 */
final class GoldenCases {
  private final JsonNode cases;

  GoldenCases(String fileName) {
    TestModels.manifest();  // refuses goldens made under another oneDNN setting
    Path file = TestModels.dir().resolve(fileName);
    try {
      cases = new ObjectMapper().readTree(file.toFile()).get("cases");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  Stream<String> names() {
    List<String> names = new ArrayList<>();
    cases.forEach(c -> names.add(c.get("name").asText()));
    return names.stream();
  }

  /** A case's FLOAT32 array ({@code data} and {@code shape}), made by {@code manager}. */
  static NDArray array(NDManager manager, JsonNode t) {
    float[] data = new float[t.get("data").size()];
    for (int i = 0; i < data.length; i++) {
      data[i] = (float) t.get("data").get(i).asDouble();
    }
    return manager.create(data, shape(t.get("shape")));
  }

  /** A case's list of dimensions as a shape. */
  static Shape shape(JsonNode dims) {
    long[] out = new long[dims.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = dims.get(i).asLong();
    }
    return new Shape(out);
  }

  JsonNode byName(String name) {
    for (JsonNode c : cases) {
      if (c.get("name").asText().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(name);
  }
}
