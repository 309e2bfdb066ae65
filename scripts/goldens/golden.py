"""The TENSOR encoding of expected values (docs/test-models.md), shared by the generators.

generate_models.py (the models manifest) and generate_eager_cases.py (the eager cases) both write
TensorFlow Python's results this way; the Java and C++ tests decode it. One encoder, so the two
files cannot drift apart:
    {"dtype": NAME, "shape": [...], "data": BASE64 of the little-endian, C-order bytes}
    {"dtype": "string", "shape": [...], "strings": [BASE64 of each element's bytes]}
with NAME TensorFlow's dtype name (tf.DType.name: "float32", "bfloat16", ...).
"""
import base64

import numpy as np
import tensorflow as tf


def encode_tensor(value):
    """TENSOR json for a tf.Tensor or an array-like (object arrays of bytes or str are strings)."""
    if isinstance(value, tf.Tensor):
        dtype_name = value.dtype.name
        arr = np.asarray(value.numpy())
    else:
        arr = np.asarray(value)
        dtype_name = "string" if arr.dtype == object else tf.as_dtype(arr.dtype).name
    shape = [int(d) for d in arr.shape]
    if dtype_name == "string":
        strings = []
        for s in arr.reshape(-1):
            if isinstance(s, str):
                s = s.encode("utf-8")
            strings.append(base64.b64encode(bytes(s)).decode("ascii"))
        return {"dtype": "string", "shape": shape, "strings": strings}
    if arr.dtype != np.dtype(tf.as_dtype(dtype_name).as_numpy_dtype):
        raise ValueError("dtype mismatch: %s vs %s" % (arr.dtype, dtype_name))
    # Little-endian whatever the machine or the array's own byte order.
    data = np.ascontiguousarray(arr.astype(arr.dtype.newbyteorder("<"))).tobytes(order="C")
    return {"dtype": dtype_name, "shape": shape, "data": base64.b64encode(data).decode("ascii")}
