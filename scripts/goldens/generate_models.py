#!/usr/bin/env python3
"""Build the tfjni test models and record TensorFlow Python's outputs as the oracle.

Usage:  python scripts/goldens/generate_models.py OUT_DIR

Run it with the project's virtualenv Python (see scripts/requirements/requirements.txt).
OUT_DIR is created (stale content inside it is removed first) and receives the
SavedModels, a frozen GraphDef, the digits hold-out arrays and manifest.json.
Every expected output is computed by running the model *reloaded from disk*.
See docs/test-models.md for the manifest format.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# Note: TF_DETERMINISTIC_OPS is deliberately not set: with TF 2.18 it makes
# Keras' tf.data input pipeline log a spurious "NodeDef mentions attribute
# use_unbounded_threadpool" error. The CPU run is reproducible without it.

import base64
import functools
import json
import re
import shutil
import sys
import time
import traceback
from pathlib import Path

from golden import encode_tensor
from litert_models import build_litert_models
from text_ops_model import build_text_ops
from warmup_requests import write_warmup_requests

SEED = 1234
DTYPE_NAMES = [
    "float16", "bfloat16", "float32", "float64",
    "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64",
    "bool", "complex64", "complex128", "string",
]
# The strings used by strings/transform and (plus one more) dtypes/string.
TEST_STRINGS = [
    b"hello",
    b"",
    "héllo wörld ✓ 日本語".encode("utf-8"),
    b"a string that is definitely longer than twenty-two bytes",
    b"\xff\xfe\x00binary",
]


class GenerationError(Exception):
    pass


# --------------------------------------------------------------------------
# Encoding helpers
# --------------------------------------------------------------------------
def dtype_name_from_enum(enum):
    """numpy-style name for a DataType enum (TF's own DType.name), else the
    enum name lowercased without the DT_ prefix (e.g. 'invalid')."""
    from tensorflow.core.framework import types_pb2
    import tensorflow as tf

    try:
        return tf.dtypes.as_dtype(enum).name
    except Exception:
        return types_pb2.DataType.Name(enum)[3:].lower()


def tensor_info_json(info):
    if info.WhichOneof("encoding") != "name":
        raise GenerationError("unsupported TensorInfo encoding %r" % info.WhichOneof("encoding"))
    if not info.HasField("tensor_shape") or info.tensor_shape.unknown_rank:
        shape = None
    else:
        shape = [int(d.size) for d in info.tensor_shape.dim]
    return {
        "name": info.name,
        "dtype": dtype_name_from_enum(info.dtype),
        "dtype_enum": int(info.dtype),
        "shape": shape,
    }


def signatures_json(path):
    from tensorflow.python.tools import saved_model_utils

    mg = saved_model_utils.get_meta_graph_def(str(path), "serve")
    out = {}
    for key in sorted(mg.signature_def):
        sd = mg.signature_def[key]
        out[key] = {
            "method": sd.method_name,
            "inputs": {k: tensor_info_json(sd.inputs[k]) for k in sorted(sd.inputs)},
            "outputs": {k: tensor_info_json(sd.outputs[k]) for k in sorted(sd.outputs)},
        }
    return out


def save_npy(path, arr):
    import numpy as np

    arr = np.ascontiguousarray(arr)
    if arr.dtype.byteorder == ">":
        arr = arr.byteswap().view(arr.dtype.newbyteorder("<"))
    with open(path, "wb") as f:
        np.lib.format.write_array(f, arr, version=(1, 0), allow_pickle=False)


def run_saved_model_case(out_dir, name, model, calls):
    """calls: list of (signature_key, {input_key: numpy array or tf tensor}).

    Loads the SavedModel freshly from disk and runs the calls in order."""
    import tensorflow as tf

    loaded = tf.saved_model.load(str(out_dir / model), tags=["serve"])
    recorded = []
    for sig_key, inputs in calls:
        fn = loaded.signatures[sig_key]
        tf_inputs = {k: tf.constant(v) if not isinstance(v, tf.Tensor) else v
                     for k, v in inputs.items()}
        outputs = fn(**tf_inputs)
        recorded.append({
            "signature": sig_key,
            "inputs": {k: encode_tensor(v) for k, v in tf_inputs.items()},
            "outputs": {k: encode_tensor(outputs[k]) for k in sorted(outputs)},
        })
    case = {"name": name, "model": model}
    sig_keys = {c["signature"] for c in recorded}
    if len(sig_keys) == 1:
        case["signature"] = recorded[0]["signature"]
    case["calls"] = recorded
    return case


# --------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------
def build_digits(out_dir):
    import numpy as np
    import tensorflow as tf
    import keras
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    keras.utils.set_random_seed(SEED)
    data = load_digits()
    images = (data.images.astype(np.float32) / 16.0).reshape(-1, 8, 8, 1)
    labels = data.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(
        images, labels, test_size=0.2, random_state=SEED, stratify=labels)

    model = keras.Sequential([
        keras.Input(shape=(8, 8, 1), name="images"),
        keras.layers.Conv2D(8, 3, activation="relu", name="conv"),
        keras.layers.Flatten(name="flatten"),
        keras.layers.Dense(10, activation="softmax", name="probs"),
    ], name="digits")
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x_train, y_train, epochs=8, batch_size=32, shuffle=True, verbose=0)

    path = out_dir / "digits"
    model.export(str(path), format="tf_saved_model", verbose=False)

    loaded = tf.saved_model.load(str(path), tags=["serve"])
    fn = loaded.signatures["serving_default"]
    (in_key,) = fn.structured_input_signature[1].keys()
    (out_key,) = fn.structured_outputs.keys()
    probs = fn(**{in_key: tf.constant(x_test)})[out_key].numpy()
    acc = float((probs.argmax(axis=1) == y_test).mean())
    if acc <= 0.9:
        raise GenerationError("digits hold-out accuracy %.3f <= 0.90" % acc)

    save_npy(out_dir / "digits_holdout_images.npy", x_test.astype(np.float32))
    save_npy(out_dir / "digits_holdout_labels.npy", y_test.astype(np.int64))
    save_npy(out_dir / "digits_holdout_probs.npy", probs.astype(np.float32))

    pipeline = build_digit_pipeline(out_dir, fn, in_key, out_key, x_test, y_test)

    cases = [
        run_saved_model_case(out_dir, "digits_batch1", "digits",
                             [("serving_default", {in_key: x_test[:1]})]),
        run_saved_model_case(out_dir, "digits_batch7", "digits",
                             [("serving_default", {in_key: x_test[1:8]})]),
    ]
    extra = {"holdout_images": "digits_holdout_images.npy",
             "holdout_labels": "digits_holdout_labels.npy",
             "holdout_probs": "digits_holdout_probs.npy",
             "holdout_accuracy": acc,
             "pipeline": pipeline}
    return cases, extra, "hold-out accuracy %.3f on %d images" % (acc, len(y_test))


def build_keras_saved_unexported(out_dir):
    """A Keras 3 model written by tf.saved_model.save rather than model.export: its variables are
    not restored by TensorFlow's session loader, so its first run fails. The error TensorFlow's
    own TF1 loader (what saved_model_cli and the C API use) gives is the expected one."""
    import numpy as np
    import tensorflow as tf
    import keras

    keras.utils.set_random_seed(SEED)
    inputs = keras.Input((3,), name="x")
    model = keras.Model(inputs, keras.layers.Dense(2, name="probs")(inputs))
    path = out_dir / "keras_saved_unexported"
    tf.saved_model.save(model, str(path))
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], str(path))
        signature = meta.signature_def["serving_default"]
        (feed,) = signature.inputs.values()
        (fetch,) = signature.outputs.values()
        try:
            sess.run(fetch.name, {feed.name: np.ones((1, 3), np.float32)})
        except tf.errors.FailedPreconditionError as e:
            # Up to the layer: which of its variables a run reads first varies.
            error = re.search(r"Could not find variable [^/ ]+/", e.message).group(0)
        else:
            raise GenerationError("keras_saved_unexported ran; TensorFlow no longer fails on it")
    (input_key,) = signature.inputs.keys()
    extra = {"input_key": input_key, "error_code": "FAILED_PRECONDITION",
             "error": error}
    return [], extra, "fails as expected: %s" % error


def build_multi(out_dir):
    import numpy as np
    import tensorflow as tf

    class Multi(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="a"),
                                      tf.TensorSpec([None], tf.float32, name="b")])
        def add(self, a, b):
            return {"sum": a + b}

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
        def scale(self, x):
            return {"scaled": x * 2.0, "total": tf.reduce_sum(x)}

        @tf.function(input_signature=[tf.TensorSpec(None, tf.float32, name="x")])
        def any_rank(self, x):
            return {"doubled": x * 2.0}

    m = Multi()
    add = m.add.get_concrete_function()
    tf.saved_model.save(m, str(out_dir / "multi"), signatures={
        "serving_default": add,
        "add": add,
        "scale": m.scale.get_concrete_function(),
        "any_rank": m.any_rank.get_concrete_function(),
    })
    f32 = np.float32
    cases = [
        run_saved_model_case(out_dir, "multi_add", "multi", [
            ("add", {"a": np.array([1.5, -2.0, 3.25, 0.0], f32),
                     "b": np.array([0.5, 2.0, -10.0, 7.0], f32)})]),
        run_saved_model_case(out_dir, "multi_serving_default", "multi", [
            ("serving_default", {"a": np.array([1.0, 2.0], f32),
                                 "b": np.array([10.0, 20.0], f32)})]),
        run_saved_model_case(out_dir, "multi_scale", "multi", [
            ("scale", {"x": np.array([[1, 2, 3], [4.5, -5, 6]], f32)})]),
        run_saved_model_case(out_dir, "multi_any_rank_rank3", "multi", [
            ("any_rank", {"x": np.arange(24, dtype=f32).reshape(2, 3, 4) - 7.5})]),
        run_saved_model_case(out_dir, "multi_any_rank_scalar", "multi", [
            ("any_rank", {"x": np.array(-3.25, f32)})]),
    ]
    return cases, {}, "%d signatures" % 4


def dtype_test_values(name):
    """A [2,3] numpy array for dtypes/<name> (min/max, negatives, zero, +-inf)."""
    import numpy as np
    import tensorflow as tf

    if name == "string":
        return np.array(TEST_STRINGS + [b"sixth"], dtype=object).reshape(2, 3)
    if name == "bool":
        return np.array([[True, False, True], [False, False, True]], dtype=bool)
    d = tf.as_dtype(name)
    npd = d.as_numpy_dtype
    if d.is_complex:
        real = tf.float32 if name == "complex64" else tf.float64
        inf = float("inf")
        vals = [complex(-inf, 1.0), complex(-1.5, 2.25), complex(0.0, 0.0),
                complex(real.max, real.min), complex(3.0, -0.5), complex(inf, -inf)]
        return np.array(vals, dtype=npd).reshape(2, 3)
    if d.is_floating:
        inf = float("inf")
        vals = [-inf, float(d.min), -1.5, 0.0, float(d.max), inf]
        return np.array(vals, dtype=npd).reshape(2, 3)
    if d.is_unsigned:
        vals = [0, int(d.max), 1, 42, int(d.max) - 1, 7]
    else:
        vals = [int(d.min), int(d.max), -1, 0, 1, 42]
    return np.array(vals, dtype=npd).reshape(2, 3)


def build_dtypes(out_dir):
    import tensorflow as tf

    m = tf.Module()
    sigs = {}
    for name in DTYPE_NAMES:
        dt = tf.as_dtype(name)

        # ReverseV2 has CPU kernels for every dtype listed here in TF 2.18
        # (verified), so no fallback op is needed.
        def fn(x):
            return {"same": tf.identity(x), "reversed": tf.reverse(x, axis=[0])}

        f = tf.function(fn, input_signature=[tf.TensorSpec([None, 3], dt, name="x")])
        setattr(m, "f_" + name, f)
        sigs[name] = f.get_concrete_function()
    tf.saved_model.save(m, str(out_dir / "dtypes"), signatures=sigs)
    cases = [
        run_saved_model_case(out_dir, "dtypes_" + name, "dtypes",
                             [(name, {"x": tf.constant(dtype_test_values(name),
                                                       dtype=tf.as_dtype(name))})])
        for name in DTYPE_NAMES
    ]
    return cases, {}, "%d dtype signatures" % len(DTYPE_NAMES)


def build_shapes(out_dir):
    import numpy as np
    import tensorflow as tf

    class Shapes(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x")])
        def square(self, x):
            return {"y": x * x}

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
        def row_sums(self, x):
            return {"sums": tf.reduce_sum(x, axis=1)}

        @tf.function(input_signature=[tf.TensorSpec([], tf.int64, name="n")])
        def int_scalar(self, n):
            return {"next": n + 1}

    m = Shapes()
    tf.saved_model.save(m, str(out_dir / "shapes"), signatures={
        "square": m.square.get_concrete_function(),
        "row_sums": m.row_sums.get_concrete_function(),
        "int_scalar": m.int_scalar.get_concrete_function(),
    })
    cases = [
        run_saved_model_case(out_dir, "shapes_square_scalar", "shapes",
                             [("square", {"x": np.array(-3.5, np.float32)})]),
        run_saved_model_case(out_dir, "shapes_row_sums_empty", "shapes",
                             [("row_sums", {"x": np.zeros((0, 3), np.float32)})]),
        run_saved_model_case(out_dir, "shapes_row_sums", "shapes",
                             [("row_sums", {"x": np.array([[1, 2, 3], [-4, 0.5, 10]], np.float32)})]),
        run_saved_model_case(out_dir, "shapes_int_scalar", "shapes",
                             [("int_scalar", {"n": np.array(41, np.int64)})]),
    ]
    return cases, {}, "3 signatures"


def build_strings(out_dir):
    import numpy as np
    import tensorflow as tf

    class Strings(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="s")])
        def transform(self, s):
            return {"upper": tf.strings.upper(s),
                    "length": tf.strings.length(s),  # int32, unit BYTE
                    "joined": s + "_suffix"}

    m = Strings()
    tf.saved_model.save(m, str(out_dir / "strings"),
                        signatures={"transform": m.transform.get_concrete_function()})
    cases = [run_saved_model_case(out_dir, "strings_transform", "strings", [
        ("transform", {"s": tf.constant(np.array(TEST_STRINGS, dtype=object), tf.string)})])]
    return cases, {}, "1 signature"


# More inputs and outputs than tfjni keeps on the stack in one run (16), so the heap path runs.
WIDE_TENSORS = 20


def build_wide(out_dir):
    import numpy as np
    import tensorflow as tf

    specs = [tf.TensorSpec([None], tf.float32, name="x%02d" % i) for i in range(WIDE_TENSORS)]

    class Wide(tf.Module):
        @tf.function(input_signature=specs)
        def scale_each(self, *xs):
            return {"y%02d" % i: x * float(i + 1) for i, x in enumerate(xs)}

    m = Wide()
    tf.saved_model.save(m, str(out_dir / "wide"),
                        signatures={"scale_each": m.scale_each.get_concrete_function()})
    inputs = {"x%02d" % i: np.array([i, -0.5 * i, 1.0], np.float32) for i in range(WIDE_TENSORS)}
    cases = [run_saved_model_case(out_dir, "wide_scale_each", "wide", [("scale_each", inputs)])]
    return cases, {}, "%d inputs, %d outputs" % (WIDE_TENSORS, WIDE_TENSORS)


def build_counter(out_dir):
    import numpy as np
    import tensorflow as tf

    class Counter(tf.Module):
        def __init__(self):
            super().__init__()
            self.count = tf.Variable(0, dtype=tf.int64, name="count")

        @tf.function(input_signature=[])
        def increment(self):
            return {"value": self.count.assign_add(1)}

        @tf.function(input_signature=[tf.TensorSpec([], tf.int64, name="delta")])
        def add(self, delta):
            return {"value": self.count.assign_add(delta)}

        @tf.function(input_signature=[])
        def read(self):
            return {"value": self.count.read_value()}

    m = Counter()
    tf.saved_model.save(m, str(out_dir / "counter"), signatures={
        "increment": m.increment.get_concrete_function(),
        "add": m.add.get_concrete_function(),
        "read": m.read.get_concrete_function(),
    })
    case = run_saved_model_case(out_dir, "counter_sequence", "counter", [
        ("increment", {}), ("increment", {}), ("increment", {}),
        ("add", {"delta": np.array(10, np.int64)}), ("read", {}),
    ])
    got = [int(base64_to_array(c["outputs"]["value"])) for c in case["calls"]]
    if got != [1, 2, 3, 13, 13]:
        raise GenerationError("counter sequence gave %r, expected [1, 2, 3, 13, 13]" % got)
    return [case], {}, "values %s" % got


# The exports a versioned model alternates between (tfjni's io.tfjni.serving tests): one
# signature, y = x * w + b per column with variables w and b, each export with its own values,
# so that an answer tells which version gave it. "renamed" feeds the same computation through
# input "features", "float64" through a DOUBLE "x": signatures a predictor made on the others
# cannot feed.
VERSIONED_EXPORTS = {
    "versioned_a": {"w": [2.0, 3.0, 4.0], "b": [1.0, 1.0, 1.0], "input": "x", "dtype": "float32"},
    "versioned_b": {"w": [-1.0, 0.5, 10.0], "b": [0.0, -2.0, 3.0], "input": "x",
                    "dtype": "float32"},
    "versioned_renamed": {"w": [2.0, 3.0, 4.0], "b": [1.0, 1.0, 1.0], "input": "features",
                          "dtype": "float32"},
    "versioned_float64": {"w": [2.0, 3.0, 4.0], "b": [1.0, 1.0, 1.0], "input": "x",
                          "dtype": "float64"},
}
VERSIONED_ROWS = 8


def build_versioned(out_dir, name):
    """One of VERSIONED_EXPORTS, and its case: VERSIONED_ROWS rows through it."""
    import numpy as np
    import tensorflow as tf

    spec = VERSIONED_EXPORTS[name]
    dtype = tf.as_dtype(spec["dtype"])

    class Affine(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.array(spec["w"]), dtype=dtype, name="w")
            self.b = tf.Variable(np.array(spec["b"]), dtype=dtype, name="b")

        @tf.function(input_signature=[tf.TensorSpec([None, 3], dtype, name=spec["input"])])
        def affine(self, x):
            return {"y": x * self.w + self.b}

    m = Affine()
    tf.saved_model.save(m, str(out_dir / name),
                        signatures={"serving_default": m.affine.get_concrete_function()})
    rows = np.array([[i, i + 0.5, -2.0 * i] for i in range(VERSIONED_ROWS)],
                    dtype.as_numpy_dtype)
    case = run_saved_model_case(out_dir, name + "_rows", name,
                                [("serving_default", {spec["input"]: rows})])
    expected = rows * np.array(spec["w"]) + np.array(spec["b"])
    got = base64_to_array(case["calls"][0]["outputs"]["y"])
    if not np.array_equal(got, expected.astype(dtype.as_numpy_dtype)):
        raise GenerationError("%s gave %r, expected %r" % (name, got, expected))
    return [case], {}, "y = x * %s + %s" % (spec["w"], spec["b"])


def base64_to_array(t):
    import numpy as np
    import tensorflow as tf

    npd = tf.as_dtype(t["dtype"]).as_numpy_dtype
    return np.frombuffer(base64.b64decode(t["data"]), dtype=np.dtype(npd).newbyteorder("<")
                         ).reshape(t["shape"])


def build_lookup(out_dir):
    import numpy as np
    import tensorflow as tf

    class Lookup(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = tf.lookup.StaticHashTable(
                tf.lookup.KeyValueTensorInitializer(
                    tf.constant(["apple", "banana", "cherry"]),
                    tf.constant([1, 2, 3], dtype=tf.int64)),
                default_value=tf.constant(-1, tf.int64))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="keys")])
        def lookup(self, keys):
            return {"ids": self.table.lookup(keys)}

    m = Lookup()
    tf.saved_model.save(m, str(out_dir / "lookup"),
                        signatures={"lookup": m.lookup.get_concrete_function()})
    keys = np.array([b"banana", b"kiwi", b"apple", b"cherry", b""], dtype=object)
    case = run_saved_model_case(out_dir, "lookup_keys", "lookup",
                                [("lookup", {"keys": tf.constant(keys, tf.string)})])
    ids = base64_to_array(case["calls"][0]["outputs"]["ids"]).tolist()
    if ids != [2, -1, 1, 3, -1]:
        raise GenerationError("lookup gave %r" % ids)
    return [case], {}, "ids %s" % ids


def build_thread_probe(out_dir):
    """read_file(path) -> contents: tf.io.read_file in a signature. Given
    "/proc/thread-self/stat", whose first field is the id of the thread that
    opens it, it tells which thread ran the op: a test can see whether a session
    runs ops on the calling thread without any timing. No golden case: the
    answer is a thread id of the process running it."""
    import threading
    import tensorflow as tf

    class ThreadProbe(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.string, name="path")])
        def read_file(self, path):
            return {"contents": tf.io.read_file(path)}

    m = ThreadProbe()
    tf.saved_model.save(m, str(out_dir / "thread_probe"), signatures={
        "read_file": m.read_file.get_concrete_function()})

    # The trick itself, checked with TensorFlow Python: a session with
    # inter_op_parallelism_threads -1 reads the caller's thread id, one with
    # an inter-op pool (2) another thread's.
    seen = {}
    for inter in (2, -1):
        config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=2,
                                          inter_op_parallelism_threads=inter)
        graph = tf.Graph()
        with tf.compat.v1.Session(graph=graph, config=config) as sess:
            meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"],
                                                         str(out_dir / "thread_probe"))
            sig = meta.signature_def["read_file"]
            stat = sess.run(sig.outputs["contents"].name,
                            {sig.inputs["path"].name: b"/proc/thread-self/stat"})
        seen[inter] = int(stat.split()[0])
    caller = threading.get_native_id()
    if seen[-1] != caller or seen[2] == caller:
        raise GenerationError("thread probe: caller thread %d, inter-op -1 ran on %d, inter-op 2 "
                              "on %d" % (caller, seen[-1], seen[2]))
    return [], {}, "caller thread %d; inter-op 2 ran on thread %d" % (caller, seen[2])


def build_half_plus_two(out_dir):
    """TensorFlow Serving's classic half_plus_two, rebuilt as a TF1 graph: y = 0.5 * x + 2.

    Its `serving_default` input `x` is not a placeholder: it is parsed from serialized
    tf.Examples fed to the placeholder `tf_example`, which only `regress_x_to_y` names. So a run
    that leaves out `x` fails inside TensorFlow on a placeholder the signature never mentions.
    `plus_offset` adds an input with a default (`offset`, PlaceholderWithDefault 2.0): a partial
    feed of `x` alone is meaningful there. Oracle: a TF1 Session over the reloaded model."""
    import numpy as np
    import tensorflow as tf

    v1 = tf.compat.v1
    path = out_dir / "half_plus_two"
    graph = tf.Graph()
    with graph.as_default():
        a = v1.Variable(0.5, name="a")
        b = v1.Variable(2.0, name="b")
        serialized = v1.placeholder(tf.string, [None], name="tf_example")
        parsed = v1.io.parse_example(serialized, {"x": v1.io.FixedLenFeature([1], tf.float32)})
        x = tf.identity(parsed["x"], name="x")
        y = tf.add(tf.multiply(a, x), b, name="y")
        offset = v1.placeholder_with_default(tf.constant(2.0), [], name="offset")
        z = tf.add(tf.multiply(a, x), offset, name="z")
        info = v1.saved_model.utils.build_tensor_info
        sig = v1.saved_model.signature_def_utils.build_signature_def
        with v1.Session(graph=graph) as sess:
            sess.run(v1.global_variables_initializer())
            builder = v1.saved_model.Builder(str(path))
            builder.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={
                "serving_default": sig({"x": info(x)}, {"y": info(y)},
                                       "tensorflow/serving/predict"),
                "regress_x_to_y": sig({"inputs": info(serialized)}, {"outputs": info(y)},
                                      "tensorflow/serving/regress"),
                "plus_offset": sig({"x": info(x), "offset": info(offset)}, {"z": info(z)},
                                   "tensorflow/serving/predict"),
            })
            builder.save()

    xs = np.array([[1.0], [2.0], [5.0]], np.float32)
    examples = np.array([tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[float(v)]))}))
        .SerializeToString() for v in xs[:, 0]], dtype=object)
    offsets = np.array(10.0, np.float32)
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.load(sess, ["serve"], str(path))

        def run(key, feeds):
            s = meta.signature_def[key]
            out_keys = sorted(s.outputs)
            values = sess.run([s.outputs[k].name for k in out_keys],
                              {s.inputs[k].name: v for k, v in feeds.items()})
            return {"signature": key, "inputs": {k: encode_tensor(v) for k, v in feeds.items()},
                    "outputs": {k: encode_tensor(v) for k, v in zip(out_keys, values)}}

        calls = [run("serving_default", {"x": xs}), run("regress_x_to_y", {"inputs": examples}),
                 run("plus_offset", {"x": xs, "offset": offsets})]
        y = base64_to_array(calls[0]["outputs"]["y"])
    if not np.array_equal(y, xs * 0.5 + 2):
        raise GenerationError("half_plus_two gave %r" % y.tolist())
    cases = [{"name": "half_plus_two_" + c["signature"], "model": "half_plus_two",
              "signature": c["signature"], "calls": [c]} for c in calls]
    return cases, {}, "y %s" % y[:, 0].tolist()


def build_frozen(out_dir):
    import numpy as np
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2)

    w = tf.Variable([[0.5, -1.0, 0.25], [1.5, 0.75, -0.5]], dtype=tf.float32, name="W")
    b = tf.Variable([0.1, -0.2, 0.3], dtype=tf.float32, name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def f(x):
        return tf.tanh(tf.matmul(x, w) + b)

    frozen = convert_variables_to_constants_v2(f.get_concrete_function())
    graph_def = frozen.graph.as_graph_def()
    input_names = [t.name for t in frozen.inputs]
    output_names = [t.name for t in frozen.outputs]
    if any(n.dtype == tf.resource for n in frozen.inputs):
        raise GenerationError("frozen graph still has resource inputs")
    path = out_dir / "frozen.pb"
    path.write_bytes(graph_def.SerializeToString())

    # Oracle: import the GraphDef read back from disk and run it in a Session.
    gd = tf.compat.v1.GraphDef()
    gd.ParseFromString(path.read_bytes())
    x = np.array([[0.0, 0.0], [1.0, 2.0], [-1.5, 0.5], [3.0, -4.0]], np.float32)
    g = tf.Graph()
    with g.as_default():
        tf.graph_util.import_graph_def(gd, name="")
    with tf.compat.v1.Session(graph=g) as sess:
        (y,) = sess.run(output_names, feed_dict={input_names[0]: x})
    case = {"name": "frozen_tanh_batch4", "model": "frozen", "calls": [{
        "inputs": {input_names[0]: encode_tensor(x)},
        "outputs": {output_names[0]: encode_tensor(np.asarray(y, np.float32))},
    }]}
    extra = {"inputs": input_names, "outputs": output_names}
    return [case], extra, "inputs %s outputs %s" % (input_names, output_names)


# --------------------------------------------------------------------------
# Run options, run metadata and devices
# --------------------------------------------------------------------------
SLOW_LOOP_ITERATIONS = 200000  # about 1 s of while-loop steps on one core
LCG_MULTIPLIER = 6364136223846793005
LCG_INCREMENT = 1442695040888963407


def build_checked(out_dir):
    """double(x f32[None, 2]) -> doubled: x * 2, through tf.debugging.check_numerics, so a
    batch holding a NaN or an infinity fails with TensorFlow's INVALID_ARGUMENT while finite
    rows give plain arithmetic. The batching predictor's tests use it for a failing run."""
    import numpy as np
    import tensorflow as tf

    class Checked(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
        def double(self, x):
            return {"doubled": tf.debugging.check_numerics(x, "row is not finite") * 2.0}

    m = Checked()
    tf.saved_model.save(m, str(out_dir / "checked"),
                        signatures={"double": m.double.get_concrete_function()})
    x = np.array([[1.5, -2.0], [0.25, 8.0]], np.float32)
    case = run_saved_model_case(out_dir, "checked_double", "checked", [("double", {"x": x})])
    fn = tf.saved_model.load(str(out_dir / "checked")).signatures["double"]
    try:
        fn(x=tf.constant([[1.0, float("nan")]], tf.float32))
        raise GenerationError("checked: a NaN row did not fail")
    except tf.errors.InvalidArgumentError:
        pass
    return [case], {}, "1 signature"


def build_slow_loop(out_dir):
    """spin(seed i64[], iterations i32[]) -> value: a tf.while_loop stepping a
    64-bit linear congruential generator `iterations` times. Slow on purpose:
    at SLOW_LOOP_ITERATIONS a 1 ms run timeout always expires mid-loop. The
    golden comes from TensorFlow Python, checked against plain integer
    arithmetic; the generator also checks, with TensorFlow Python's session,
    that a 1 ms timeout gives DEADLINE_EXCEEDED and the next call succeeds."""
    import numpy as np
    import tensorflow as tf

    class SlowLoop(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.int64, name="seed"),
                                      tf.TensorSpec([], tf.int32, name="iterations")])
        def spin(self, seed, iterations):
            def step(i, x):
                return i + 1, x * LCG_MULTIPLIER + LCG_INCREMENT
            _, value = tf.while_loop(lambda i, x: i < iterations, step, [tf.constant(0), seed])
            return {"value": value}

    m = SlowLoop()
    tf.saved_model.save(m, str(out_dir / "slow_loop"),
                        signatures={"spin": m.spin.get_concrete_function()})
    seed = np.array(7, np.int64)
    iterations = np.array(SLOW_LOOP_ITERATIONS, np.int32)
    case = run_saved_model_case(out_dir, "slow_loop_spin", "slow_loop",
                                [("spin", {"seed": seed, "iterations": iterations})])
    got = int(base64_to_array(case["calls"][0]["outputs"]["value"]))
    x = int(seed)
    for _ in range(SLOW_LOOP_ITERATIONS):
        x = (x * LCG_MULTIPLIER + LCG_INCREMENT) % 2**64
    expected = x - 2**64 if x >= 2**63 else x
    if got != expected:
        raise GenerationError("slow_loop gave %d, integer arithmetic %d" % (got, expected))

    graph = tf.Graph()
    with tf.compat.v1.Session(graph=graph) as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], str(out_dir / "slow_loop"))
        sig = meta.signature_def["spin"]
        feed = {sig.inputs["seed"].name: seed, sig.inputs["iterations"].name: iterations}
        try:
            sess.run(sig.outputs["value"].name, feed,
                     options=tf.compat.v1.RunOptions(timeout_in_ms=1))
            raise GenerationError("slow_loop finished within a 1 ms timeout")
        except tf.errors.DeadlineExceededError:
            pass
        if int(sess.run(sig.outputs["value"].name, feed)) != got:
            raise GenerationError("slow_loop: the call after a timeout differs")
    return [case], {"iterations": SLOW_LOOP_ITERATIONS}, "value %d after %d iterations" % (
        got, SLOW_LOOP_ITERATIONS)


