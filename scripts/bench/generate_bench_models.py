#!/usr/bin/env python3
"""Build the benchmark models, their inputs and TensorFlow Python's outputs.

Usage:  python scripts/bench/generate_bench_models.py OUT_DIR

Four SavedModels, each with one `serving_default` signature of one input and
one output:
  mlp   tiny MLP, float32 [N,16] -> [N,8]: overhead-dominated
  dense four 1024x1024 dense layers, float32 [N,1024] -> [N,1024]: weight-bound
        (at batch 1 each layer is a matrix-vector product reading 4 MB of weights);
        no case of its own, the batching benchmark runs it
  cnn   MobileNetV2 (224x224x3, 1000 classes, random weights): compute-dominated
  text  string [N] -> lower, split, hash buckets, embedding mean, dense -> [N,4]
and the benchmark cases (model + batch) in OUT_DIR/bench_models.json:
  {"tensorflow": "2.18.0",
   "cases": [{"name": "mlp_b1", "model": "mlp", "signature": "serving_default",
              "input_key": "x", "input_dtype": "float32", "input_shape": [1, 16],
              "input_npy": "mlp_b1_input.npy",      (numeric inputs)
              "input_strings": ["..."],              (string inputs, UTF-8)
              "output_key": "probs", "output_shape": [1, 8],
              "expected_npy": "mlp_b1_expected.npy",
              "input_tensor": "serving_default_x:0",          (the signature's graph
              "output_tensor": "StatefulPartitionedCall:0"},  tensors, for the C API)
             ...]}
Signature keys are read back from the saved models, not assumed. Every expected
output comes from the model reloaded from disk, so a contender that returns
different numbers is caught before it is timed.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import json
import shutil
import sys
from pathlib import Path

import numpy as np

SEED = 4321
MLP_FEATURES = 16
DENSE_WIDTH = 1024
DENSE_LAYERS = 4
TEXT_BUCKETS = 10_000
SENTENCES = [
    "the quick brown fox jumps over the lazy dog",
    "Ranking models read short queries",
    "cheap flights to Lisbon in March",
    "how do I reset my password",
    "wireless noise cancelling headphones",
    "Ünïcode text: naïve café, 日本語",
    "a",
    "the best pizza near me open now with delivery and vegan options",
]


def build_mlp(tf, rng, path):
    class Mlp(tf.Module):
        def __init__(self):
            super().__init__()
            init = lambda *shape: tf.Variable(rng.normal(0, 0.3, shape).astype(np.float32))
            self.w1, self.b1 = init(MLP_FEATURES, 32), init(32)
            self.w2, self.b2 = init(32, 8), init(8)

        @tf.function(input_signature=[tf.TensorSpec([None, MLP_FEATURES], tf.float32, name="x")])
        def serve(self, x):
            hidden = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
            return {"probs": tf.nn.softmax(tf.matmul(hidden, self.w2) + self.b2)}

    module = Mlp()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.serve})


def build_dense(tf, rng, path):
    class Dense(tf.Module):
        def __init__(self):
            super().__init__()
            scale = 1.0 / np.sqrt(DENSE_WIDTH)
            self.layers = [
                (tf.Variable(rng.normal(0, scale, (DENSE_WIDTH, DENSE_WIDTH)).astype(np.float32)),
                 tf.Variable(rng.normal(0, 0.1, DENSE_WIDTH).astype(np.float32)))
                for _ in range(DENSE_LAYERS)]

        @tf.function(input_signature=[tf.TensorSpec([None, DENSE_WIDTH], tf.float32, name="x")])
        def serve(self, x):
            for weights, bias in self.layers:
                x = tf.nn.relu(tf.matmul(x, weights) + bias)
            return {"y": x}

    module = Dense()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.serve})


def export_keras(tf, model, path, input_name, output_key):
    """Writes a Keras model as a SavedModel of one `serving_default` signature: one float32 input
    of any batch size named `input_name`, one output `output_key`, inference mode."""
    import keras

    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint(
        name="serving_default",
        fn=lambda x: {output_key: model(x, training=False)},
        input_signature=[tf.TensorSpec([None, *model.input_shape[1:]], tf.float32, name=input_name)])
    archive.write_out(str(path), verbose=False)


def build_cnn(tf, path):
    import keras

    keras.utils.set_random_seed(SEED)
    model = keras.applications.MobileNetV2(weights=None, input_shape=(224, 224, 3), classes=1000)
    export_keras(tf, model, path, "image", "probs")


def build_text(tf, rng, path):
    class Text(tf.Module):
        def __init__(self):
            super().__init__()
            self.embedding = tf.Variable(rng.normal(0, 1, (TEXT_BUCKETS, 32)).astype(np.float32))
            self.w = tf.Variable(rng.normal(0, 0.3, (32, 4)).astype(np.float32))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="text")])
        def serve(self, text):
            tokens = tf.strings.split(tf.strings.lower(text))
            ids = tf.strings.to_hash_bucket_fast(tokens, TEXT_BUCKETS)
            pooled = tf.reduce_mean(tf.gather(self.embedding, ids), axis=1)
            return {"probs": tf.nn.softmax(tf.matmul(pooled, self.w))}

    module = Text()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.serve})


def only_key(mapping, what):
    if len(mapping) != 1:
        raise SystemExit(f"expected one {what}, got {sorted(mapping)}")
    return next(iter(mapping))


def graph_tensor_names(out_dir, model, input_key, output_key):
    """The signature's tensor names as saved in saved_model.pb (what TF_SessionRun needs)."""
    from tensorflow.core.protobuf import saved_model_pb2

    saved = saved_model_pb2.SavedModel()
    saved.ParseFromString((out_dir / model / "saved_model.pb").read_bytes())
    (meta_graph,) = saved.meta_graphs
    signature = meta_graph.signature_def["serving_default"]
    return signature.inputs[input_key].name, signature.outputs[output_key].name


