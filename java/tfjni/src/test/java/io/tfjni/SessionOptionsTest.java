package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SessionOptions' typed settings (threads, soft placement, the GPU options) against TensorFlow
 * Python: each of the manifest's config cases, set through the Java API, must give exactly the
 * bytes of Python's {@code ConfigProto.SerializeToString()} for the same fields.
 */
@ExtendWith(TestModels.NoLeaks.class)
class SessionOptionsTest {

  /** The options of one manifest case, through the typed setters; fails on an unknown key. */
  private static SessionOptions fromManifest(JsonNode options) {
    SessionOptions session = SessionOptions.defaults();
    for (Map.Entry<String, JsonNode> option : options.properties()) {
      JsonNode value = option.getValue();
      switch (option.getKey()) {
        case "intra_op_threads" -> session.intraOpThreads(value.asInt());
        case "inter_op_threads" -> session.interOpThreads(value.asInt());
        case "use_per_session_threads" -> session.usePerSessionThreads(value.asBoolean());
        case "session_inter_op_thread_pool" -> {
          for (JsonNode pool : value) {
            session.addSessionInterOpThreadPool(pool.path("num_threads").asInt(),
                pool.has("global_name") ? pool.path("global_name").asText() : null);
          }
        }
        case "allow_soft_placement" -> session.allowSoftPlacement(value.asBoolean());
        case "gpu_allow_growth" -> session.gpuAllowGrowth(value.asBoolean());
        case "gpu_memory_fraction" -> session.gpuMemoryFraction(value.asDouble());
        case "gpu_visible_devices" -> session.gpuVisibleDevices(value.asText());
        default -> fail("unknown config option '" + option.getKey() + "' in manifest.json");
      }
    }
    return session;
  }

  @Test
  void everyManifestCaseSerializesLikeTensorFlowPython() {
    JsonNode cases = TestModels.manifest().path("config_protos");
    assertTrue(cases.size() > 0, "no config_protos in the manifest");
    boolean sawGpuOptions = false;
    for (JsonNode configCase : cases) {
      byte[] expected = Base64.getDecoder().decode(configCase.path("bytes").asText());
      byte[] actual = fromManifest(configCase.path("options")).toConfigProto();
      assertArrayEquals(expected, actual, configCase.path("name").asText() + " "
          + configCase.path("options") + ": Python " + HexFormat.of().formatHex(expected)
          + ", tfjni " + HexFormat.of().formatHex(actual));
      sawGpuOptions |= configCase.path("options").has("gpu_memory_fraction");
    }
    assertTrue(sawGpuOptions, "the manifest has no case with GPU options");
  }

  @Test
  void defaultsAreAnEmptyConfigProto() {
    assertEquals(0, SessionOptions.defaults().toConfigProto().length);
  }

  @Test
  void aRefusedCombinationIsATensorFlowExceptionWithItsCode() {
    SessionOptions refused = SessionOptions.defaults().runOnCallerThread()
        .usePerSessionThreads(true);
    TensorFlowException error = assertThrows(TensorFlowException.class, refused::toConfigProto);
    assertEquals("INVALID_ARGUMENT", error.code().name(), error.getMessage());
  }
}