def frozen_traced_nodes(out_dir, frozen_entry):
    """{node name: op type} of the frozen graph's nodes that TensorFlow Python's
    step statistics list for one traced run (SOFTWARE_TRACE): the nodes a tfjni
    trace of the same run must name. The op type is the one that ran, read from
    the node's timeline label ("name = Op(inputs)") as TensorFlow's timeline
    does: grappler may have rewritten it (MatMul + add + Tanh run as one fused
    op named "Tanh"), so it can differ from the GraphDef's."""
    import numpy as np
    import tensorflow as tf

    gd = tf.compat.v1.GraphDef()
    gd.ParseFromString((out_dir / frozen_entry["path"]).read_bytes())
    graph_nodes = {node.name for node in gd.node}
    g = tf.Graph()
    with g.as_default():
        tf.graph_util.import_graph_def(gd, name="")
    metadata = tf.compat.v1.RunMetadata()
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(frozen_entry["outputs"], feed_dict={
            frozen_entry["inputs"][0]: np.ones([4, 2], np.float32)},
            options=tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.SOFTWARE_TRACE),
            run_metadata=metadata)
    traced = {}
    for device in metadata.step_stats.dev_stats:
        for node in device.node_stats:
            if node.node_name in graph_nodes:
                traced[node.node_name] = node.timeline_label.split(" = ", 1)[1].split("(", 1)[0]
    if "Tanh" not in traced or "Identity" not in traced:
        raise GenerationError("frozen trace lacks Tanh or Identity: %r" % traced)
    return traced


