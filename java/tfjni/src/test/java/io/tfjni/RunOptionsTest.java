package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.eager.EagerContext;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Run options (timeout, trace level, raw bytes), run metadata and device listing. The oracle is
 * TensorFlow Python: the slow_loop golden, the frozen graph's nodes in Python's trace, Python's
 * session devices and its RunOptions bytes (manifest.json).
 */
@ExtendWith(TestModels.NoLeaks.class)
class RunOptionsTest {
  /** The loop takes about a second: a 1 ms deadline always expires inside it. */
  private static final RunOptions ONE_MILLISECOND = RunOptions.defaults().withTimeoutMillis(1);

  private static JsonNode slowCall() {
    return TestModels.testCase("slow_loop_spin").path("calls").get(0);
  }

  private static Map<String, Tensor> slowInputs() {
    return TestModels.tensors(slowCall().path("inputs"));
  }

  private static void closeAll(Map<String, Tensor> tensors) {
    tensors.values().forEach(Tensor::close);
  }

  private static void assertDeadlineExceeded(Runnable run) {
    TensorFlowException e = assertThrows(TensorFlowException.class, run::run);
    assertEquals(TensorFlowException.Code.DEADLINE_EXCEEDED, e.code(), e.getMessage());
  }

  @Test
  void aPredictorsTimeoutGivesDeadlineExceededAndTheModelStaysUsable() {
    Map<String, Tensor> in = slowInputs();
    try (SavedModel model = SavedModel.load(TestModels.modelPath("slow_loop"));
        Predictor plain = model.predictor("spin", List.of("seed", "iterations"), List.of());
        Predictor timed = plain.withOptions(ONE_MILLISECOND);
        RunResult result = timed.newResult()) {
      Tensor[] inputs = {in.get("seed"), in.get("iterations")};
      assertDeadlineExceeded(() -> timed.run(inputs, result));
      assertEquals(ONE_MILLISECOND, timed.options());
      assertTrue(plain.options().isDefault(), "withOptions leaves the original predictor alone");
      try (RunResult untimed = plain.run(inputs)) {
        TestModels.assertTensor(slowCall().path("outputs").path("value"), untimed.get("value"),
            true, "the call after the timeout");
      }
    } finally {
      closeAll(in);
    }
  }

  @Test
  void aMapApiCallsTimeoutGivesDeadlineExceededAndTheNextCallSucceeds() {
    Map<String, Tensor> in = slowInputs();
    try (SavedModel model = SavedModel.load(TestModels.modelPath("slow_loop"))) {
      assertDeadlineExceeded(() -> model.run("spin", in, ONE_MILLISECOND).close());
      try (RunResult untimed = model.run("spin", in, RunOptions.defaults().withTimeoutMillis(0))) {
        TestModels.assertTensor(slowCall().path("outputs").path("value"), untimed.get("value"),
            true, "the call after the timeout (timeout 0: none)");
      }
    } finally {
      closeAll(in);
    }
  }

