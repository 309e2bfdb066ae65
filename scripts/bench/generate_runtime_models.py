#!/usr/bin/env python3
"""The models of the runtime comparison (scripts/bench/bench-runtimes.sh): TensorFlow, LiteRT through
tfjni and ONNX Runtime's Java binding on the same inputs.

Usage:  python scripts/bench/generate_runtime_models.py BENCH_MODELS_DIR TF2ONNX_PYTHON OUT_DIR

Run with the TensorFlow venv's Python. BENCH_MODELS_DIR is scripts/bench/bench-models.sh's directory;
TF2ONNX_PYTHON the Python of the venv that has tf2onnx (scripts/requirements/requirements-tf2onnx.txt).

Three more Keras models with random weights, exported as generate_bench_models.py exports the CNN:
  mobilenet_v2 the benchmark models' MobileNetV2 (224x224x3, 1000 classes) returning logits,
               float32 [N,224,224,3] -> [N,1000] (that CNN's softmax output is flat: no check)
  transformer  one Transformer encoder block (4-head self-attention, LayerNorm, a 512-wide ReLU
               feed-forward, LayerNorm), float32 [N,32,128] -> [N,32,128]
  lstm         an LSTM of 64 units over 32 steps of 16 features, then Dense 8,
               float32 [N,32,16] -> [N,8]
Every SavedModel with float inputs (the benchmark models' mlp and cnn, and these two) is converted
  to LiteRT with litert_models.py's conversion, one static-shape file per case (LiteRT's compiled
    model takes no dynamic batch): OUT_DIR/litert/CASE.tflite;
  to ONNX with tf2onnx (opset ONNX_OPSET, the batch left dynamic): OUT_DIR/onnx/MODEL.onnx.
A model that does not convert keeps the converter's reason; the string-input text model is tried
too, so its reasons are recorded.

OUT_DIR/bench_models.json has the format of generate_bench_models.py's (tfjni-bench's BenchCase
reads it): the benchmark models' float cases, their files named by absolute path, and this
script's cases, each with
  "litert": "litert/CASE.tflite" or null, "litert_error": the converter's reason or null,
  "onnx": "onnx/MODEL.onnx" or null, "onnx_error": likewise,
and "not_timed": the cases of the benchmark models left out (string inputs), with the reasons.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import generate_bench_models as bench

# litert_models.py (the test models' LiteRT conversion) lives with the goldens' generators.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "goldens"))

SEED = 2468
SEQUENCE = 32
MODEL_WIDTH = 128
HEADS = 4
FEED_FORWARD = 512
LSTM_FEATURES = 16
LSTM_UNITS = 64
ONNX_OPSET = 17
REASON_CHARS = 400


def build_transformer(tf, path):
    import keras

    keras.utils.set_random_seed(SEED)
    tokens = keras.Input((SEQUENCE, MODEL_WIDTH))
    attention = keras.layers.MultiHeadAttention(num_heads=HEADS, key_dim=MODEL_WIDTH // HEADS)(
        tokens, tokens)
    x = keras.layers.LayerNormalization(epsilon=1e-6)(tokens + attention)
    forward = keras.layers.Dense(FEED_FORWARD, activation="relu")(x)
    forward = keras.layers.Dense(MODEL_WIDTH)(forward)
    encoded = keras.layers.LayerNormalization(epsilon=1e-6)(x + forward)
    bench.export_keras(tf, keras.Model(tokens, encoded), path, "tokens", "encoded")


def build_lstm(tf, path):
    import keras

    keras.utils.set_random_seed(SEED)
    steps = keras.Input((SEQUENCE, LSTM_FEATURES))
    logits = keras.layers.Dense(8)(keras.layers.LSTM(LSTM_UNITS)(steps))
    bench.export_keras(tf, keras.Model(steps, logits), path, "steps", "logits")


def build_mobilenet(tf, path):
    """MobileNetV2 224x224 with random weights, as the benchmark models' CNN but returning its
    logits: that CNN's softmax is flat (all 1000 probabilities 0.001 to the last bit), so it cannot
    tell a runtime that computes something else; the logits differ per class."""
    import keras

    keras.utils.set_random_seed(SEED)
    model = keras.applications.MobileNetV2(weights=None, input_shape=(224, 224, 3), classes=1000,
                                           classifier_activation=None)
    bench.export_keras(tf, model, path, "image", "logits")


def reason(text):
    """A converter's failure in a line: the ops it needs TensorFlow's own kernels for where it says
    so, else its first line that names what failed, with the ops its MLIR locations name."""
    text = str(text)
    lines = [l.strip() for l in text.splitlines() if l.strip() and not l.strip().startswith("loc(")]
    select = [l for l in lines if l.startswith("TF Select ops:")]
    if select:
        return select[0][:REASON_CHARS]
    found = [l for l in lines if re.search(
        r"Lowering tensor list ops is failed|not supported|Unsupported ops", l)] or lines[-1:]
    # Without MLIR's "<unknown>:0: error: " or a logger's "<time> - ERROR - " before it.
    first = re.sub(r"^.*?(error: |ERROR - )", "", found[0] if found else "no message").split(". Please")[0]
    ops = sorted(set(re.findall(r'fused\["(\w+):"', text)))
    return (first + (f" (ops: {', '.join(ops)})" if ops else ""))[:REASON_CHARS]


def convert_litert(tf, model_dir, case, tflite_path):
    """The case's model with its static input shape as a LiteRT file; None, or the reason."""
    import litert_models

    loaded = tf.saved_model.load(str(model_dir))
    signature = loaded.signatures[case["signature"]]
    dtype = tf.string if case["input_dtype"] == "string" else tf.as_dtype(case["input_dtype"])
    spec = tf.TensorSpec(case["input_shape"], dtype, name=case["input_key"])
    fn = litert_models.static_call(signature, {case["input_key"]: spec})
    try:
        litert_models.convert_saved_model(loaded, {case["signature"]: fn}, tflite_path)
        return None
    except Exception as e:  # the converter's own exception types vary by failure
        return reason(e)


