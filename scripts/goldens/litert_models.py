"""LiteRT (.tflite) versions of some test models, with TensorFlow Python's answers.

generate_models.py calls build_litert_models(out_dir) after writing the SavedModels. Each model is
converted by tf.lite.TFLiteConverter with STATIC shapes (LiteRT's compiled-model API refuses a
dynamic batch), one file per batch size: digits and half_plus_two as `tfjni convert` converts a
SavedModel (litert_convert.py's layout inside the SavedModel, with its conversion.json), the
others, which need shapes or signatures of their own, into OUT_DIR/litert/. For fixed inputs the manifest keeps
the source model's outputs as TensorFlow Python computes them (the oracle) and the largest
difference TensorFlow's own tf.lite.Interpreter shows against them; the tolerance a test allows is
max(1e-5, 10 x that difference): another build of the same kernels (XNNPACK) may round differently,
but not by an order of magnitude more.
"""
from pathlib import Path

import numpy as np
import tensorflow as tf

from golden import encode_tensor
from litert_convert import (LAYOUT_DIR, convert_layout, convert_saved_model, interpreter_outputs,
                            load_tensorflow, max_differences, signature_specs, static_call,
                            tf_outputs)

load_tensorflow()

SEED = 1234
MIN_TOLERANCE = 1e-5
TOLERANCE_FACTOR = 10.0
INTERPRETER_THREADS = 2


def record_case(out_dir, name, model, key, inputs, expected):
    """A case: the inputs, TensorFlow's outputs, the interpreter's difference and the tolerance."""
    got = interpreter_outputs(out_dir / model["path"], key, inputs, INTERPRETER_THREADS)
    difference = max(max_differences(expected, got).values())
    return {"name": name, "model": model["name"], "signature": key,
            "inputs": {k: encode_tensor(v) for k, v in inputs.items()},
            "outputs": {k: encode_tensor(np.asarray(v)) for k, v in sorted(expected.items())},
            "interpreter_max_difference": difference,
            "tolerance": max(MIN_TOLERANCE, TOLERANCE_FACTOR * difference)}


