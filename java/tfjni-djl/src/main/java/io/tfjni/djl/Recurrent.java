package io.tfjni.djl;

import io.tfjni.DataType;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import io.tfjni.eager.Nn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * DJL's recurrent layers (NDArrayEx.rnn / gru / lstm) for inference, with PyTorch's formulas.
 * A FLOAT32 lstm layer-direction is one {@link Nn#blockLstm} kernel. Otherwise the input
 * projection of every time step is one matrix product, then each step is a small chain of ops
 * (recurrent product, bias, gate activations) whose intermediates are closed when the step ends, so only the step
 * outputs (the result) grow with the sequence.
 *
 * <p>Parameters come in the order DJL's recurrent blocks create them: for each layer, the
 * weights of each direction (i2h (G·H, in), h2h (G·H, H)), then, with biases, the biases of each
 * direction (i2h (G·H), h2h (G·H)); gate blocks in PyTorch's order (LSTM i, f, g, o; GRU r, z,
 * n). States are (layers · directions, batch, H) whatever {@code batchFirst} says, the index of
 * layer l's direction d being l · directions + d.
 */
final class Recurrent {
  /** The cell of a layer and its number of gate blocks G. */
  enum Cell {
    RNN_TANH("rnn", 1), RNN_RELU("rnn", 1), GRU("gru", 3), LSTM("lstm", 4);

    final String opName;
    final int gates;

    Cell(String opName, int gates) {
      this.opName = opName;
      this.gates = gates;
    }
  }

  /** One layer-direction's weights; biases null when the layer has none. */
  private static final class Weights {
    NDArray inputWeight;
    NDArray hiddenWeight;
    NDArray inputBias;
    NDArray hiddenBias;
  }

  /** A direction's outputs (T, N, H) and its last hidden (and cell) state (N, H). */
  private static final class Pass {
    final NDArray sequence;
    final NDArray hidden;
    final NDArray cell;

    Pass(NDArray sequence, NDArray hidden, NDArray cell) {
      this.sequence = sequence;
      this.hidden = hidden;
      this.cell = cell;
    }
  }

  private Recurrent() {}

  /**
   * Runs the stacked layers; returns the output ((T, N, D·H), or (N, T, D·H) batch first) and
   * the last hidden state (L·D, N, H), and for LSTM the last cell state. {@code states} holds
   * the initial hidden state (and cell state for LSTM). The caller owns the results.
   */
  static NDArray[] run(NDManager tf, Cell cell, NDArray input, NDArray[] states,
      List<NDArray> params, boolean hasBiases, int numLayers, boolean bidirectional,
      boolean batchFirst) {
    int directions = bidirectional ? 2 : 1;
    long[] inShape = input.shape();
    if (inShape.length != 3) {
      throw new IllegalArgumentException(cell.opName + " input must have rank 3 ("
          + (batchFirst ? "batch, time, features" : "time, batch, features") + "), got shape "
          + Arrays.toString(inShape));
    }
    if (numLayers < 1) {
      throw new IllegalArgumentException(cell.opName + " needs at least one layer, got "
          + numLayers);
    }
    long steps = inShape[batchFirst ? 1 : 0];
    long batch = inShape[batchFirst ? 0 : 1];
    if (steps < 1) {
      throw new IllegalArgumentException(cell.opName + " needs at least one time step");
    }
    long hiddenSize = checkStates(cell, states, numLayers * directions, batch);
    checkParams(cell, params, hasBiases, numLayers, directions, inShape[2], hiddenSize);

    // Everything made here is closed on the way out, except the results on success.
    List<NDArray> owned = new ArrayList<>();
    List<NDArray> lastHidden = new ArrayList<>();
    List<NDArray> lastCell = new ArrayList<>();
    NDArray[] results = new NDArray[cell == Cell.LSTM ? 3 : 2];
    boolean done = false;
    try {
      NDArray x = input;
      if (batchFirst) {
        x = input.transpose(1, 0, 2);
        owned.add(x);
      }
      for (int layer = 0; layer < numLayers; layer++) {
        NDArray[] sequences = new NDArray[directions];
        for (int d = 0; d < directions; d++) {
          Pass pass = pass(tf, cell, x, states, layer * directions + d,
              weights(params, hasBiases, directions, layer, d), d == 1);
          owned.add(pass.sequence);
          sequences[d] = pass.sequence;
          lastHidden.add(pass.hidden);
          if (pass.cell != null) {
            lastCell.add(pass.cell);
          }
        }
        NDArray next = sequences[0];
        if (directions == 2) {
          next = sequences[0].concat(2, sequences[1]);
          owned.add(next);
        }
        // The layer below's output and the per-direction parts are no longer needed (close is
        // idempotent, so the finally block may close them again).
        if (x != input) {
          x.close();
        }
        for (NDArray s : sequences) {
          if (s != next) {
            s.close();
          }
        }
        x = next;
      }
      results[0] = batchFirst ? x.transpose(1, 0, 2) : x;
      results[1] = stack(lastHidden);
      if (cell == Cell.LSTM) {
        results[2] = stack(lastCell);
      }
      done = true;
      return results;
    } finally {
      List<NDArray> kept = done ? Arrays.asList(results) : List.of();
      closeAllBut(owned, kept);
      closeAllBut(lastHidden, kept);
      closeAllBut(lastCell, kept);
      if (!done) {
        closeAllBut(Arrays.asList(results), kept);
      }
    }
  }