def convert_onnx(tf2onnx_python, model_dir, onnx_path):
    """The SavedModel as ONNX through tf2onnx's command line; None, or the reason."""
    done = subprocess.run(
        [tf2onnx_python, "-m", "tf2onnx.convert", "--saved-model", str(model_dir), "--tag", "serve",
         "--signature_def", "serving_default", "--opset", str(ONNX_OPSET), "--output", str(onnx_path)],
        capture_output=True, text=True)
    # tf2onnx keeps an op it cannot convert as it is and still writes the file: ONNX Runtime
    # cannot run it, so that is a failure too.
    if done.returncode == 0 and onnx_path.exists() and not re.search(
            r"Unsupported ops|is not supported", done.stderr):
        return None
    onnx_path.unlink(missing_ok=True)
    return reason(done.stderr + done.stdout)


def absolute(case, bench_dir):
    """A benchmark-model case with its files named by absolute path."""
    case = dict(case)
    for key in ("model", "input_npy", "expected_npy"):
        if key in case:
            case[key] = str(bench_dir / case[key])
    return case


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    bench_dir, tf2onnx_python, out_dir = Path(sys.argv[1]).resolve(), sys.argv[2], Path(sys.argv[3])
    shutil.rmtree(out_dir, ignore_errors=True)
    for sub in ("litert", "onnx"):
        (out_dir / sub).mkdir(parents=True)

    import tensorflow as tf

    tf.random.set_seed(SEED)
    rng = np.random.default_rng(SEED)
    bench_manifest = json.loads((bench_dir / "bench_models.json").read_text())
    cases = [absolute(c, bench_dir) for c in bench_manifest["cases"]]
    build_mobilenet(tf, out_dir / "mobilenet_v2")
    build_transformer(tf, out_dir / "transformer")
    build_lstm(tf, out_dir / "lstm")
    cases += [
        bench.record_case(tf, out_dir, "mobilenet_v2_b1", "mobilenet_v2",
                          rng.uniform(-1, 1, (1, 224, 224, 3)).astype(np.float32)),
        bench.record_case(tf, out_dir, "transformer_b1", "transformer",
                          rng.normal(0, 1, (1, SEQUENCE, MODEL_WIDTH)).astype(np.float32)),
        bench.record_case(tf, out_dir, "lstm_b1", "lstm",
                          rng.normal(0, 1, (1, SEQUENCE, LSTM_FEATURES)).astype(np.float32)),
    ]

    onnx = {}  # model directory -> (relative path or None, reason or None)
    for case in cases:
        model_dir = out_dir / case["model"]  # an absolute path stays absolute
        if model_dir not in onnx:
            path = Path("onnx") / (model_dir.name + ".onnx")
            error = convert_onnx(tf2onnx_python, model_dir, out_dir / path)
            onnx[model_dir] = (None, error) if error else (str(path), None)
        case["onnx"], case["onnx_error"] = onnx[model_dir]
        path = Path("litert") / (case["name"] + ".tflite")
        error = convert_litert(tf, model_dir, case, out_dir / path)
        case["litert"], case["litert_error"] = (None, error) if error else (str(path), None)
        print(f"{case['name']}: LiteRT {error or 'converted'}; "
              f"ONNX {case['onnx_error'] or 'converted'}", flush=True)

    timed = [c for c in cases if c["input_dtype"] != "string"]
    not_timed = [{"name": c["name"], "litert_error": c["litert_error"], "onnx_error": c["onnx_error"],
                  "reason": "string input (tfjni's LiteRT path exchanges numeric tensors only)"}
                 for c in cases if c["input_dtype"] == "string"]
    version = subprocess.run([tf2onnx_python, "-c", "import tf2onnx; print(tf2onnx.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    manifest = {"tensorflow": tf.__version__, "tf2onnx": version, "onnx_opset": ONNX_OPSET,
                "cases": timed, "not_timed": not_timed}
    (out_dir / "bench_models.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {len(timed)} runtime cases to {out_dir}")


if __name__ == "__main__":
    main()