def multi_add_traced_nodes(out_dir):
    """{node name: op type} of what TensorFlow Python's step statistics list
    for one traced call of multi's `add` signature in a TF1 session (the
    function inlined into the session's graph); the op type as the node's
    timeline label names it. `tfjni bench --trace` must list these."""
    import numpy as np
    import tensorflow as tf

    metadata = tf.compat.v1.RunMetadata()
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], str(out_dir / "multi"))
        sig = meta.signature_def["add"]
        sess.run(sig.outputs["sum"].name,
                 {sig.inputs["a"].name: np.array([1, 2], np.float32),
                  sig.inputs["b"].name: np.array([3, 4], np.float32)},
                 options=tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.SOFTWARE_TRACE),
                 run_metadata=metadata)
    traced = {}
    for device in metadata.step_stats.dev_stats:
        for node in device.node_stats:
            if " = " in node.timeline_label and not node.node_name.startswith("_"):
                traced[node.node_name] = node.timeline_label.split(" = ", 1)[1].split("(", 1)[0]
    if "AddV2" not in traced.values():
        raise GenerationError("multi add trace lacks AddV2: %r" % traced)
    return traced


RUN_OPTIONS_CASES = [
    ("empty", {}),
    ("timeout", {"timeout_in_ms": 1}),
    ("large_timeout", {"timeout_in_ms": 2**40}),
    ("trace", {"trace_level": 3}),
    ("both", {"trace_level": 1, "timeout_in_ms": 250}),
]


