package io.tfjni.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The named cases of a golden file written by a scripts/djl_*_goldens.py script. */
final class GoldenCases {
  private final JsonNode cases;

  GoldenCases(String resource) {
    try (InputStream in = GoldenCases.class.getResourceAsStream(resource)) {
      cases = new ObjectMapper().readTree(in).get("cases");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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