  /**
   * TensorFlow Python 2.18, checked: with inter-op threads -1 the slow call and a 1 ms timeout run
   * to the end without an error. tfjni refuses the combination instead of ignoring the timeout.
   */
  @Test
  void aTimeoutOnACallerThreadModelIsRefused() {
    Map<String, Tensor> in = slowInputs();
    try (SavedModel model = SavedModel.load(TestModels.modelPath("slow_loop"),
        SessionOptions.defaults().runOnCallerThread(), "serve");
        Predictor plain = model.predictor("spin", List.of("seed", "iterations"), List.of())) {
      for (Runnable refused : List.<Runnable>of(() -> plain.withOptions(ONE_MILLISECOND),
          () -> model.run("spin", in, ONE_MILLISECOND).close())) {
        TensorFlowException e = assertThrows(TensorFlowException.class, refused::run);
        assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("calling thread"), e.getMessage());
      }
      RunOptions traceOnly = RunOptions.defaults().withTimeoutMillis(0)
          .withTraceLevel(RunOptions.TraceLevel.SOFTWARE_TRACE);
      plain.withOptions(traceOnly).close();
    } finally {
      closeAll(in);
    }
  }

  @Test
  void optionsEncodeAsTensorFlowPythonSerializesThem() {
    for (JsonNode c : TestModels.manifest().path("run_options_protos")) {
      JsonNode fields = c.path("options");
      RunOptions options = RunOptions.defaults();
      if (fields.has("timeout_in_ms")) {
        options = options.withTimeoutMillis(fields.path("timeout_in_ms").asLong());
      }
      if (fields.has("trace_level")) {
        options = options.withTraceLevel(
            RunOptions.TraceLevel.values()[fields.path("trace_level").asInt()]);
      }
      assertArrayEquals(Base64.getDecoder().decode(c.path("bytes").asText()), options.encoded(),
          c.path("name").asText());
    }
  }

  @Test
  void optionsAreValuesWithTheirSettings() {
    RunOptions options = RunOptions.defaults().withTimeoutMillis(5)
        .withTraceLevel(RunOptions.TraceLevel.FULL_TRACE).withRawOptions(new byte[] {0x18, 1});
    assertEquals(OptionalLong.of(5), options.timeoutMillis());
    assertEquals(RunOptions.TraceLevel.FULL_TRACE, options.traceLevel());
    assertArrayEquals(new byte[] {0x18, 1}, options.rawOptions());
    assertEquals(OptionalLong.empty(), RunOptions.defaults().timeoutMillis());
    assertEquals(RunOptions.TraceLevel.NO_TRACE, RunOptions.defaults().traceLevel());
    assertTrue(RunOptions.defaults().isDefault());
    assertFalse(options.isDefault());
    assertEquals(options, RunOptions.defaults().withTimeoutMillis(5)
        .withTraceLevel(RunOptions.TraceLevel.FULL_TRACE).withRawOptions(new byte[] {0x18, 1}));
  }

  @Test
  void badOptionsAreClearExceptions() {
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
        () -> RunOptions.defaults().withTimeoutMillis(-1));
    assertTrue(negative.getMessage().contains("-1"), negative.getMessage());
    assertThrows(NullPointerException.class, () -> RunOptions.defaults().withTraceLevel(null));
    assertThrows(NullPointerException.class, () -> RunOptions.defaults().withRawOptions(null));
    try (SavedModel multi = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = multi.predictor("add")) {
      assertThrows(NullPointerException.class, () -> add.withOptions(null));
      // A cut varint: not a sequence of whole fields, refused before any run.
      TensorFlowException cut = assertThrows(TensorFlowException.class,
          () -> add.withOptions(RunOptions.defaults().withRawOptions(new byte[] {0x10})));
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, cut.code());
      assertTrue(cut.getMessage().contains("whole fields"), cut.getMessage());
      Map<String, Tensor> in = new HashMap<>();
      in.put("a", Tensor.of(new float[] {1}, 1));
      in.put("b", Tensor.of(new float[] {2}, 1));
      try {
        assertThrows(NullPointerException.class, () -> multi.run("add", in, null));
        // Whole fields, but `experimental` (8) holds a cut varint: TensorFlow refuses to parse.
        RunOptions unparseable = RunOptions.defaults().withRawOptions(new byte[] {0x42, 1, -128});
        try (Predictor bad = add.withOptions(unparseable)) {
          TensorFlowException e = assertThrows(TensorFlowException.class,
              () -> bad.run(in.get("a"), in.get("b")).close());
          assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
          assertTrue(e.getMessage().contains("RunOptions"), e.getMessage());
        }
        try (RunResult sum = add.run(in.get("a"), in.get("b"))) {
          assertArrayEquals(new float[] {3}, sum.get("sum").toFloatArray());
        }
      } finally {
        closeAll(in);
      }
    }
  }

  @Test
  void closedPredictorsAndModelsRefuseOptionsAndDevices() {
    SavedModel multi = SavedModel.load(TestModels.modelPath("multi"));
    Predictor add = multi.predictor("add");
    Predictor timed = add.withOptions(RunOptions.defaults().withTimeoutMillis(1000));
    add.close();
    assertThrows(IllegalStateException.class, () -> add.withOptions(RunOptions.defaults()));
    assertFalse(timed.isClosed(), "a predictor made with options is its own");
    multi.close();
    assertTrue(timed.isClosed(), "closing the model closes the predictors made with options");
    assertThrows(IllegalStateException.class, multi::listDevices);
    try (Tensor a = Tensor.of(new float[] {1}, 1)) {
      assertThrows(IllegalStateException.class, () -> timed.run(a, a).close());
      assertThrows(IllegalStateException.class,
          () -> timed.runWithMetadata(new Tensor[] {a, a}, timed.newResult()));
    }
  }

  @Test
  void stepStatsNameTheNodesTensorFlowPythonTraced() {
    JsonNode frozen = TestModels.manifest().path("models").path("frozen");
    try (GraphModel model = GraphModel.load(TestModels.modelPath("frozen"));
        Predictor plain = model.predictor(List.of(frozen.path("inputs").get(0).asText()),
            List.of(frozen.path("outputs").get(0).asText()));
        Predictor traced = plain.withOptions(
            RunOptions.defaults().withTraceLevel(RunOptions.TraceLevel.SOFTWARE_TRACE));
        RunResult result = traced.newResult();
        Tensor x = Tensor.of(new float[8], 4, 2)) {
      RunMetadata metadata = traced.runWithMetadata(new Tensor[] {x}, result);
      assertTrue(metadata.bytes().length > 0);
      Map<String, NodeStats> byName = new HashMap<>();
      metadata.stepStats().forEach(node -> byName.put(node.nodeName(), node));
      String cpu = TestModels.manifest().path("devices").get(0).path("name").asText();
      JsonNode expected = TestModels.manifest().path("frozen_traced_nodes");
      assertTrue(expected.size() > 0);
      for (String name : TestModels.fieldNames(expected)) {
        NodeStats node = byName.get(name);
        assertNotNull(node, "node " + name + " is not in " + byName.keySet());
        assertEquals(expected.path(name).asText(), node.op(), name);
        assertEquals(cpu, node.device(), name);
        assertTrue(node.allStartMicros() > 0, name);
        assertTrue(node.durationMicros() >= node.opEndRelMicros(), name);
      }
      assertEquals(4, result.get(0).shape()[0], "the traced run computed its output");
      try (RunResult untraced = plain.newResult()) {
        assertTrue(plain.runWithMetadata(new Tensor[] {x}, untraced).stepStats().isEmpty(),
            "NO_TRACE records no step statistics");
      }
    }
  }

  private static void assertPythonDevices(List<Device> devices) {
    JsonNode expected = TestModels.manifest().path("devices");
    assertEquals(expected.size(), devices.size(), devices.toString());
    for (int i = 0; i < devices.size(); i++) {
      assertEquals(expected.get(i).path("name").asText(), devices.get(i).name());
      assertEquals(expected.get(i).path("type").asText(), devices.get(i).type());
      assertEquals(expected.get(i).path("memory_limit_bytes").asLong(),
          devices.get(i).memoryBytes());
    }
  }

  @Test
  void devicesAreTheOnesTensorFlowPythonLists() {
    try (SavedModel multi = SavedModel.load(TestModels.modelPath("multi"));
        GraphModel frozen = GraphModel.load(TestModels.modelPath("frozen"))) {
      assertPythonDevices(multi.listDevices());
      assertPythonDevices(frozen.listDevices());
    }
    EagerContext context = EagerContext.create(SessionOptions.defaults(), false,
        EagerContext.DevicePlacement.SILENT);
    try {
      List<Device> devices = context.listDevices();
      assertPythonDevices(devices);
      assertEquals(context.devices(), devices.stream().map(Device::name).toList());
    } finally {
      context.close();
    }
    assertThrows(IllegalStateException.class, context::listDevices);
  }
}