def build_run_options_protos():
    """RunOptions as TensorFlow Python serializes them, for byte-exact tests of
    tfjni's encoder."""
    from tensorflow.core.protobuf import config_pb2

    out = []
    for name, fields in RUN_OPTIONS_CASES:
        data = config_pb2.RunOptions(**fields).SerializeToString()
        out.append({"name": name, "options": fields,
                    "bytes": base64.b64encode(data).decode("ascii")})
    return out


def session_devices():
    """The devices a TensorFlow Python session lists: name, type, memory limit."""
    import tensorflow as tf

    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        devices = [{"name": d.name, "type": d.device_type, "memory_limit_bytes": d.memory_limit_bytes}
                   for d in sess.list_devices()]
    logical = sorted(d.name for d in tf.config.list_logical_devices())
    short = sorted(d["name"].replace("/job:localhost/replica:0/task:0/", "/") for d in devices)
    if logical != short:
        raise GenerationError("session devices %r differ from logical devices %r" % (short, logical))
    return devices


# --------------------------------------------------------------------------
# ConfigProto fixtures
# --------------------------------------------------------------------------
CONFIG_CASES = [
    ("empty", {}),
    ("intra_only", {"intra_op_threads": 2}),
    ("inter_only", {"inter_op_threads": 3}),
    ("single_thread_soft_placement",
     {"intra_op_threads": 1, "inter_op_threads": 1, "allow_soft_placement": True}),
    ("gpu_options",
     {"gpu_allow_growth": True, "gpu_memory_fraction": 0.5, "gpu_visible_devices": "0,1"}),
    ("per_session_threads", {"use_per_session_threads": True}),
    ("session_thread_pools",
     {"session_inter_op_thread_pool": [{"num_threads": 4, "global_name": "pool_a"},
                                       {"num_threads": 2}]}),
    ("everything",
     {"intra_op_threads": 4, "inter_op_threads": 2, "use_per_session_threads": True,
      "allow_soft_placement": True, "gpu_allow_growth": True,
      "gpu_memory_fraction": 0.25, "gpu_visible_devices": "0"}),
    ("large_values", {"intra_op_threads": 1000000, "gpu_memory_fraction": 1e-9}),
    # -1: run every op on the calling thread (a negative int32 is a 10-byte varint).
    ("caller_thread", {"intra_op_threads": 2, "inter_op_threads": -1}),
]