def build_litert_models(out_dir):
    out_dir = Path(out_dir)
    (out_dir / "litert").mkdir(exist_ok=True)
    rng = np.random.default_rng(SEED)
    models, cases = {}, []

    def add_model(name, source, convert, path=None):
        """Registers a model: converted now into OUT_DIR/litert/, or already at `path`."""
        model = {"name": name, "source": source, "path": path or "litert/%s.tflite" % name}
        if convert:
            convert(out_dir / model["path"])
        interpreter = tf.lite.Interpreter(model_path=str(out_dir / model["path"]))
        model["signatures"] = {key: signature_specs(interpreter, key)
                               for key in sorted(interpreter.get_signature_list())}
        models[name] = model
        return model

    def add_layout(source, batch_sizes, signature_keys=None):
        """Converts a SavedModel as `tfjni convert` does; returns {(key, batch): file} of those
        that converted, relative to OUT_DIR."""
        manifest = convert_layout(out_dir / source, batch_sizes, signature_keys)
        conversions[source] = {"batch_sizes": list(batch_sizes), "manifest": manifest}
        return {(key, int(n)): "%s/%s/%s" % (source, LAYOUT_DIR, entry["file"])
                for key, signature in manifest["signatures"].items()
                for n, entry in signature["batch_sizes"].items() if "file" in entry}

    # A small CNN (Keras Conv2D, Flatten, Dense softmax), at batch 1 and 4: the layout of
    # `tfjni convert digits --signatures serving_default --batch-sizes 1,4`.
    conversions = {}
    digits_files = add_layout("digits", (1, 4), ["serving_default"])
    digits = tf.saved_model.load(str(out_dir / "digits"))
    images = np.load(out_dir / "digits_holdout_images.npy")
    for batch in (1, 4):
        model = add_model("digits_b%d" % batch, "digits", None,
                          digits_files[("serving_default", batch)])
        x = images[:batch]
        cases.append(record_case(out_dir, "litert_digits_b%d" % batch, model, "serving_default",
                                 {"images": x},
                                 tf_outputs(digits.signatures["serving_default"], {"images": x})))

    # Two signatures in one file: two inputs (add) and two outputs, one a scalar (scale).
    multi = tf.saved_model.load(str(out_dir / "multi"))
    functions = {
        "add": static_call(multi.signatures["add"], {
            "a": tf.TensorSpec([4], tf.float32, name="a"),
            "b": tf.TensorSpec([4], tf.float32, name="b")}),
        "scale": static_call(multi.signatures["scale"], {
            "x": tf.TensorSpec([2, 3], tf.float32, name="x")}),
    }
    model = add_model("multi", "multi",
                      lambda path: convert_saved_model(multi, functions, path))
    a = np.array([1.5, -2.0, 3.25, 0.0], np.float32)
    b = np.array([0.5, 2.0, -10.0, 7.0], np.float32)
    x = np.array([[1, 2, 3], [4.5, -5, 6]], np.float32)
    cases.append(record_case(out_dir, "litert_multi_add", model, "add", {"a": a, "b": b},
                             tf_outputs(multi.signatures["add"], {"a": a, "b": b})))
    cases.append(record_case(out_dir, "litert_multi_scale", model, "scale", {"x": x},
                             tf_outputs(multi.signatures["scale"], {"x": x})))

    # Two inputs that do not commute (0.5 x + offset): fed in the wrong order, the values differ.
    # The layout of `tfjni convert half_plus_two --batch-sizes 3`: plus_offset and serving_default
    # convert, regress_x_to_y (a string input) is recorded as not converting.
    half_files = add_layout("half_plus_two", (3,))
    half = tf.saved_model.load(str(out_dir / "half_plus_two"))
    model = add_model("half_plus_two", "half_plus_two", None, half_files[("plus_offset", 3)])
    xs = np.array([[1.0], [-2.0], [10.0]], np.float32)
    offset = np.array(-7.25, np.float32)
    inputs = {"x": xs, "offset": offset}
    cases.append(record_case(out_dir, "litert_half_plus_two_plus_offset", model, "plus_offset",
                             inputs, tf_outputs(half.signatures["plus_offset"], inputs)))

    # One dense layer, tanh(x W + b): the frozen GraphDef, pruned to a function.
    graph_def = tf.compat.v1.GraphDef()
    graph_def.ParseFromString((out_dir / "frozen.pb").read_bytes())
    frozen = tf.compat.v1.wrap_function(
        lambda: tf.compat.v1.import_graph_def(graph_def, name=""), []).prune("x:0", "Identity:0")
    dense = tf.function(lambda x: {"y": frozen(x)},
                        input_signature=[tf.TensorSpec([4, 2], tf.float32, name="x")])

    model = add_model("dense_b4", "frozen", lambda path: convert_saved_model(
        tf.Module(), {"serving_default": dense}, path))
    x = rng.normal(0, 1, (4, 2)).astype(np.float32)
    cases.append(record_case(out_dir, "litert_dense_b4", model, "serving_default", {"x": x},
                             {"y": frozen(tf.constant(x)).numpy()}))

    # MobileNetV2 at 224x224, batch 1: the CNN of the latency comparison. No value case: with
    # random weights and BatchNorm statistics set from random images its logits are chaotic (an
    # input moved by 1e-6 moves them by about 1, recorded as input_sensitivity), so a
    # comparison would test rounding luck, not tfjni.
    mobilenet = tf.saved_model.load(str(out_dir / "mobilenet_v2"))
    signature = mobilenet.signatures["serving_default"]
    (in_key,) = signature.structured_input_signature[1].keys()
    fn = static_call(signature, {in_key: tf.TensorSpec([1, 224, 224, 3], tf.float32, name=in_key)})
    model = add_model("mobilenet_v2_b1", "mobilenet_v2",
                      lambda path: convert_saved_model(mobilenet,
                                                       {"serving_default": fn}, path))
    x = rng.uniform(0, 1, (1, 224, 224, 3)).astype(np.float32)
    (out_key,) = tf_outputs(signature, {in_key: x})
    moved = [tf_outputs(signature, {in_key: x + np.float32(d)})[out_key] for d in (0, 1e-6)]
    model["input_sensitivity"] = float(np.max(np.abs(moved[1] - moved[0])))

    summary = ", ".join("%s %.1e" % (c["name"], c["interpreter_max_difference"]) for c in cases)
    return ({"models": models, "cases": cases, "conversions": conversions},
            "interpreter differences: " + summary)
