package io.tfjni.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlowException;
import io.tfjni.TestModels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up file TensorFlow Python wrote for the dtypes model (scripts/goldens/warmup_requests.py): read
 * into tensors equal to tf.make_ndarray's, run to the outputs Python recorded, replayed through
 * the model; damaged copies refused naming the record, with nothing left open.
 */
@ExtendWith(TestModels.NoLeaks.class)
class WarmupRequestsTest {
  private static JsonNode warmup() {
    return TestModels.manifest().path("warmup");
  }

  private static Path exportDir() {
    return TestModels.modelPath(warmup().path("model").asText());
  }

  private static JsonNode records() {
    return warmup().path("records");
  }

  @Test
  void readGivesTheValuesAndOutputsTensorFlowPythonGave() {
    List<WarmupRequests.Request> requests = WarmupRequests.read(exportDir().resolve(WarmupRequests.FILE));
    try (SavedModel model = SavedModel.load(exportDir())) {
      assertEquals(records().size(), requests.size());
      for (int i = 0; i < requests.size(); i++) {
        WarmupRequests.Request request = requests.get(i);
        JsonNode record = records().get(i);
        String what = "record " + i + " (" + record.path("encoding").asText() + ")";
        assertEquals(record.path("record_index").asInt(), request.recordIndex(), what);
        assertEquals(record.path("signature").asText(), request.signatureKey(), what);
        assertEquals(List.of("x"), List.copyOf(request.inputs().keySet()), what);
        TestModels.assertTensor(record.path("inputs").path("x"), request.inputs().get("x"), true, what);
        List<String> filter = request.outputFilter();
        try (Predictor predictor = model.predictor(request.signatureKey(), List.of("x"), filter);
            RunResult result = predictor.run(request.inputs().get("x"))) {
          assertEquals(record.path("outputs").size(), result.size(), what);
          for (String key : result.keys()) {
            TestModels.assertTensor(record.path("outputs").path(key), result.get(key), true, what + " " + key);
          }
        }
      }
    } finally {
      requests.forEach(WarmupRequests.Request::close);
    }
  }

  @Test
  void replayRunsEveryRecordThroughTheModel() {
    try (SavedModel model = SavedModel.load(exportDir())) {
      assertEquals(records().size(), WarmupRequests.replay(model, exportDir()));
      assertEquals(records().size(), WarmupRequests.replay(model, exportDir(), 3));
    }
  }

  @Test
  void aModelWithoutAWarmupFileHasNothingToReplay(@TempDir Path dir) {
    try (SavedModel model = SavedModel.load(exportDir())) {
      assertEquals(0, WarmupRequests.replay(model, dir));
    }
  }

  /** A copy of the Python file with one bit of its last byte (the last record's CRC) flipped. */
  private static Path damagedCopy(Path dir) throws IOException {
    byte[] bytes = Files.readAllBytes(exportDir().resolve(WarmupRequests.FILE));
    bytes[bytes.length - 1] ^= 0x10;
    Path file = dir.resolve(WarmupRequests.FILE);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
    return file;
  }

  @Test
  void aDamagedFileIsRefusedNamingTheRecordAndRunsNothing(@TempDir Path dir) throws IOException {
    Path file = damagedCopy(dir);
    int last = records().size() - 1;
    TensorFlowException read = assertThrows(TensorFlowException.class, () -> WarmupRequests.read(file));
    assertEquals(TensorFlowException.Code.DATA_LOSS, read.code());
    assertTrue(read.getMessage().contains("record " + last) && read.getMessage().contains("CRC"),
        read.getMessage());
    try (SavedModel model = SavedModel.load(exportDir())) {
      TensorFlowException replay =
          assertThrows(TensorFlowException.class, () -> WarmupRequests.replay(model, dir));
      assertEquals(TensorFlowException.Code.DATA_LOSS, replay.code());
    }
  }

  @Test
  void aRequestTheModelRefusesNamesItsRecord(@TempDir Path dir) throws IOException {
    // The file of the dtypes model replayed on the multi model, which has none of its signatures.
    Files.createDirectories(dir.resolve(WarmupRequests.FILE).getParent());
    Files.copy(exportDir().resolve(WarmupRequests.FILE), dir.resolve(WarmupRequests.FILE));
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"))) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> WarmupRequests.replay(model, dir));
      assertTrue(e.getMessage().startsWith("warm-up record 0 (signature \"float32\"): "),
          e.getMessage());
    }
  }

  @Test
  void badArgumentsAreRefused() {
    Path missing = exportDir().resolve("no-such-file");
    TensorFlowException e = assertThrows(TensorFlowException.class, () -> WarmupRequests.read(missing));
    assertEquals(TensorFlowException.Code.NOT_FOUND, e.code());
    assertThrows(NullPointerException.class, () -> WarmupRequests.read(null));
    try (SavedModel model = SavedModel.load(exportDir())) {
      assertThrows(IllegalArgumentException.class, () -> WarmupRequests.replay(model, exportDir(), 0));
      assertThrows(NullPointerException.class, () -> WarmupRequests.replay(null, exportDir()));
      assertThrows(NullPointerException.class, () -> WarmupRequests.replay(model, null));
    }
  }

  @Test
  void aClosedRequestsTensorsAreClosed() {
    List<WarmupRequests.Request> requests = WarmupRequests.read(exportDir().resolve(WarmupRequests.FILE));
    requests.forEach(WarmupRequests.Request::close);
    Tensor x = requests.get(0).inputs().get("x");
    assertThrows(IllegalStateException.class, x::shape);
    requests.get(0).close();  // closing twice is harmless
  }
}