MOBILENET_SIZE = 224


def build_mobilenet(out_dir):
    """keras.applications.MobileNetV2(weights=None) with fixed seeds, its logits out; BatchNorm
    statistics set from a few random images so that activations do not vanish (random weights
    with BatchNorm's initial mean 0, variance 1 give logits ~1e-12, every class tied), and so
    that the model is not chaotic: its logits move by about 2e-6 between 1 and 2 intra-op
    threads and between oneDNN's and Eigen's kernels. Writes a 224x224 PNG and TensorFlow
    Python's top-5 softmax probabilities for it."""
    import numpy as np
    import tensorflow as tf
    import keras

    keras.utils.set_random_seed(SEED)
    model = keras.applications.MobileNetV2(
        weights=None, input_shape=(MOBILENET_SIZE, MOBILENET_SIZE, 3), classifier_activation=None)
    rng = np.random.default_rng(SEED)
    calibration = rng.uniform(0, 1, (4, MOBILENET_SIZE, MOBILENET_SIZE, 3)).astype(np.float32)
    norms = [layer for layer in model.layers if isinstance(layer, keras.layers.BatchNormalization)]
    probe = keras.Model(model.inputs, [layer.input for layer in norms])
    for _ in range(3):  # each pass fixes the layers whose inputs the previous one settled
        for layer, a in zip(norms, probe(calibration, training=False)):
            a = np.asarray(a)
            axes = tuple(range(a.ndim - 1))
            layer.moving_mean.assign(a.mean(axis=axes))
            # A floor of 0.1: a channel that the noise leaves almost constant, scaled by
            # 1 / sqrt(1e-3), would amplify rounding so much that the logits followed the
            # summation order (the thread count, the kernel set) by 0.2.
            layer.moving_variance.assign(a.var(axis=axes) + 0.1)

    path = out_dir / "mobilenet_v2"
    model.export(str(path), format="tf_saved_model", verbose=False)

    y, x = np.mgrid[0:MOBILENET_SIZE, 0:MOBILENET_SIZE]
    image = np.stack([x * 255 // (MOBILENET_SIZE - 1), y * 255 // (MOBILENET_SIZE - 1),
                      (x + y) * 255 // (2 * MOBILENET_SIZE - 2)], -1).astype(np.uint8)
    image[60:160, 80:140] = [250, 30, 20]
    png = tf.io.encode_png(image).numpy()
    (out_dir / "mobilenet.png").write_bytes(png)

    loaded = tf.saved_model.load(str(path), tags=["serve"])
    fn = loaded.signatures["serving_default"]
    (in_key,) = fn.structured_input_signature[1].keys()
    (out_key,) = fn.structured_outputs.keys()
    # DJL's pipeline for a TensorFlow engine: decode, HWC float / 255, batch, model, softmax.
    batch = tf.cast(tf.io.decode_png(png, channels=3), tf.float32)[None] / 255.0
    probs = tf.nn.softmax(fn(**{in_key: batch})[out_key][0])
    top = tf.math.top_k(probs, k=6)
    values = [float(v) for v in top.values.numpy()]
    if min(a - b for a, b in zip(values, values[1:])) < 1e-5:
        raise GenerationError("mobilenet: top-5 probabilities too close to order: %s" % values)
    extra = {"image": "mobilenet.png", "input": in_key, "output": out_key,
             "top5": {"indices": [int(i) for i in top.indices.numpy()[:5]],
                      "values": values[:5]}}
    return [], extra, "top-1 class %d p=%.4f" % (extra["top5"]["indices"][0], values[0])


def onednn_setting():
    """The kernel set every expected value was computed with: TF_ENABLE_ONEDNN_OPTS as this
    process had it (None: unset, TensorFlow's default for this CPU) and whether oneDNN's kernels
    were in effect. The tests refuse to compare against these values under another setting."""
    from tensorflow.python.util import _pywrap_util_port

    return {"TF_ENABLE_ONEDNN_OPTS": os.environ.get("TF_ENABLE_ONEDNN_OPTS"),
            "enabled": bool(_pywrap_util_port.IsMklEnabled())}


def build_config_protos():
    from tensorflow.core.protobuf import config_pb2

    out = []
    for name, opts in CONFIG_CASES:
        c = config_pb2.ConfigProto()
        for key, val in opts.items():
            if key == "intra_op_threads":
                c.intra_op_parallelism_threads = val
            elif key == "inter_op_threads":
                c.inter_op_parallelism_threads = val
            elif key == "use_per_session_threads":
                c.use_per_session_threads = val
            elif key == "session_inter_op_thread_pool":
                for p in val:
                    tp = c.session_inter_op_thread_pool.add()
                    tp.num_threads = p["num_threads"]
                    if "global_name" in p:
                        tp.global_name = p["global_name"]
            elif key == "allow_soft_placement":
                c.allow_soft_placement = val
            elif key == "gpu_allow_growth":
                c.gpu_options.allow_growth = val
            elif key == "gpu_memory_fraction":
                c.gpu_options.per_process_gpu_memory_fraction = val
            elif key == "gpu_visible_devices":
                c.gpu_options.visible_device_list = val
            else:
                raise GenerationError("unknown config option " + key)
        data = c.SerializeToString(deterministic=True)
        out.append({"name": name, "options": opts,
                    "bytes": base64.b64encode(data).decode("ascii")})
    return out


# --------------------------------------------------------------------------
def prepare_out_dir(out_dir):
    out_dir = out_dir.resolve()
    forbidden = {Path("/").resolve(), Path.home().resolve(), Path.cwd().resolve()}
    if out_dir in forbidden or (out_dir / ".git").exists():
        raise GenerationError("refusing to clear %s; pick a dedicated output directory" % out_dir)
    if out_dir.exists():
        if not out_dir.is_dir():
            raise GenerationError("%s exists and is not a directory" % out_dir)
        for child in out_dir.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
    out_dir.mkdir(parents=True, exist_ok=True)
    return out_dir


PIPELINE_UPSCALE = 4  # held-out digits are written as 32x32 images


def digit_pipeline_top5(image_bytes, decode, fn, in_key, out_key):
    """The README's pipeline in TensorFlow Python: decode, resize, normalise, CNN, top-5."""
    import tensorflow as tf
    image = decode(image_bytes, channels=1)                      # uint8 [32, 32, 1]
    resized = tf.image.resize(tf.cast(image, tf.float32), [8, 8], method="bilinear")
    batch = tf.expand_dims(resized / 255.0, 0)                   # float32 [1, 8, 8, 1]
    probs = fn(**{in_key: batch})[out_key][0]
    top = tf.math.top_k(probs, k=5)
    return {"indices": [int(i) for i in top.indices.numpy()],
            "values": [float(v) for v in top.values.numpy()]}


def build_digit_pipeline(out_dir, fn, in_key, out_key, x_test, y_test):
    """Writes a held-out digit as PNG and JPEG files with the pipeline's expected top-5."""
    import numpy as np
    import tensorflow as tf
    for index in range(len(y_test)):
        pixels = np.round(x_test[index, :, :, 0] * 255.0).astype(np.uint8)
        big = np.kron(pixels, np.ones((PIPELINE_UPSCALE, PIPELINE_UPSCALE), np.uint8))[..., None]
        png = tf.io.encode_png(big).numpy()
        jpeg = tf.io.encode_jpeg(big, quality=95).numpy()
        png_top5 = digit_pipeline_top5(png, tf.io.decode_png, fn, in_key, out_key)
        jpeg_top5 = digit_pipeline_top5(jpeg, tf.io.decode_jpeg, fn, in_key, out_key)
        if png_top5["indices"][0] == y_test[index] == jpeg_top5["indices"][0]:
            break
    else:
        raise GenerationError("no held-out digit survives the image pipeline")
    (out_dir / "digit.png").write_bytes(png)
    (out_dir / "digit.jpg").write_bytes(jpeg)
    return {"png": "digit.png", "jpeg": "digit.jpg", "label": int(y_test[index]),
            "holdout_index": index, "size": [8, 8],
            "png_top5": png_top5, "jpeg_top5": jpeg_top5}


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print("usage: %s OUT_DIR" % argv[0], file=sys.stderr)
        return 2
    start = time.time()
    out_dir = prepare_out_dir(Path(argv[1]))

    import numpy as np
    import tensorflow as tf
    import keras

    tf.get_logger().setLevel("ERROR")  # e.g. the harmless table_initializer warning
    tf.random.set_seed(SEED)
    np.random.seed(SEED)

    builders = [
        ("digits", "saved_model", build_digits),
        ("multi", "saved_model", build_multi),
        ("dtypes", "saved_model", build_dtypes),
        ("shapes", "saved_model", build_shapes),
        ("strings", "saved_model", build_strings),
        ("wide", "saved_model", build_wide),
        ("counter", "saved_model", build_counter),
        ("lookup", "saved_model", build_lookup),
        ("thread_probe", "saved_model", build_thread_probe),
        ("half_plus_two", "saved_model", build_half_plus_two),
        ("frozen", "graph_def", build_frozen),
        ("slow_loop", "saved_model", build_slow_loop),
        ("checked", "saved_model", build_checked),
    ] + [
        (name, "saved_model", functools.partial(build_versioned, name=name))
        for name in VERSIONED_EXPORTS
    ] + [
        ("text_ops", "saved_model", lambda out: build_text_ops(out, run_saved_model_case)),
        ("mobilenet_v2", "saved_model", build_mobilenet),
        # Last: a Keras model built earlier would shift the input names Keras gives mobilenet_v2.
        ("keras_saved_unexported", "saved_model", build_keras_saved_unexported),
    ]
    models, signatures, cases = {}, {}, []
    for name, kind, build in builders:
        t0 = time.time()
        model_cases, extra, summary = build(out_dir)
        if kind == "saved_model":
            entry = {"path": name, "kind": kind, "tags": ["serve"]}
            signatures[name] = signatures_json(out_dir / name)
        else:
            entry = {"path": "frozen.pb", "kind": kind}
        entry.update(extra)
        models[name] = entry
        cases.extend(model_cases)
        print("[%5.1fs] %-8s %s (%.1fs)" % (time.time() - start, name, summary,
                                            time.time() - t0), flush=True)

    # After every SavedModel: the LiteRT versions are converted from them.
    t0 = time.time()
    litert, summary = build_litert_models(out_dir)
    print("[%5.1fs] %-8s %s (%.1fs)" % (time.time() - start, "litert", summary, time.time() - t0),
          flush=True)

    names = [c["name"] for c in cases]
    if len(names) != len(set(names)):
        raise GenerationError("duplicate case names")

    manifest = {
        "tensorflow_version": tf.__version__,
        "onednn": onednn_setting(),
        "keras_version": keras.__version__,
        "numpy_version": np.__version__,
        "models": models,
        "signatures": signatures,
        "cases": cases,
        "config_protos": build_config_protos(),
        "frozen_traced_nodes": frozen_traced_nodes(out_dir, models["frozen"]),
        "devices": session_devices(),
        "run_options_protos": build_run_options_protos(),
        "multi_add_traced_nodes": multi_add_traced_nodes(out_dir),
        "warmup": write_warmup_requests(out_dir, run_saved_model_case),
        "litert": litert,
    }
    with open(out_dir / "manifest.json", "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=True)
        f.write("\n")
    print("[%5.1fs] wrote %s (%d models, %d cases, %d config protos)" % (
        time.time() - start, out_dir / "manifest.json", len(models), len(cases),
        len(manifest["config_protos"])), flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # noqa: BLE001 - report any failure clearly
        if not isinstance(e, GenerationError):
            traceback.print_exc()
        print("generate_models.py: FAILED: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        sys.exit(1)
