package io.tfjni.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.internal.NDArrayEx;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.recurrent.RNN;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Prints the time of rnn / gru / lstm calls (FLOAT32: lstm as BlockLSTMV2; FLOAT64: every cell
 * step by step). A measurement, not a test: it asserts nothing and runs only when asked, with
 * {@code -Dtest=RecurrentTiming -Dtfjni.timing=true}.
 */
@EnabledIfSystemProperty(named = "tfjni.timing", matches = "true")
class RecurrentTiming {
  private static final int BATCH = 8;
  private static final int FEATURES = 32;
  private static final int HIDDEN = 64;
  private static final int STEPS = 100;

  @Test
  void printCallTimes() {
    try (NDManager m = NDManager.newBaseManager()) {
      for (DataType type : new DataType[] {DataType.FLOAT32, DataType.FLOAT64}) {
        NDArray x = m.randomNormal(new Shape(BATCH, STEPS, FEATURES)).toType(type, false);
        NDArrayEx ex = x.getNDArrayInternal();
        for (String kind : new String[] {"rnn", "gru", "lstm"}) {
          long rows = (long) ("rnn".equals(kind) ? 1 : "gru".equals(kind) ? 3 : 4) * HIDDEN;
          NDList p = new NDList(
              m.randomNormal(0, 0.1f, new Shape(rows, FEATURES), type),
              m.randomNormal(0, 0.1f, new Shape(rows, HIDDEN), type),
              m.zeros(new Shape(rows), type), m.zeros(new Shape(rows), type));
          NDArray s = m.zeros(new Shape(1, BATCH, HIDDEN), type);
          Runnable call = () -> {
            NDList out;
            if ("rnn".equals(kind)) {
              out = ex.rnn(x, s, p, true, 1, RNN.Activation.TANH, 0, false, false, true);
            } else if ("gru".equals(kind)) {
              out = ex.gru(x, s, p, true, 1, 0, false, false, true);
            } else {
              out = ex.lstm(x, new NDList(s, s), p, true, 1, 0, false, false, true);
            }
            out.close();
          };
          for (int i = 0; i < 20; i++) {
            call.run();
          }
          int reps = 50;
          long start = System.nanoTime();
          for (int i = 0; i < reps; i++) {
            call.run();
          }
          double ms = (System.nanoTime() - start) / 1e6 / reps;
          System.out.printf("TIMING %s %s batch %d, %d features, H %d, %d steps: %.2f ms/call%n",
              type, kind, BATCH, FEATURES, HIDDEN, STEPS, ms);
        }
      }
    }
  }
}
