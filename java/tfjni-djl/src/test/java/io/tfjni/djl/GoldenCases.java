package io.tfjni.djl;

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

  JsonNode byName(String name) {
    for (JsonNode c : cases) {
      if (c.get("name").asText().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(name);
  }
}