  /** Closes every array of {@code arrays} that is not (by identity) one of {@code kept}. */
  private static void closeAllBut(List<NDArray> arrays, List<NDArray> kept) {
    for (NDArray a : arrays) {
      if (a != null && kept.stream().noneMatch(k -> k == a)) {
        a.close();
      }
    }
  }

  /** One direction of one layer over x (T, N, F), from the initial states at {@code index}. */
  private static Pass pass(NDManager tf, Cell cell, NDArray x, NDArray[] states, int index,
      Weights w, boolean reverse) {
    if (cell == Cell.LSTM && x.dataType() == DataType.FLOAT) {
      return fusedLstmPass(tf, x, states, index, w, reverse);
    }
    return stepwisePass(tf, cell, x, states, index, w, reverse);
  }

  /**
   * An LSTM direction as one {@link Nn#blockLstm} (FLOAT and HALF kernels only) for the
   * whole sequence, gates i, f, g, o as PyTorch's, no peepholes, no cell clipping (0), and
   * b_ih + b_hh as its one bias. The reverse direction runs on the time-reversed input.
   */
  private static Pass fusedLstmPass(NDManager tf, NDArray x, NDArray[] states, int index,
      Weights w, boolean reverse) {
    long steps = x.shape()[0];
    long hidden = w.hiddenWeight.shape()[1];
    DataType type = x.dataType();
    try (Temporaries t = new Temporaries()) {
      // [x, h] · W with W = [W_ih | W_hh]^T, (F + H, 4H).
      NDArray joined = t.add(w.inputWeight.concat(1, w.hiddenWeight));
      NDArray kernel = t.add(joined.transpose(1, 0));
      NDArray bias = w.inputBias == null ? t.add(tf.zeros(type, 4 * hidden))
          : t.add(w.inputBias.add(w.hiddenBias));
      NDArray h0 = t.add(stateAt(tf, states[0], index));
      NDArray c0 = t.add(stateAt(tf, states[1], index));
      NDArray input = reverse ? t.add(x.flip(0)) : x;
      // Every step's hidden and cell states, each (T, N, H); h is the result unless reversed.
      NDArray[] outs = Nn.blockLstm(input, c0, h0, kernel, bias);
      NDArray hs = outs[0];
      t.add(outs[1]);
      if (reverse) {
        t.add(hs);
      }
      NDArray sequence = reverse ? null : hs;
      NDArray lastHidden = null;
      NDArray lastCell = null;
      boolean done = false;
      try {
        // The states after the last step read (time T - 1 of the run, reversed or not).
        try (NDArray last = tf.scalar(Math.toIntExact(steps - 1))) {
          lastHidden = hs.gather(last, 0);
          lastCell = outs[1].gather(last, 0);
        }
        if (reverse) {
          sequence = hs.flip(0);
        }
        done = true;
        return new Pass(sequence, lastHidden, lastCell);
      } finally {
        if (!done) {
          for (NDArray a : new NDArray[] {sequence, lastHidden, lastCell}) {
            if (a != null) {
              a.close();
            }
          }
        }
      }
    }
  }