def record_case(tf, out_dir, name, model, batch_input):
    """Runs the reloaded model on batch_input and describes the case."""
    loaded = tf.saved_model.load(str(out_dir / model))
    fn = loaded.signatures["serving_default"]
    input_key = only_key(fn.structured_input_signature[1], "input")
    output_key = only_key(fn.structured_outputs, "output")
    expected = fn(**{input_key: tf.constant(batch_input)})[output_key].numpy()
    case = {"name": name, "model": model, "signature": "serving_default",
            "input_key": input_key, "input_shape": list(batch_input.shape),
            "output_key": output_key, "output_shape": list(expected.shape),
            "expected_npy": f"{name}_expected.npy"}
    if batch_input.dtype == object:
        case["input_dtype"] = "string"
        case["input_strings"] = [s.decode("utf-8") for s in batch_input]
    else:
        case["input_dtype"] = str(batch_input.dtype)
        case["input_npy"] = f"{name}_input.npy"
        np.save(out_dir / case["input_npy"], batch_input)
    np.save(out_dir / case["expected_npy"], expected.astype(np.float32))
    case["input_tensor"], case["output_tensor"] = graph_tensor_names(
        out_dir, model, input_key, output_key)
    return case


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    out_dir = Path(sys.argv[1])
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)

    import tensorflow as tf

    tf.random.set_seed(SEED)
    rng = np.random.default_rng(SEED)
    build_mlp(tf, rng, out_dir / "mlp")
    build_dense(tf, np.random.default_rng(SEED + 1), out_dir / "dense")
    build_cnn(tf, out_dir / "cnn")
    build_text(tf, rng, out_dir / "text")

    images = rng.uniform(-1, 1, (8, 224, 224, 3)).astype(np.float32)
    text = np.array([s.encode("utf-8") for s in SENTENCES], dtype=object)
    cases = [
        record_case(tf, out_dir, "mlp_b1", "mlp",
                    rng.normal(0, 1, (1, MLP_FEATURES)).astype(np.float32)),
        record_case(tf, out_dir, "cnn_b1", "cnn", images[:1]),
        record_case(tf, out_dir, "cnn_b8", "cnn", images),
        record_case(tf, out_dir, "text_b8", "text", text),
    ]
    manifest = {"tensorflow": tf.__version__, "cases": cases}
    (out_dir / "bench_models.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {len(cases)} benchmark cases to {out_dir}")


if __name__ == "__main__":
    main()
