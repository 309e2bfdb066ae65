"""LiteRT (.tflite) versions of some test models, with TensorFlow Python's answers.

generate_models.py calls build_litert_models(out_dir) after writing the SavedModels. Each model is
converted by tf.lite.TFLiteConverter with STATIC shapes (LiteRT's compiled-model API refuses a
dynamic batch), one file per batch size, into OUT_DIR/litert/. For fixed inputs the manifest keeps
the source model's outputs as TensorFlow Python computes them (the oracle) and the largest
difference TensorFlow's own tf.lite.Interpreter shows against them; the tolerance a test allows is
max(1e-5, 10 x that difference): another build of the same kernels (XNNPACK) may round differently,
but not by an order of magnitude more.
"""
import tempfile
from pathlib import Path

import numpy as np
import tensorflow as tf

from golden import encode_tensor

SEED = 1234
MIN_TOLERANCE = 1e-5
TOLERANCE_FACTOR = 10.0
INTERPRETER_THREADS = 2


def convert_saved_model(source, functions, tflite_path):
    """Saves `functions` ({signature key: tf.function with a static input signature} calling the
    loaded SavedModel `source`) as a SavedModel in a temporary directory and converts that,
    keeping the keys and input names."""
    holder = tf.Module()
    holder.source = source  # tracks the variables the functions capture
    holder.functions = functions
    with tempfile.TemporaryDirectory() as static_dir:
        tf.saved_model.save(holder, static_dir, signatures={
            key: fn.get_concrete_function() for key, fn in functions.items()})
        converter = tf.lite.TFLiteConverter.from_saved_model(
            static_dir, signature_keys=sorted(functions))
        tflite_path.write_bytes(converter.convert())


def signature_specs(interpreter, key):
    """{inputs: {name: {dtype, shape}}, outputs: ...} of one signature as TensorFlow Lite reads it."""
    runner = interpreter.get_signature_runner(key)

    def specs(details):
        return {name: {"dtype": tf.as_dtype(d["dtype"]).name, "shape": [int(s) for s in d["shape"]]}
                for name, d in details.items()}
    return {"inputs": specs(runner.get_input_details()),
            "outputs": specs(runner.get_output_details())}


def record_case(out_dir, name, model, key, inputs, expected):
    """A case: the inputs, TensorFlow's outputs, the interpreter's difference and the tolerance."""
    interpreter = tf.lite.Interpreter(model_path=str(out_dir / model["path"]),
                                      num_threads=INTERPRETER_THREADS)
    got = interpreter.get_signature_runner(key)(**inputs)
    if sorted(got) != sorted(expected):
        raise ValueError("%s: outputs %s, TensorFlow gave %s" % (name, sorted(got), sorted(expected)))
    difference = max(float(np.max(np.abs(np.asarray(got[k], np.float64) - np.asarray(v, np.float64))))
                     if np.asarray(v).size else 0.0 for k, v in expected.items())
    return {"name": name, "model": model["name"], "signature": key,
            "inputs": {k: encode_tensor(v) for k, v in inputs.items()},
            "outputs": {k: encode_tensor(np.asarray(v)) for k, v in sorted(expected.items())},
            "interpreter_max_difference": difference,
            "tolerance": max(MIN_TOLERANCE, TOLERANCE_FACTOR * difference)}


def tf_outputs(signature, inputs):
    """A loaded signature's outputs for numpy `inputs`, as numpy arrays."""
    outputs = signature(**{k: tf.constant(v) for k, v in inputs.items()})
    return {k: v.numpy() for k, v in outputs.items()}


def static_call(signature, specs):
    """A tf.function of static input `specs` ({name: TensorSpec}) calling a loaded signature."""
    names = list(specs)

    def call(*args):
        return signature(**dict(zip(names, args)))
    return tf.function(call, input_signature=[specs[n] for n in names])


def build_litert_models(out_dir):
    out_dir = Path(out_dir)
    (out_dir / "litert").mkdir(exist_ok=True)
    rng = np.random.default_rng(SEED)
    models, cases = {}, []

    def add_model(name, source, convert):
        model = {"name": name, "source": source, "path": "litert/%s.tflite" % name}
        convert(out_dir / model["path"])
        interpreter = tf.lite.Interpreter(model_path=str(out_dir / model["path"]))
        model["signatures"] = {key: signature_specs(interpreter, key)
                               for key in sorted(interpreter.get_signature_list())}
        models[name] = model
        return model

    # A small CNN (Keras Conv2D, Flatten, Dense softmax), at batch 1 and 4.
    digits = tf.saved_model.load(str(out_dir / "digits"))
    images = np.load(out_dir / "digits_holdout_images.npy")
    for batch in (1, 4):
        fn = static_call(digits.signatures["serving_default"],
                         {"images": tf.TensorSpec([batch, 8, 8, 1], tf.float32, name="images")})
        model = add_model("digits_b%d" % batch, "digits",
                          lambda path: convert_saved_model(digits,
                                                           {"serving_default": fn}, path))
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
    half = tf.saved_model.load(str(out_dir / "half_plus_two"))
    functions = {"plus_offset": static_call(half.signatures["plus_offset"], {
        "x": tf.TensorSpec([3, 1], tf.float32, name="x"),
        "offset": tf.TensorSpec([], tf.float32, name="offset")})}
    model = add_model("half_plus_two", "half_plus_two",
                      lambda path: convert_saved_model(half, functions, path))
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
    return {"models": models, "cases": cases}, "interpreter differences: " + summary