  /** Each step of one direction as its own short chain of ops (any floating type). */
  private static Pass stepwisePass(NDManager tf, Cell cell, NDArray x, NDArray[] states,
      int index, Weights w, boolean reverse) {
    long[] shape = x.shape();
    int steps = Math.toIntExact(shape[0]);
    long batch = shape[1];
    long width = (long) cell.gates * w.hiddenWeight.shape()[1];
    NDArray[] outputs = new NDArray[steps];
    NDArray h = null;
    NDArray c = null;
    boolean done = false;
    try (Temporaries t = new Temporaries()) {
      // x W_ih^T + b_ih for every step at once: (T·N, F) -> (T, N, G·H). Outside gru (whose
      // b_hn sits inside the reset product) b_hh joins it here rather than at every step.
      boolean foldHiddenBias = cell != Cell.GRU && w.hiddenBias != null;
      NDArray flat = t.add(x.reshape(steps * batch, shape[2]));
      NDArray projected = t.add(flat.matMul(w.inputWeight, false, true));
      NDArray bias = w.inputBias == null ? null
          : foldHiddenBias ? t.add(w.inputBias.add(w.hiddenBias)) : w.inputBias;
      NDArray biased = bias == null ? projected : t.add(Nn.biasAdd(projected, bias));
      NDArray inputGates = t.add(biased.reshape(steps, batch, width));
      // One (N, G·H) slice per step; each is closed as its step ends.
      NDArray[] stepInputs = inputGates.unstack(0);
      for (NDArray a : stepInputs) {
        t.add(a);
      }
      inputGates.close();
      h = t.add(stateAt(tf, states[0], index));
      if (cell == Cell.LSTM) {
        c = t.add(stateAt(tf, states[1], index));
      }
      NDArray hiddenBias = foldHiddenBias ? null : w.hiddenBias;
      for (int i = 0; i < steps; i++) {
        int step = reverse ? steps - 1 - i : i;
        try (Temporaries s = new Temporaries()) {
          NDArray xGates = s.add(stepInputs[step]);
          NDArray hProjected = s.add(h.matMul(w.hiddenWeight, false, true));
          NDArray hGates = hiddenBias == null ? hProjected
              : s.add(Nn.biasAdd(hProjected, hiddenBias));
          switch (cell) {
            case LSTM: {
              NDArray[] next = lstmStep(s, xGates, hGates, c);
              c.close();
              c = next[1];
              h = next[0];
              break;
            }
            case GRU:
              h = gruStep(s, xGates, hGates, h);
              break;
            default: {
              NDArray sum = s.add(xGates.add(hGates));
              h = cell == Cell.RNN_TANH ? sum.tanh() : sum.relu();
              break;
            }
          }
          outputs[step] = h;
        }
      }
      NDArray sequence = stack(Arrays.asList(outputs));
      done = true;
      return new Pass(sequence, h, c);
    } finally {
      for (NDArray o : outputs) {
        if (o != null && !(done && o == h)) {
          o.close();
        }
      }
      if (!done) {
        if (h != null) {
          h.close();
        }
        if (c != null) {
          c.close();
        }
      }
    }
  }

  /** PyTorch's LSTM step: gates i, f, g, o; returns the new hidden and cell states. */
  private static NDArray[] lstmStep(Temporaries s, NDArray xGates, NDArray hGates,
      NDArray c) {
    NDArray sum = s.add(xGates.add(hGates));
    NDArray[] parts = split(s, sum, 4);
    NDArray in = s.add(parts[0].sigmoid());
    NDArray forget = s.add(parts[1].sigmoid());
    NDArray candidate = s.add(parts[2].tanh());
    NDArray out = s.add(parts[3].sigmoid());
    NDArray kept = s.add(forget.mul(c));
    NDArray written = s.add(in.mul(candidate));
    NDArray newCell = kept.add(written);
    try {
      NDArray squashed = s.add(newCell.tanh());
      return new NDArray[] {out.mul(squashed), newCell};
    } catch (RuntimeException e) {
      newCell.close();
      throw e;
    }
  }

  /**
   * PyTorch's GRU step: r = σ(x_r + h_r), z = σ(x_z + h_z), n = tanh(x_n + r ⊙ h_n) (the
   * recurrent bias inside the reset product), h' = n + z ⊙ (h − n) = (1 − z) ⊙ n + z ⊙ h.
   */
  private static NDArray gruStep(Temporaries s, NDArray xGates, NDArray hGates, NDArray h) {
    NDArray[] xs = split(s, xGates, 3);
    NDArray[] hs = split(s, hGates, 3);
    NDArray reset = s.add(s.add(xs[0].add(hs[0])).sigmoid());
    NDArray update = s.add(s.add(xs[1].add(hs[1])).sigmoid());
    NDArray gated = s.add(reset.mul(hs[2]));
    NDArray candidate = s.add(s.add(xs[2].add(gated)).tanh());
    NDArray delta = s.add(h.sub(candidate));
    NDArray kept = s.add(update.mul(delta));
    return candidate.add(kept);
  }

