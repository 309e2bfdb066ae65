"""Expected values for tfjni-djl's RecurrentTest (NDArrayEx.rnn / gru / lstm) from Keras'
SimpleRNN, GRU(reset_after=True) and LSTM, each layer and direction run on its own and stacked
as DJL (PyTorch) stacks them: the reverse direction reads the sequence backwards, the next layer
reads both directions' outputs concatenated. A numpy loop over PyTorch's documented formulas
computes every case a second way; the two must agree before anything is written.

DJL's layout: for each layer, the weights of each direction (i2h (G*H, in), h2h (G*H, H)), then
the biases of each direction (i2h (G*H), h2h (G*H)); gates in PyTorch's order (LSTM i, f, g, o;
GRU r, z, n). Keras orders LSTM gates i, f, c, o (the same) and GRU gates z, r, h (r and z swap).
scripts/setup.sh writes it into the test models' directory, under the oneDNN setting the tests
run with (TF_ENABLE_ONEDNN_OPTS):

  ~/.cache/tfjni/venv-2.18.0/bin/python scripts/goldens/djl_recurrent_goldens.py OUT.json
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = sys.argv[1]
rng = np.random.default_rng(1717)
GATES = {"rnn_tanh": 1, "rnn_relu": 1, "gru": 3, "lstm": 4}


def data(*shape):
    return (rng.standard_normal(shape) * 0.6).astype(np.float32)


def tensor(x):
    x = np.asarray(x, np.float32)
    return {"shape": list(x.shape), "data": [float(v) for v in x.reshape(-1)]}


def gru_keras_order(m):
    """PyTorch's r, z, n blocks (first axis) -> Keras' z, r, h."""
    r, z, n = np.split(m, 3, axis=0)
    return np.concatenate([z, r, n], axis=0)


def keras_layer(kind, w_ih, w_hh, b_ih, b_hh, hidden):
    """A Keras layer holding one DJL layer-direction's weights."""
    use_bias = b_ih is not None
    if kind.startswith("rnn"):
        layer = tf.keras.layers.SimpleRNN(hidden, activation=kind[4:], use_bias=use_bias,
                                          return_sequences=True, return_state=True)
        weights = [w_ih.T, w_hh.T] + ([b_ih + b_hh] if use_bias else [])
    elif kind == "lstm":
        layer = tf.keras.layers.LSTM(hidden, use_bias=use_bias, return_sequences=True,
                                     return_state=True)
        # Keras adds its one bias where PyTorch adds b_ih + b_hh.
        weights = [w_ih.T, w_hh.T] + ([b_ih + b_hh] if use_bias else [])
    else:
        layer = tf.keras.layers.GRU(hidden, reset_after=True, use_bias=use_bias,
                                    return_sequences=True, return_state=True)
        weights = [gru_keras_order(w_ih).T, gru_keras_order(w_hh).T]
        if use_bias:
            weights.append(np.stack([gru_keras_order(b_ih), gru_keras_order(b_hh)]))
    layer.build((None, None, w_ih.shape[1]))
    layer.set_weights(weights)
    return layer


def run_keras(kind, x, states, layers):
    """x (N, T, F); states [(L*D, N, H)...]; layers[l][d] = (w_ih, w_hh, b_ih, b_hh)."""
    hidden = layers[0][0][1].shape[1]
    dirs = len(layers[0])
    finals = [[] for _ in states]
    for l, per_dir in enumerate(layers):
        outs = []
        for d, (w_ih, w_hh, b_ih, b_hh) in enumerate(per_dir):
            layer = keras_layer(kind, w_ih, w_hh, b_ih, b_hh, hidden)
            seq = x[:, ::-1] if d == 1 else x
            init = [tf.constant(s[l * dirs + d]) for s in states]
            result = layer(tf.constant(np.ascontiguousarray(seq)), initial_state=init)
            y = result[0].numpy()
            outs.append(y[:, ::-1] if d == 1 else y)
            for k, state in enumerate(result[1:]):
                finals[k].append(state.numpy())
        x = np.concatenate(outs, axis=-1)
    return [x] + [np.stack(f) for f in finals]


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def run_numpy(kind, x, states, layers):
    """PyTorch's formulas, step by step, in float64."""
    dirs = len(layers[0])
    finals = [[] for _ in states]
    x = x.astype(np.float64)
    for l, per_dir in enumerate(layers):
        outs = []
        for d, (w_ih, w_hh, b_ih, b_hh) in enumerate(per_dir):
            b_ih = 0 if b_ih is None else b_ih
            b_hh = 0 if b_hh is None else b_hh
            h = states[0][l * dirs + d].astype(np.float64)
            c = states[1][l * dirs + d].astype(np.float64) if kind == "lstm" else None
            steps = range(x.shape[1] - 1, -1, -1) if d == 1 else range(x.shape[1])
            y = np.zeros(x.shape[:2] + (h.shape[1],))
            for t in steps:
                gi = x[:, t] @ w_ih.T + b_ih
                gh = h @ w_hh.T + b_hh
                if kind == "rnn_tanh":
                    h = np.tanh(gi + gh)
                elif kind == "rnn_relu":
                    h = np.maximum(gi + gh, 0)
                elif kind == "gru":
                    ir, iz, i_n = np.split(gi, 3, axis=1)
                    hr, hz, hn = np.split(gh, 3, axis=1)
                    r, z = sigmoid(ir + hr), sigmoid(iz + hz)
                    n = np.tanh(i_n + r * hn)
                    h = (1 - z) * n + z * h
                else:
                    i, f, g, o = np.split(gi + gh, 4, axis=1)
                    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
                    h = sigmoid(o) * np.tanh(c)
                y[:, t] = h
            outs.append(y)
            finals[0].append(h)
            if kind == "lstm":
                finals[1].append(c)
        x = np.concatenate(outs, axis=-1)
    return [x] + [np.stack(f) for f in finals]


