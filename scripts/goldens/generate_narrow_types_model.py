#!/usr/bin/env python3
"""Build a SavedModel whose inputs and outputs have TensorFlow 2.21's one-byte types, and record
TensorFlow Python's outputs for it.

Usage:  python scripts/goldens/generate_narrow_types_model.py OUT_DIR
Run it with a TensorFlow 2.21 Python (scripts/test/tf-versions.sh makes one: venv-narrow-types-2.21.0
in the cache). OUT_DIR is created, replacing stale content, and receives the SavedModel `model/`
and `expected.json`.

The signature `narrow` takes one [-1] tensor of each of the ten one-byte types (float8, float4,
int4, int2; codes 26 to 28 and 31 to 33 are newer than TensorFlow 2.18) and returns
each reshaped to [-1, 1], its own type, so the bytes cross tfjni both ways. TensorFlow 2.21's CPU
kernels cast float8_e5m2, float8_e4m3fn, int4 and uint4 but no other of these types, and
Reshape is one of the few kernels every one of them has; the four casts are outputs as well.
Every expected output comes from running the signature of the model reloaded from disk.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import json
import shutil
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import tensorflow as tf

# Input values of each type, by TensorFlow's Python name; each is exactly representable.
INPUTS = {
    "float8_e5m2": [1.0, -2.0, 0.5, 57344.0],
    "float8_e4m3fn": [1.0, -2.0, 0.5, 448.0],
    "float8_e4m3fnuz": [1.0, -2.0, 0.5, 240.0],
    "float8_e4m3b11fnuz": [1.0, -2.0, 0.5, 30.0],
    "float8_e5m2fnuz": [1.0, -2.0, 0.5, 57344.0],
    "int4": [-8, 7, -1, 0],
    "uint4": [0, 15, 1, 7],
    "int2": [-2, 1, -1, 0],
    "uint2": [0, 3, 1, 2],
    "float4_e2m1fn": [1.0, -6.0, 0.5, 0.0],
}
# The casts TensorFlow 2.21's CPU kernels have: output key -> (input, target type).
CASTS = {
    "float8_e5m2_as_float32": ("float8_e5m2", tf.float32),
    "float8_e4m3fn_as_float32": ("float8_e4m3fn", tf.float32),
    "int4_as_int32": ("int4", tf.int32),
    "uint4_as_int32": ("uint4", tf.int32),
}


def dtype_of(name):
    return tf.dtypes.as_dtype(getattr(ml_dtypes, name))


class NarrowTypes(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], dtype_of(n), name=n) for n in INPUTS])
    def narrow(self, *tensors):
        by_name = dict(zip(INPUTS, tensors))
        outputs = {f"{n}_column": tf.reshape(t, [-1, 1]) for n, t in by_name.items()}
        for key, (source, target) in CASTS.items():
            outputs[key] = tf.cast(by_name[source], target)
        return outputs


def describe(array):
    dtype = tf.dtypes.as_dtype(array.dtype)
    return {
        "dtype": dtype.name,
        "dtype_enum": dtype.as_datatype_enum,
        "shape": list(array.shape),
        "bytes_hex": np.ascontiguousarray(array).view(np.uint8).tobytes().hex(),
        "values": [v.item() if hasattr(v, "item") else v for v in array.astype(np.float64).ravel()],
    }


def main(out_dir):
    out = Path(out_dir)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    module = NarrowTypes()
    tf.saved_model.save(module, str(out / "model"), signatures={"narrow": module.narrow})

    inputs = {n: np.array(v, dtype=getattr(ml_dtypes, n)) for n, v in INPUTS.items()}
    signature = tf.saved_model.load(str(out / "model")).signatures["narrow"]
    results = signature(**{n: tf.constant(a) for n, a in inputs.items()})
    expected = {
        "tensorflow_version": tf.__version__,
        "ml_dtypes_version": ml_dtypes.__version__,
        "signature": "narrow",
        "inputs": {n: describe(a) for n, a in inputs.items()},
        "outputs": {k: describe(t.numpy()) for k, t in sorted(results.items())},
    }
    (out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote {out / 'model'} and {out / 'expected.json'} with TensorFlow {tf.__version__}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