  /** {@code parts} equal blocks of x along its gate axis (1), registered in {@code s}. */
  private static NDArray[] split(Temporaries s, NDArray x, int parts) {
    NDArray[] out = x.split(parts, 1);
    for (NDArray p : out) {
      s.add(p);
    }
    return out;
  }

  /** The initial state (N, H) of layer-direction {@code index} of states (L·D, N, H). */
  private static NDArray stateAt(NDManager tf, NDArray states, int index) {
    try (NDArray at = tf.scalar(index)) {
      return states.gather(at, 0);
    }
  }

  /** The arrays stacked along a new first axis. */
  private static NDArray stack(List<NDArray> parts) {
    return parts.get(0).stack(0, parts.subList(1, parts.size()).toArray(new NDArray[0]));
  }

  /** Layer {@code layer}'s direction {@code d} in DJL's block order (see the class comment). */
  private static Weights weights(List<NDArray> params, boolean hasBiases, int directions,
      int layer, int d) {
    int base = layer * directions * (hasBiases ? 4 : 2);
    Weights w = new Weights();
    w.inputWeight = params.get(base + 2 * d);
    w.hiddenWeight = params.get(base + 2 * d + 1);
    if (hasBiases) {
      w.inputBias = params.get(base + 2 * directions + 2 * d);
      w.hiddenBias = params.get(base + 2 * directions + 2 * d + 1);
    }
    return w;
  }

  /** Checks every state is (layers · directions, batch, H) alike; returns H. */
  private static long checkStates(Cell cell, NDArray[] states, int count, long batch) {
    long[] first = states[0].shape();
    long hidden = first.length == 3 ? first[2] : -1;
    String[] names = {"hidden state", "cell state"};
    for (int i = 0; i < states.length; i++) {
      long[] shape = states[i].shape();
      if (shape.length != 3 || shape[0] != count || shape[1] != batch || shape[2] != hidden
          || hidden < 1) {
        throw new IllegalArgumentException(cell.opName + " " + names[i] + " must have shape "
            + "(layers x directions = " + count + ", batch = " + batch + ", state size"
            + (hidden > 0 ? " = " + hidden : "") + "), got " + Arrays.toString(shape));
      }
    }
    return hidden;
  }

  /** Checks the count and every shape of the parameters, naming them as DJL's blocks do. */
  private static void checkParams(Cell cell, List<NDArray> params, boolean hasBiases,
      int numLayers, int directions, long features, long hidden) {
    int perDirection = hasBiases ? 4 : 2;
    int expected = numLayers * directions * perDirection;
    if (params.size() != expected) {
      throw new IllegalArgumentException(cell.opName + " expects " + expected + " parameters ("
          + numLayers + " layer(s) x " + directions + " direction(s) x " + perDirection
          + ": i2h and h2h weights" + (hasBiases ? " and biases" : "") + "), got "
          + params.size());
    }
    long rows = cell.gates * hidden;
    for (int layer = 0; layer < numLayers; layer++) {
      long in = layer == 0 ? features : directions * hidden;
      for (int d = 0; d < directions; d++) {
        Weights w = weights(params, hasBiases, directions, layer, d);
        String prefix = (d == 0 ? "l_" : "r_") + layer + "_";
        checkShape(cell, prefix + "i2h_WEIGHT", w.inputWeight, rows, in);
        checkShape(cell, prefix + "h2h_WEIGHT", w.hiddenWeight, rows, hidden);
        if (hasBiases) {
          checkShape(cell, prefix + "i2h_BIAS", w.inputBias, rows);
          checkShape(cell, prefix + "h2h_BIAS", w.hiddenBias, rows);
        }
      }
    }
  }

  private static void checkShape(Cell cell, String name, NDArray p, long... dims) {
    if (p == null) {
      throw new IllegalArgumentException(cell.opName + " parameter " + name + " is null");
    }
    long[] shape = p.shape();
    if (!Arrays.equals(shape, dims)) {
      throw new IllegalArgumentException(cell.opName + " parameter " + name
          + " must have shape " + Arrays.toString(dims) + ", got " + Arrays.toString(shape));
    }
  }
}