cases = []


def case(name, kind, num_layers=1, bidirectional=False, batch_first=True, has_biases=True,
         given_states=True, batch=2, steps=4, features=3, hidden=4):
    gates = GATES[kind]
    dirs = 2 if bidirectional else 1
    layers = []
    djl_params = []
    names = []  # the names DJL's recurrent blocks give them, in the blocks' order
    for l in range(num_layers):
        width = features if l == 0 else hidden * dirs
        per_dir = []
        for _ in range(dirs):
            per_dir.append((data(gates * hidden, width), data(gates * hidden, hidden),
                            data(gates * hidden) if has_biases else None,
                            data(gates * hidden) if has_biases else None))
        layers.append(per_dir)
        sides = "lr"[:dirs]
        for side, (w_ih, w_hh, _, _) in zip(sides, per_dir):
            djl_params += [w_ih, w_hh]
            names += [f"{side}_{l}_i2h_WEIGHT", f"{side}_{l}_h2h_WEIGHT"]
        if has_biases:
            for side, (_, _, b_ih, b_hh) in zip(sides, per_dir):
                djl_params += [b_ih, b_hh]
                names += [f"{side}_{l}_i2h_BIAS", f"{side}_{l}_h2h_BIAS"]
    x = data(batch, steps, features)
    state_shape = (num_layers * dirs, batch, hidden)
    count = 2 if kind == "lstm" else 1
    states = [data(*state_shape) if given_states else np.zeros(state_shape, np.float32)
              for _ in range(count)]
    keras = run_keras(kind, x, states, layers)
    reference = run_numpy(kind, x, states, layers)
    for k, (a, b) in enumerate(zip(keras, reference)):
        assert a.shape == b.shape, (name, k, a.shape, b.shape)
        err = np.abs(a - b).max()
        assert err < 1e-5, (name, k, err)
    if not batch_first:
        x = np.swapaxes(x, 0, 1)
        keras[0] = np.swapaxes(keras[0], 0, 1)
    cases.append({
        "name": name, "op": kind,
        "params": {"numLayers": num_layers, "bidirectional": bidirectional,
                   "batchFirst": batch_first, "hasBiases": has_biases},
        "input": tensor(x), "states": [tensor(s) for s in states],
        "weights": [tensor(p) for p in djl_params], "weightNames": names,
        "expected": [tensor(e) for e in keras]})


case("rnn tanh", "rnn_tanh", given_states=False)
case("rnn relu 2 layers time first", "rnn_relu", num_layers=2, batch_first=False)
case("rnn tanh bidirectional 2 layers", "rnn_tanh", num_layers=2, bidirectional=True)
case("rnn tanh no biases time first", "rnn_tanh", has_biases=False, batch_first=False)
case("gru time first", "gru", batch_first=False, given_states=False)
case("gru bidirectional 2 layers", "gru", num_layers=2, bidirectional=True)
case("gru no biases bidirectional", "gru", has_biases=False, bidirectional=True, steps=3)
case("lstm", "lstm")
case("lstm bidirectional 2 layers time first", "lstm", num_layers=2, bidirectional=True,
     batch_first=False, batch=3, steps=5)
case("lstm no biases 2 layers", "lstm", num_layers=2, has_biases=False, given_states=False)
case("lstm bidirectional single step", "lstm", bidirectional=True, steps=1, batch=1)

with open(OUT, "w") as f:
    json.dump({"generator": "scripts/goldens/djl_recurrent_goldens.py", "tensorflow": tf.__version__,
               "cases": cases}, f, separators=(",", ":"))
print(f"{len(cases)} cases -> {OUT}")
