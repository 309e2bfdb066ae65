package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.TestModels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * saved_model.pb read without TensorFlow, against the manifest that TensorFlow Python wrote from
 * the same MetaGraphDefs: tags, every SignatureDef's method, inputs and outputs.
 */
class SavedModelInfoTest {
  @Test
  void signaturesMatchTensorFlowPython() {
    JsonNode models = TestModels.manifest().path("models");
    int checked = 0;
    for (Map.Entry<String, JsonNode> model : models.properties()) {
      if (!model.getValue().path("kind").asText().equals("saved_model")) {
        continue;
      }
      SavedModelInfo info = SavedModelInfo.read(TestModels.modelPath(model.getKey()));
      List<String> tags = new ArrayList<>();
      model.getValue().path("tags").forEach(t -> tags.add(t.asText()));
      SavedModelInfo.MetaGraph metaGraph = info.metaGraph(String.join(",", tags));
      assertEquals(tags, metaGraph.tags(), model.getKey());
      JsonNode signatures = TestModels.manifest().path("signatures").path(model.getKey());
      assertEquals(TestModels.fieldNames(signatures).stream().sorted().toList(),
          new ArrayList<>(metaGraph.signatures.keySet()), model.getKey());
      for (Map.Entry<String, JsonNode> expected : signatures.properties()) {
        SavedModelInfo.SignatureInfo actual = metaGraph.signatures.get(expected.getKey());
        String what = model.getKey() + "/" + expected.getKey();
        assertEquals(expected.getValue().path("method").asText(), actual.methodName(), what);
        assertTensorInfos(expected.getValue().path("inputs"), actual.inputs(), what);
        assertTensorInfos(expected.getValue().path("outputs"), actual.outputs(), what);
        checked++;
      }
      assertTrue(!metaGraph.ops.isEmpty(), model.getKey() + " uses ops");
      // half_plus_two is a TF1 SavedModel (SavedModelBuilder): it has no object graph.
      assertEquals(!model.getKey().equals("half_plus_two"), metaGraph.functions != null,
          model.getKey() + " has an object graph");
    }
    assertTrue(checked >= 30, "signatures checked: " + checked);
  }

  private static void assertTensorInfos(JsonNode expected,
      Map<String, SavedModelInfo.TensorInfo> actual, String what) {
    assertEquals(TestModels.fieldNames(expected).stream().sorted().toList(),
        new ArrayList<>(actual.keySet()), what);
    for (Map.Entry<String, JsonNode> e : expected.properties()) {
      SavedModelInfo.TensorInfo info = actual.get(e.getKey());
      assertEquals(e.getValue().path("name").asText(), info.name(), what + " " + e.getKey());
      assertEquals(e.getValue().path("dtype_enum").asInt(), info.dtype(), what + " " + e.getKey());
      JsonNode shape = e.getValue().path("shape");
      if (shape.isNull()) {
        assertEquals(null, info.shape(), what + " " + e.getKey() + ": unknown rank");
      } else {
        long[] dims = new long[shape.size()];
        for (int i = 0; i < dims.length; i++) {
          dims[i] = shape.get(i).asLong();
        }
        assertArrayEquals(dims, info.shape(), what + " " + e.getKey());
      }
    }
  }

  @Test
  void corruptFilesAreCliErrors(@TempDir Path dir) throws IOException {
    byte[] good = Files.readAllBytes(TestModels.modelPath("multi").resolve("saved_model.pb"));
    Path truncated = Files.createDirectories(dir.resolve("truncated"));
    Files.write(truncated.resolve("saved_model.pb"), java.util.Arrays.copyOf(good, 1000));
    CliException e = assertThrows(CliException.class, () -> SavedModelInfo.read(truncated));
    assertTrue(e.getMessage().startsWith("malformed " + truncated.resolve("saved_model.pb")),
        e.getMessage());
    Path text = Files.createDirectories(dir.resolve("text"));
    Files.writeString(text.resolve("saved_model.pbtxt"), "meta_graphs {}");
    e = assertThrows(CliException.class, () -> SavedModelInfo.read(text));
    assertTrue(e.getMessage().contains("text-format saved_model.pbtxt"), e.getMessage());
  }

  @Test
  void wireFormatEdgeCases() {
    // field 1 varint 300, field 2 fixed32, field 3 group { field 4 varint 1 }, field 5 "hi"
    byte[] message = {0x08, (byte) 0xac, 0x02, 0x15, 1, 2, 3, 4, 0x1b, 0x20, 1, 0x1c, 0x2a, 2,
        'h', 'i'};
    ProtoReader in = new ProtoReader(message);
    assertTrue(in.next());
    assertEquals(300, in.varint());
    assertTrue(in.next());
    in.skip();
    assertTrue(in.next());
    in.skip();
    assertTrue(in.next());
    assertEquals(5, in.field());
    assertEquals("hi", in.string());
    assertTrue(!in.next());
    assertThrows(IllegalArgumentException.class, () -> {
      ProtoReader r = new ProtoReader(new byte[] {0x0a, 5, 'a'});
      r.next();
      r.string();
    });
    assertThrows(IllegalArgumentException.class, () -> new ProtoReader(new byte[] {0x00}).next());
  }
}
