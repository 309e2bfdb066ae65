package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.internal.NDArrayEx;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.recurrent.GRU;
import ai.djl.nn.recurrent.LSTM;
import ai.djl.nn.recurrent.RNN;
import ai.djl.nn.recurrent.RecurrentBlock;
import ai.djl.training.ParameterStore;
import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NDArrayEx.rnn / gru / lstm against djl_recurrent_goldens.json, written by
 * scripts/goldens/djl_recurrent_goldens.py from Keras' SimpleRNN, GRU(reset_after=True) and LSTM with
 * DJL's weights rearranged into Keras' layout (and checked there against a numpy loop over
 * PyTorch's formulas).
 */
class RecurrentTest extends ManagerTest {
  private static final GoldenCases CASES = new GoldenCases("djl_recurrent_goldens.json");

  static Stream<String> caseNames() {
    return CASES.names();
  }

  private static JsonNode byName(String name) {
    return CASES.byName(name);
  }

  private NDArray array(JsonNode t) {
    return GoldenCases.array(manager, t);
  }

  private static Shape shape(JsonNode dims) {
    return GoldenCases.shape(dims);
  }

  /** Runs the case's op with its inputs (and the given parameter list). */
  private static NDList run(String op, NDArray input, NDList states, NDList params,
      boolean hasBiases, int numLayers, boolean bidirectional, boolean batchFirst) {
    NDArrayEx ex = input.getNDArrayInternal();
    switch (op) {
      case "rnn_tanh":
      case "rnn_relu":
        return ex.rnn(input, states.get(0), params, hasBiases, numLayers,
            "rnn_relu".equals(op) ? RNN.Activation.RELU : RNN.Activation.TANH, 0, false,
            bidirectional, batchFirst);
      case "gru":
        return ex.gru(input, states.get(0), params, hasBiases, numLayers, 0, false,
            bidirectional, batchFirst);
      case "lstm":
        return ex.lstm(input, states, params, hasBiases, numLayers, 0, false, bidirectional,
            batchFirst);
      default:
        throw new IllegalArgumentException(op);
    }
  }

  /** FLOAT32: lstm runs as BlockLSTMV2, rnn and gru step by step. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("caseNames")
  void recurrentLayerGivesKerasValues(String name) {
    checkCase(name, DataType.FLOAT32);
  }

  /** FLOAT64 (no BlockLSTMV2 kernel): every cell step by step. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("caseNames")
  void recurrentLayerInFloat64GivesKerasValues(String name) {
    checkCase(name, DataType.FLOAT64);
  }

  private NDArray array(JsonNode t, DataType type) {
    NDArray f = array(t);
    return type == DataType.FLOAT32 ? f : f.toType(type, false);
  }

  private void checkCase(String name, DataType type) {
    JsonNode c = byName(name);
    JsonNode p = c.get("params");
    NDArray input = array(c.get("input"), type);
    NDList states = new NDList();
    c.get("states").forEach(s -> states.add(array(s, type)));
    NDList params = new NDList();
    c.get("weights").forEach(w -> params.add(array(w, type)));
    NDList out = run(c.get("op").asText(), input, states, params,
        p.get("hasBiases").asBoolean(), p.get("numLayers").asInt(),
        p.get("bidirectional").asBoolean(), p.get("batchFirst").asBoolean());
    JsonNode expected = c.get("expected");
    assertEquals(expected.size(), out.size(), name + ": outputs");
    String[] what = {"output", "hidden state", "cell state"};
    for (int k = 0; k < out.size(); k++) {
      JsonNode e = expected.get(k);
      assertArrayEquals(shape(e.get("shape")).getShape(), out.get(k).getShape().getShape(),
          name + ": " + what[k] + " shape");
      assertEquals(type, out.get(k).getDataType(), name + ": " + what[k] + " type");
      double[] actual = out.get(k).toType(DataType.FLOAT64, false).toDoubleArray();
      for (int i = 0; i < actual.length; i++) {
        double want = e.get("data").get(i).asDouble();
        assertEquals(want, actual[i], 2e-5 + 1e-4 * Math.abs(want),
            name + ": " + what[k] + " at " + i);
      }
    }
  }

  static Stream<String> batchFirstCaseNames() {
    return caseNames().filter(n -> byName(n).get("params").get("batchFirst").asBoolean());
  }

  /**
   * DJL's own RNN / GRU / LSTM blocks (frozen, for inference) with each parameter set by its
   * name: the order the blocks hand the parameters over must be the one the engine reads.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("batchFirstCaseNames")
  void djlRecurrentBlocksGiveKerasValues(String name) {
    JsonNode c = byName(name);
    JsonNode p = c.get("params");
    String op = c.get("op").asText();
    RecurrentBlock.BaseBuilder<?> builder;
    if (op.startsWith("rnn")) {
      builder = RNN.builder().setActivation("rnn_relu".equals(op) ? RNN.Activation.RELU
          : RNN.Activation.TANH);
    } else if ("gru".equals(op)) {
      builder = GRU.builder();
    } else {
      builder = LSTM.builder();
    }
    JsonNode state = c.get("states").get(0).get("shape");
    builder.setStateSize(state.get(2).asInt()).setNumLayers(p.get("numLayers").asInt())
        .optBidirectional(p.get("bidirectional").asBoolean())
        .optHasBiases(p.get("hasBiases").asBoolean()).optBatchFirst(true).optReturnState(true);
    Block block = builder instanceof RNN.Builder ? ((RNN.Builder) builder).build()
        : builder instanceof GRU.Builder ? ((GRU.Builder) builder).build()
        : ((LSTM.Builder) builder).build();
    block.freezeParameters(true);
    for (int i = 0; i < c.get("weights").size(); i++) {
      String weightName = c.get("weightNames").get(i).asText();
      block.getDirectParameters().get(weightName).setArray(array(c.get("weights").get(i)));
    }
    NDList inputs = new NDList(array(c.get("input")));
    c.get("states").forEach(s -> inputs.add(array(s)));
    NDList out = block.forward(new ParameterStore(manager, false), inputs, false);
    JsonNode expected = c.get("expected");
    assertEquals(expected.size(), out.size(), name + ": outputs");
    for (int k = 0; k < out.size(); k++) {
      float[] actual = out.get(k).toFloatArray();
      JsonNode want = expected.get(k).get("data");
      for (int i = 0; i < actual.length; i++) {
        assertEquals(want.get(i).asDouble(), actual[i], 2e-5 + 1e-4 * Math.abs(
            want.get(i).asDouble()), name + ": result " + k + " at " + i);
      }
    }
  }

  /** lstm(1 layer, H = 2) on (1, T, 1) ones, with ones as weights (no biases). */
  private NDList onesLstm(int steps, NDList params) {
    try (NDArray x = manager.ones(new Shape(1, steps, 1))) {
      NDList states = new NDList(manager.zeros(new Shape(1, 1, 2)),
          manager.zeros(new Shape(1, 1, 2)));
      try {
        return x.getNDArrayInternal().lstm(x, states, params, false, 1, 0, false, false,
            true);
      } finally {
        states.close();
      }
    }
  }

  @Test
  void longSequenceLeavesOnlyItsResults() {
    NDList params = new NDList(manager.ones(new Shape(8, 1)), manager.ones(new Shape(8, 2)));
    onesLstm(2, params).close();  // the parameters' own handles exist from here on
    long before = TensorFlow.liveObjects().tensorHandles();
    NDList out = onesLstm(500, params);
    // Output, hidden and cell state: every per-step intermediate is gone.
    assertEquals(before + 3, TensorFlow.liveObjects().tensorHandles());
    assertArrayEquals(new long[] {1, 500, 2}, out.get(0).getShape().getShape());
    // By hand: all gates alike; step 1 has c = σ(1)·tanh(1), h = σ(1)·tanh(c).
    float s = (float) (1 / (1 + Math.exp(-1)));
    float c1 = s * (float) Math.tanh(1);
    float h1 = s * (float) Math.tanh(c1);
    float[] first = out.get(0).get("0, 0").toFloatArray();
    assertArrayEquals(new float[] {h1, h1}, first, 1e-6f);
    out.close();
  }

  @Test
  void longStepwiseSequenceLeavesOnlyItsResults() {
    // gru runs step by step: each step's intermediates must be gone once the call returns.
    try (NDArray x = manager.ones(new Shape(1, 500, 1));
        NDArray h = manager.zeros(new Shape(1, 1, 2))) {
      NDList params = new NDList(manager.ones(new Shape(6, 1)), manager.zeros(new Shape(6, 2)));
      NDArrayEx ex = x.getNDArrayInternal();
      ex.gru(x, h, params, false, 1, 0, false, false, true).close();  // handles exist now
      long before = TensorFlow.liveObjects().tensorHandles();
      NDList out = ex.gru(x, h, params, false, 1, 0, false, false, true);
      assertEquals(before + 2, TensorFlow.liveObjects().tensorHandles());
      // No recurrent weight: r = z = σ(1), n = tanh(1); h1 = (1 - z) n.
      float s = (float) (1 / (1 + Math.exp(-1)));
      float h1 = (1 - s) * (float) Math.tanh(1);
      assertArrayEquals(new float[] {h1, h1}, out.get(0).get("0, 0").toFloatArray(), 1e-6f);
      out.close();
    }
  }

  @Test
  void badParametersNameWhatWasExpected() {
    try (NDArray x = manager.ones(new Shape(2, 3, 5));
        NDArray h = manager.zeros(new Shape(1, 2, 4))) {
      NDArrayEx ex = x.getNDArrayInternal();
      NDList missing = new NDList(manager.ones(new Shape(12, 5)),
          manager.ones(new Shape(12, 4)), manager.ones(new Shape(12)));
      IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
          () -> ex.gru(x, h, missing, true, 1, 0, false, false, true));
      assertTrue(count.getMessage().contains("expects 4 parameters"), count.getMessage());

      NDList wrongWidth = new NDList(manager.ones(new Shape(12, 4)),
          manager.ones(new Shape(12, 4)));
      IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
          () -> ex.gru(x, h, wrongWidth, false, 1, 0, false, false, true));
      assertTrue(shape.getMessage().contains("l_0_i2h_WEIGHT must have shape [12, 5]"),
          shape.getMessage());

      // A bidirectional layer's reverse h2h bias: the block order puts biases after weights.
      NDList bi = new NDList(manager.ones(new Shape(4, 5)), manager.ones(new Shape(4, 4)),
          manager.ones(new Shape(4, 5)), manager.ones(new Shape(4, 4)),
          manager.ones(new Shape(4)), manager.ones(new Shape(4)), manager.ones(new Shape(4)),
          manager.ones(new Shape(3)));
      try (NDArray h2 = manager.zeros(new Shape(2, 2, 4))) {
        IllegalArgumentException bias = assertThrows(IllegalArgumentException.class,
            () -> ex.rnn(x, h2, bi, true, 1, RNN.Activation.TANH, 0, false, true, true));
        assertTrue(bias.getMessage().contains("r_0_h2h_BIAS must have shape [4]"),
            bias.getMessage());
        // The state must cover layers x directions.
        IllegalArgumentException state = assertThrows(IllegalArgumentException.class,
            () -> ex.rnn(x, h, bi, true, 1, RNN.Activation.TANH, 0, false, true, true));
        assertTrue(state.getMessage().contains("hidden state must have shape"),
            state.getMessage());
      }
      assertThrows(IllegalArgumentException.class,
          () -> ex.lstm(x, new NDList(h), wrongWidth, false, 1, 0, false, false, true));
      try (NDArray flat = manager.ones(new Shape(3, 5))) {
        assertThrows(IllegalArgumentException.class,
            () -> ex.gru(flat, h, wrongWidth, false, 1, 0, false, false, true));
      }
      assertThrows(IllegalArgumentException.class,
          () -> ex.gru(x, null, wrongWidth, false, 1, 0, false, false, true));
      assertThrows(IllegalArgumentException.class,
          () -> ex.gru(x, h, wrongWidth, false, 0, 0, false, false, true));
      // TensorFlow's own type check, as a Java exception.
      try (NDArray ints = manager.ones(new Shape(2, 3, 5)).toType(
          DataType.INT32, false)) {
        NDList ok = new NDList(manager.ones(new Shape(12, 5)), manager.ones(new Shape(12, 4)));
        TensorFlowException e = assertThrows(TensorFlowException.class,
            () -> ex.gru(ints, h, ok, false, 1, 0, false, false, true));
        assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("expected to be a int32 tensor but is a float tensor"),
            e.getMessage());
      }
    }
  }

  @Test
  void trainingDropoutIsUnsupported() {
    try (NDArray x = manager.ones(new Shape(1, 2, 1));
        NDArray h = manager.zeros(new Shape(2, 1, 1))) {
      NDList params = new NDList(manager.ones(new Shape(1, 1)), manager.ones(new Shape(1, 1)),
          manager.ones(new Shape(1, 1)), manager.ones(new Shape(1, 1)));
      NDArrayEx ex = x.getNDArrayInternal();
      assertThrows(UnsupportedOperationException.class,
          () -> ex.rnn(x, h, params, false, 2, RNN.Activation.RELU, 0.5, true, false, true));
      assertThrows(UnsupportedOperationException.class,
          () -> ex.lstm(x, new NDList(h, h), params, false, 2, 0.5, true, false, true));
      // Without dropout training changes nothing: layer 0 gives relu(1 + 0) = 1, then
      // relu(1 + 1) = 2; layer 1 reads those: 1, then relu(2 + 1) = 3.
      NDList out = ex.rnn(x, h, params, false, 2, RNN.Activation.RELU, 0, true, false, true);
      assertArrayEquals(new float[] {1, 3}, out.get(0).toFloatArray());
      out.close();
    }
  }

  @Test
  void closedInputIsRejected() {
    NDArray x = manager.ones(new Shape(1, 2, 1));
    NDArrayEx ex = x.getNDArrayInternal();
    x.close();
    try (NDArray h = manager.zeros(new Shape(1, 1, 1))) {
      NDList params = new NDList(manager.ones(new Shape(3, 1)), manager.ones(new Shape(3, 1)));
      assertThrows(IllegalStateException.class,
          () -> ex.gru(x, h, params, false, 1, 0, false, false, true));
    }
  }
}
