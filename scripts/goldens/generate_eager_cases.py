#!/usr/bin/env python3
"""Record TensorFlow Python's results of tfjni's eager operations, as the oracle.

Usage:  python scripts/goldens/generate_eager_cases.py OUT_FILE.json

Run it with the project's virtualenv Python (see scripts/requirements/requirements.txt); it takes
a few seconds. For fixed inputs it runs TensorFlow Python's public API (tf.math.add,
tf.nn.gelu, tf.sort, tf.image.resize, tf.strings.split, ...) and writes a JSON list of
    {"name": "<method>_<variant>", "inputs": [TENSOR...], "params": {...},
     "outputs": [TENSOR...], "compare": "exact" | "tolerant", "why": "..."}
with TENSOR encoded as in the models manifest (docs/test-models.md). The name starts
with the name of the tfjni method under test (NDArray or NDManager) followed by "_";
java/tfjni/src/test/java/io/tfjni/eager/EagerOpsTest.java maps each name to a call of tfjni's API.
Images (PNG, JPEG) are encoded here from numpy gradients and passed as scalar
string inputs.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import json
import sys

import keras
import numpy as np
import tensorflow as tf

from golden import encode_tensor

f32, f64 = np.float32, np.float64
i32, i64 = np.int32, np.int64


def strings(*values, shape=None):
    arr = np.array([v.encode("utf-8") if isinstance(v, str) else v for v in values], dtype=object)
    return arr.reshape(shape) if shape is not None else arr


def scalar_string(value):
    return np.array(value, dtype=object)


CASES = []

# How EagerOpsTest compares each case's outputs: "exact" (bit for bit) unless listed here with
# the reason it cannot be. tfjni runs the same kernels of the same libtensorflow as this script,
# so everything else must agree exactly.
ONEDNN_SOFTMAX = ("TensorFlow Python runs oneDNN's Softmax kernel (TF_ENABLE_ONEDNN_OPTS is on by "
                  "default in Python), tfjni's eager context runs Eigen's: they differ in the last "
                  "bit (with TF_ENABLE_ONEDNN_OPTS=0 Python's results equal tfjni's)")
NUMPY_PERCENTILE = ("numpy.percentile (TensorFlow has no percentile op) interpolates in float64 "
                    "by its own formula; tfjni in float32 from the two sorted neighbours")
DILATION_REWRITE = ("tfjni runs a dilated layer as undilated kernels (the input rearranged by "
                    "SpaceToBatchND, or the filter spread with zeros between its taps), TensorFlow "
                    "Python as one dilated kernel or as the convolution's gradient: the same "
                    "products, summed in another order")
NUMPY_CBRT = ("numpy.cbrt (TensorFlow has no cube root op) computes the root directly; tfjni as "
              "|x| ** (1/3) by TensorFlow's Pow")
ONEDNN_CONV_TRANSPOSE = ("with TF_ENABLE_ONEDNN_OPTS on, TensorFlow Python's 1-D transposed "
                         "convolution runs oneDNN's kernel, which sums in another order than "
                         "Eigen's")
TOLERANT = {
    "softmax_last_axis": ONEDNN_SOFTMAX,
    "softmax_axis0": ONEDNN_SOFTMAX,
    "softmax_rank3_axis1": ONEDNN_SOFTMAX,
    "percentile_all": NUMPY_PERCENTILE,
    "percentile_axes_0_2": NUMPY_PERCENTILE,
    "percentile_axis1_q0": NUMPY_PERCENTILE,
    "convolution_2d_dilated": DILATION_REWRITE,
    "convolutionTranspose_2d_dilated": DILATION_REWRITE,
    "convolutionTranspose_1d": ONEDNN_CONV_TRANSPOSE,
    "cbrt_float": NUMPY_CBRT,
}
EXACT_WHY = "the same kernels as TensorFlow Python, in the same order"


def case(name, fn, inputs, **params):
    """Runs fn(*inputs as tf constants, **params) and records inputs, params and outputs, and
    whether the outputs are compared exactly or with a tolerance, and why."""
    tensors = [tf.constant(x, dtype=tf.string) if np.asarray(x).dtype == object else tf.constant(x)
               for x in inputs]
    result = fn(*tensors, **params)
    if isinstance(result, tf.RaggedTensor):
        result = [result.values, result.row_splits]
    elif not isinstance(result, (list, tuple)):
        result = [result]
    CASES.append({"name": name,
                  "inputs": [encode_tensor(x) for x in inputs],
                  "params": params,
                  "outputs": [encode_tensor(r) for r in result],
                  "compare": "tolerant" if name in TOLERANT else "exact",
                  "why": TOLERANT.get(name, EXACT_WHY)})


# Inputs ---------------------------------------------------------------------
A = np.array([[1.5, -2.0, 3.25], [0.0, 4.5, -0.75]], f32)
B = np.array([[2.0, 0.5, -1.5], [3.0, -2.5, 1.0]], f32)
ROW = np.array([1.0, -2.0, 0.5], f32)
COL = np.array([[2.0], [-1.0]], f32)
EMPTY = np.zeros((0, 3), f32)
IA = np.array([[7, -7, 9], [-9, 12, 5]], i32)
IB = np.array([[2, 2, -4], [4, -5, 3]], i32)
L = np.array([10, -3, 2 ** 40, -(2 ** 40)], i64)
LB = np.array([3, 3, -7, 5], i64)
U8 = np.array([250, 3, 128, 0], np.uint8)
U8B = np.array([10, 5, 128, 1], np.uint8)
D = np.array([0.1, -2.5, 3.0, 1e-300], f64)
DB = np.array([0.3, 4.0, -1.5, 2.0], f64)
POS = np.array([[0.25, 1.0, 2.0], [4.5, 10.0, 1e-3]], f32)
UNIT = np.array([-1.0, -0.5, 0.0, 0.3, 0.99, 1.0], f32)
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -1.5, 2.0], f32)
HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.4, -0.6, 3.7], f32)
WIDE = (np.arange(17, dtype=f32) - 8) * f32(0.5)   # -4 .. 4 by 0.5
LOGITS = np.array([[1.0, 2.0, 3.0, -1.0], [0.5, 0.5, -2.0, 10.0], [-3.0, 0.0, 3.0, 0.25]], f32)
P = np.array([True, True, False, False])
Q = np.array([True, False, True, False])
BM = np.array([[True, False, True], [True, True, True]])
X3 = np.arange(24, dtype=f32).reshape(2, 3, 4) * f32(0.5) - f32(3)
TIES = np.array([[3.0, 1.0, 3.0, -2.0, 1.0], [0.0, -0.0, 5.0, 5.0, -1.0]], f32)
INT_TIES = np.array([[3, 1, 3, -2, 1, -2147483648, 2147483647]], i32)
U8_SORT = np.array([255, 0, 7, 255, 128, 1], np.uint8)
M23 = np.array([[1.0, 2.0, -1.0], [0.5, -3.0, 2.0]], f32)
M34 = np.arange(12, dtype=f32).reshape(3, 4) * f32(0.25) - f32(1)
M24 = np.arange(8, dtype=f32).reshape(2, 4) - f32(2.5)
BATCH = np.arange(12, dtype=f32).reshape(2, 2, 3) * f32(0.5)


def image_pixels(height, width, channels):
    """A smooth gradient image with some texture, uint8 [h, w, c]."""
    y, x = np.mgrid[0:height, 0:width].astype(f64)
    planes = [(x * 255 / (width - 1)), (y * 255 / (height - 1)),
              (128 + 100 * np.sin(x / 2.0) * np.cos(y / 3.0))]
    return np.clip(np.stack(planes[:channels], axis=-1), 0, 255).round().astype(np.uint8)


RGB = image_pixels(12, 16, 3)
GRAY = image_pixels(12, 16, 1)
PNG_RGB = tf.io.encode_png(RGB).numpy()
PNG_GRAY = tf.io.encode_png(GRAY).numpy()
JPEG_RGB = tf.io.encode_jpeg(RGB, quality=90).numpy()
JPEG_GRAY = tf.io.encode_jpeg(GRAY, quality=90).numpy()
SMALL_RGB = image_pixels(5, 7, 3)
FLOAT_BATCH = (np.stack([image_pixels(6, 5, 2), 255 - image_pixels(6, 5, 2)]) / f32(255)).astype(f32)


def merged_shape(shape, first, last):
    """torch.flatten's shape: the axes first..last, both included, as one."""
    dims = list(shape)
    first, last = first % len(dims), last % len(dims)
    return dims[:first] + [int(np.prod(dims[first:last + 1]))] + dims[last + 1:]


def smallest_k(x, k, axis):
    """The k smallest values along axis and their int32 indices, by numpy's stable sort."""
    x = x.numpy()
    order = np.argsort(x, axis=axis, kind="stable")
    order = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, order, axis=axis), order.astype(np.int32)


def build_cases():
    # Element-wise arithmetic ------------------------------------------------
    case("add_same_shape", tf.math.add, [A, B])
    case("add_broadcast_row", tf.math.add, [A, ROW])
    case("add_broadcast_column", tf.math.add, [A, COL])
    case("add_scalar", lambda x, value: tf.math.add(x, value), [A], value=2.5)
    case("add_int32_scalar", lambda x, value: tf.math.add(x, value), [IA], value=3)
    case("add_int64", tf.math.add, [L, LB])
    case("add_uint8_wraps", tf.math.add, [U8, U8B])
    case("add_double", tf.math.add, [D, DB])
    case("add_empty", tf.math.add, [EMPTY, ROW])
    case("add_strings", tf.math.add, [strings("a", "bc", ""), strings("x", "", "yz")])
    case("sub_broadcast", tf.math.subtract, [A, ROW])
    case("sub_scalar", lambda x, value: tf.math.subtract(x, value), [A], value=0.25)
    case("sub_int32", tf.math.subtract, [IA, IB])
    case("mul_broadcast", tf.math.multiply, [A, COL])
    case("mul_scalar", lambda x, value: tf.math.multiply(x, value), [A], value=-3)
    case("mul_int64", tf.math.multiply, [L, LB])
    case("mul_uint8_wraps", tf.math.multiply, [U8, U8B])
    case("div_float", tf.math.divide, [A, B])
    case("div_scalar", lambda x, value: tf.math.divide(x, value), [A], value=4)
    case("div_double", tf.math.divide, [D, DB])
    case("div_int32_matrix", tf.truncatediv, [IA, IB])
    case("div_int64_scalar", lambda x, value: tf.truncatediv(x, tf.constant(value, tf.int64)),
         [L], value=-3)
    # Integer division rounds toward zero for every integer type (tf.truncatediv), the smallest
    # signed value divided by -1 included (it wraps to itself).
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        low = np.iinfo(dtype).min
        case(f"div_{np.dtype(dtype).name}_truncates", tf.truncatediv,
             [np.array([7, -7, 7, -7, low, low, 0], dtype),
              np.array([2, 2, -2, -2, -1, 3, -5], dtype)])
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        high = np.iinfo(dtype).max
        case(f"div_{np.dtype(dtype).name}_truncates", tf.truncatediv,
             [np.array([7, 9, high, high, 0], dtype), np.array([2, 10, 1, 2, 3], dtype)])
    case("floorDiv_float", tf.math.floordiv, [A, B])
    case("floorDiv_int32", tf.math.floordiv, [IA, IB])
    case("floorDiv_scalar", lambda x, value: tf.math.floordiv(x, value), [IA], value=4)
    case("mod_float", tf.math.floormod, [A, B])
    case("mod_int32", tf.math.floormod, [IA, IB])
    case("mod_scalar", lambda x, value: tf.math.floormod(x, value), [IA], value=-4)
    case("pow_float", tf.math.pow, [POS, B])
    case("pow_scalar", lambda x, value: tf.math.pow(x, value), [A], value=3)
    case("pow_int32", tf.math.pow, [np.array([2, -3, 5, 0, 1], i32), np.array([10, 3, 0, 4, 31], i32)])
    case("maximum_broadcast", tf.math.maximum, [A, ROW])
    case("maximum_scalar", lambda x, value: tf.math.maximum(x, value), [IA], value=0)
    case("maximum_nan", tf.math.maximum, [SPECIAL, np.zeros(6, f32)])
    case("minimum_broadcast", tf.math.minimum, [A, COL])
    case("minimum_scalar", lambda x, value: tf.math.minimum(x, value), [A], value=1)
    case("minimum_uint8", tf.math.minimum, [U8, U8B])
    case("squaredDifference_broadcast", tf.math.squared_difference, [A, ROW])
    case("squaredDifference_int32", tf.math.squared_difference, [IA, IB])

    # Comparisons and logic --------------------------------------------------
    case("eq_broadcast", tf.math.equal, [A, np.array([1.5, 4.5, -0.75], f32)])
    case("eq_scalar", lambda x, value: tf.math.equal(x, value), [IA], value=-7)
    case("eq_strings", tf.math.equal, [strings("a", "b", ""), strings("a", "B", "")])
    case("eq_nan", tf.math.equal, [SPECIAL, SPECIAL])
    case("neq_broadcast", tf.math.not_equal, [IA, np.array([7, 12, 0], i32)])
    case("neq_scalar", lambda x, value: tf.math.not_equal(x, value), [A], value=0)
    case("gt_broadcast", tf.math.greater, [A, ROW])
    case("gt_scalar", lambda x, value: tf.math.greater(x, value), [L], value=2)
    case("gte_int32", tf.math.greater_equal, [IA, IB])
    case("gte_scalar", lambda x, value: tf.math.greater_equal(x, value), [A], value=1.5)
    case("lt_broadcast", tf.math.less, [A, COL])
    case("lt_uint8", tf.math.less, [U8, U8B])
    case("lt_scalar", lambda x, value: tf.math.less(x, value), [A], value=0)
    case("lte_double", tf.math.less_equal, [D, DB])
    case("lte_scalar", lambda x, value: tf.math.less_equal(x, value), [IA], value=7)
    case("lte_empty", tf.math.less_equal, [EMPTY, ROW])
    case("logicalAnd_same_shape", tf.math.logical_and, [P, Q])
    case("logicalAnd_broadcast", tf.math.logical_and, [BM, np.array([True, False, True])])
    case("logicalOr_same_shape", tf.math.logical_or, [P, Q])
    case("logicalNot_vector", tf.math.logical_not, [P])
    case("logicalXor_same_shape", tf.math.logical_xor, [P, Q])
    case("logicalXor_broadcast", tf.math.logical_xor, [BM, np.array(True)])

    # Element-wise math -------------------------------------------------------
    case("exp_float", tf.math.exp, [A])
    case("exp_double", tf.math.exp, [D])
    case("exp_empty", tf.math.exp, [EMPTY])
    case("log_float", tf.math.log, [POS])
    case("log_special", tf.math.log, [SPECIAL])
    case("log1p_float", tf.math.log1p, [POS])
    case("log10_float", tf.experimental.numpy.log10, [POS])
    case("log2_float", tf.experimental.numpy.log2, [POS])
    case("cbrt_float", lambda x: np.cbrt(x.numpy()),
         [np.array([-27.0, -2.0, 0.0, 0.125, 5.0], f32)])
    case("sqrt_float", tf.math.sqrt, [POS])
    case("sqrt_double", tf.math.sqrt, [np.abs(D)])
    case("rsqrt_float", tf.math.rsqrt, [POS])
    case("square_float", tf.math.square, [A])
    case("square_int32", tf.math.square, [IA])
    case("abs_float", tf.math.abs, [A])
    case("abs_int64", tf.math.abs, [L])
    case("neg_float", tf.math.negative, [A])
    case("neg_int32", tf.math.negative, [IA])
    case("sign_float", tf.math.sign, [SPECIAL])
    case("sign_int64", tf.math.sign, [L])
    case("floor_float", tf.math.floor, [HALVES])
    case("ceil_float", tf.math.ceil, [HALVES])
    case("ceil_double", tf.math.ceil, [D])
    # An integer is its own floor, ceiling and truncation (TensorFlow's Floor takes floats only).
    case("floor_int32", tf.identity, [IA])
    case("ceil_int64", tf.identity, [L])
    case("trunc_float", lambda x: np.trunc(x.numpy()), [HALVES])
    case("trunc_int32", tf.identity, [IA])
    case("round_half_to_even", tf.math.round, [HALVES])
    case("round_double", tf.math.round, [np.array([-2.5, 0.5, 1.5, 2.4999, 1e15 + 0.5], f64)])
    case("sin_float", tf.math.sin, [WIDE])
    case("cos_float", tf.math.cos, [WIDE])
    case("tan_float", tf.math.tan, [UNIT])
    case("asin_float", tf.math.asin, [UNIT])
    case("acos_float", tf.math.acos, [UNIT])
    case("atan_float", tf.math.atan, [WIDE])
    case("sinh_float", tf.math.sinh, [WIDE])
    case("cosh_float", tf.math.cosh, [WIDE])
    case("tanh_float", tf.math.tanh, [WIDE])
    case("tanh_double", tf.math.tanh, [D])
    case("erf_float", tf.math.erf, [WIDE])
    case("erfinv_float", tf.math.erfinv, [UNIT])
    case("asinh_float", tf.math.asinh, [WIDE])
    case("acosh_float", tf.math.acosh, [np.array([1.0, 1.5, 3.0, 10.0, 0.5], f32)])
    case("atanh_float", tf.math.atanh, [UNIT])
    case("lgamma_float", tf.math.lgamma, [POS])
    case("atan2_float", tf.math.atan2, [A, B])
    case("xlogy_float", tf.math.xlogy, [np.array([0.0, 1.0, 2.5, 0.0, -1.0], f32),
                                        np.array([0.0, 2.0, 0.5, 3.0, 4.0], f32)])
    case("copy_float", tf.identity, [A])
    case("copy_strings", tf.identity, [strings("a", "", "bc")])
    case("reciprocal_float", tf.math.reciprocal, [np.array([2.0, -0.5, 0.0, 3.0], f32)])
    case("isNaN_special", tf.math.is_nan, [SPECIAL])
    case("isInf_special", tf.math.is_inf, [SPECIAL])
    case("clip_float", lambda x, min, max: tf.clip_by_value(x, min, max), [SPECIAL],
         min=-1.0, max=1.5)
    case("clip_int32", lambda x, min, max: tf.clip_by_value(x, min, max), [IA], min=-5, max=8)

    # Activations ---------------------------------------------------------------
    case("relu_float", tf.nn.relu, [WIDE])
    case("relu_int32", tf.nn.relu, [IA])
    case("relu6_float", tf.nn.relu6, [WIDE * f32(2)])
    case("sigmoid_float", tf.math.sigmoid, [WIDE])
    case("softmax_last_axis", tf.nn.softmax, [LOGITS])
    case("softmax_axis0", lambda x, axis: tf.nn.softmax(x, axis=axis), [LOGITS], axis=0)
    case("softmax_rank3_axis1", lambda x, axis: tf.nn.softmax(x, axis=axis), [X3], axis=1)
    case("logSoftmax_last_axis", tf.nn.log_softmax, [LOGITS])
    case("logSoftmax_axis0", lambda x, axis: tf.nn.log_softmax(x, axis=axis), [LOGITS], axis=0)
    case("gelu_exact", lambda x: tf.nn.gelu(x, approximate=False), [WIDE])
    case("gelu_approximate", lambda x: tf.nn.gelu(x, approximate=True), [WIDE])
    case("gelu_double", lambda x: tf.nn.gelu(x, approximate=False), [D])
    case("gelu_double_approximate", lambda x: tf.nn.gelu(x, approximate=True), [D])
    case("elu_float", tf.nn.elu, [WIDE])
    case("elu_alpha", lambda x, alpha: keras.activations.elu(x, alpha=alpha), [WIDE], alpha=0.5)
    case("softsign_float", tf.nn.softsign, [WIDE])
    case("selu_float", tf.nn.selu, [WIDE])
    case("softplus_float", tf.math.softplus, [WIDE])
    case("leakyRelu_default", tf.nn.leaky_relu, [WIDE])
    case("leakyRelu_alpha", lambda x, alpha: tf.nn.leaky_relu(x, alpha=alpha), [WIDE], alpha=0.01)

    # Reductions ----------------------------------------------------------------
    case("sum_all", tf.math.reduce_sum, [A])
    case("sum_axis1", lambda x, axes: tf.math.reduce_sum(x, axis=axes), [A], axes=[1])
    case("sum_axes_keepdims", lambda x, axes: tf.math.reduce_sum(x, axis=axes, keepdims=True),
         [X3], axes=[0, 2])
    case("sum_negative_axis", lambda x, axes: tf.math.reduce_sum(x, axis=axes), [X3], axes=[-1])
    case("sum_int32", lambda x, axes: tf.math.reduce_sum(x, axis=axes), [IA], axes=[0])
    case("sum_empty", tf.math.reduce_sum, [EMPTY])
    case("sum_empty_axis0", lambda x, axes: tf.math.reduce_sum(x, axis=axes), [EMPTY], axes=[0])
    case("mean_all", tf.math.reduce_mean, [A])
    case("mean_axis0", lambda x, axes: tf.math.reduce_mean(x, axis=axes), [A], axes=[0])
    case("mean_int32_truncates", lambda x, axes: tf.math.reduce_mean(x, axis=axes), [IA], axes=[1])
    case("mean_keepdims", lambda x, axes: tf.math.reduce_mean(x, axis=axes, keepdims=True),
         [X3], axes=[1])
    case("max_all", tf.math.reduce_max, [A])
    case("max_axes", lambda x, axes: tf.math.reduce_max(x, axis=axes), [X3], axes=[0, 1])
    case("max_int64", lambda x, axes: tf.math.reduce_max(x, axis=axes), [L], axes=[0])
    case("min_all", tf.math.reduce_min, [IA])
    case("min_keepdims", lambda x, axes: tf.math.reduce_min(x, axis=axes, keepdims=True),
         [A], axes=[1])
    case("prod_all", tf.math.reduce_prod, [A])
    case("prod_axis1", lambda x, axes: tf.math.reduce_prod(x, axis=axes), [IA], axes=[1])
    case("all_all", tf.math.reduce_all, [BM])
    case("all_axis0", lambda x, axes: tf.math.reduce_all(x, axis=axes), [BM], axes=[0])
    case("all_empty", tf.math.reduce_all, [np.zeros((0,), bool)])
    case("any_all", tf.math.reduce_any, [BM])
    case("any_axis1_keepdims", lambda x, axes: tf.math.reduce_any(x, axis=axes, keepdims=True),
         [np.array([[False, False], [True, False]])], axes=[1])

    # p-norms: tf.norm where it takes the order, numpy's definition for 0 and -infinity ---------
    case("norm_p2_axis1", lambda x, axes: tf.norm(x, ord=2, axis=axes[0]), [X3], axes=[1])
    case("norm_p1_keepdims", lambda x, axes: tf.reduce_sum(tf.abs(x), axes, keepdims=True), [X3],
         axes=[0, -1])
    case("norm_p0", lambda x, axes: np.count_nonzero(x.numpy(), axis=2).astype(f32), [X3],
         axes=[2])
    case("norm_inf", lambda x, axes: tf.norm(x, ord=np.inf, axis=axes[0]), [X3], axes=[0])
    case("norm_negInf", lambda x, axes: np.min(np.abs(x.numpy()), axis=0), [X3], axes=[0])
    case("norm_p3", lambda x, axes: tf.norm(x, ord=3, axis=axes[0]), [X3], axes=[1])

    # Running sums and products -----------------------------------------------
    case("cumSum_axis1", lambda x, axis: tf.math.cumsum(x, axis=axis), [X3], axis=1)
    case("cumSum_int32_last", lambda x, axis: tf.math.cumsum(x, axis=axis), [IA], axis=-1)
    case("cumProd_axis0", lambda x, axis: tf.math.cumprod(x, axis=axis), [A], axis=0)
    case("cumProd_int64", lambda x, axis: tf.math.cumprod(x, axis=axis), [LB], axis=0)

    # Percentiles (numpy's linear interpolation) and differences --------------
    case("percentile_all", lambda x, q, axes: np.float32(np.percentile(x.numpy(), q)), [X3],
         q=37.5, axes=[])
    case("percentile_axes_0_2", lambda x, q, axes: np.percentile(
        x.numpy(), q, axis=tuple(axes)).astype(f32), [X3], q=90.0, axes=[0, -1])
    case("percentile_axis1_q0", lambda x, q, axes: np.percentile(
        x.numpy(), q, axis=tuple(axes)).astype(f32), [TIES], q=0.0, axes=[1])
    case("diff_once_last", lambda x, n, axis: tf.experimental.numpy.diff(x, n, axis), [X3],
         n=1, axis=-1)
    case("diff_twice_axis0_int32", lambda x, n, axis: tf.experimental.numpy.diff(x, n, axis),
         [np.array([[1, 5], [-2, 7], [9, 9], [4, -3]], i32)], n=2, axis=0)

    # Indices, top-k, sorting ------------------------------------------------
    case("argMax_axis1", lambda x, axis: tf.math.argmax(x, axis=axis), [TIES], axis=1)
    case("argMax_all", lambda x: tf.math.argmax(tf.reshape(x, [-1])), [A])
    case("argMax_int32_axis0", lambda x, axis: tf.math.argmax(x, axis=axis), [IA], axis=0)
    case("argMin_axis0", lambda x, axis: tf.math.argmin(x, axis=axis), [TIES], axis=0)
    case("argMin_all", lambda x: tf.math.argmin(tf.reshape(x, [-1])), [X3])
    case("topK_float", lambda x, k: tuple(tf.math.top_k(x, k=k)), [TIES], k=3)
    case("topK_int32", lambda x, k: tuple(tf.math.top_k(x, k=k)), [INT_TIES], k=4)
    # Smallest first against numpy's stable order (equal values: lower index first); the
    # smallest int32 and unsigned values are where negating to rank by largest goes wrong.
    for name, x, k, axis in (("topK_smallest_int32", INT_TIES, 4, -1),
                             ("topK_smallest_uint8", U8_SORT, 3, 0),
                             ("topK_smallest_float_axis0", TIES, 1, 0)):
        case(name, lambda x, k, axis, largest, sorted: smallest_k(x, k, axis), [x], k=k,
             axis=axis, largest=False, sorted=True)
    case("topK_largest_axis0", lambda x, k, axis, largest, sorted: tuple(
        tf.transpose(t) for t in tf.math.top_k(tf.transpose(x), k=k)), [TIES], k=1, axis=0,
         largest=True, sorted=True)
    case("topK_largest_rank3_axis1", lambda x, k, axis, largest, sorted: tuple(
        tf.transpose(t, [0, 2, 1]) for t in tf.math.top_k(tf.transpose(x, [0, 2, 1]), k=k)),
         [X3], k=2, axis=1, largest=True, sorted=True)
    case("sort_ascending", tf.sort, [TIES])
    case("sort_descending", lambda x, axis: tf.sort(x, axis=axis, direction="DESCENDING"),
         [TIES], axis=-1)
    case("sort_axis0", lambda x, axis: tf.sort(x, axis=axis), [TIES], axis=0)
    case("sort_rank3_axis1_descending",
         lambda x, axis: tf.sort(x, axis=axis, direction="DESCENDING"), [X3 * f32(-1)], axis=1)
    case("sort_int32_ascending", tf.sort, [INT_TIES])
    case("sort_uint8_ascending", tf.sort, [U8_SORT])
    case("sort_empty", tf.sort, [EMPTY])
    case("argSort_ascending", tf.argsort, [TIES])
    case("argSort_descending", lambda x, axis: tf.argsort(x, axis=axis, direction="DESCENDING"),
         [TIES], axis=-1)
    case("argSort_axis0", lambda x, axis: tf.argsort(x, axis=axis), [TIES], axis=0)
    case("argSort_int32", tf.argsort, [INT_TIES])
    case("argSort_uint8", tf.argsort, [U8_SORT])

    # Matrix products -----------------------------------------------------------
    for name, left, right in (("vector_matrix", ROW, M34), ("matrix_vector", M23, ROW),
                              ("vector_vector", ROW, ROW), ("batch_vector", BATCH, ROW)):
        case(f"matMul_{name}", tf.experimental.numpy.matmul, [left, right])
    case("inverse_batch", tf.linalg.inv, [np.array([[[2.0, 1.0], [1.0, 3.0]],
                                                    [[0.5, -1.0], [4.0, 2.0]]], f32)])
    case("diagonal_main", lambda x, offset: tf.linalg.diag_part(x, k=offset), [M34], offset=0)
    case("diagonal_above", lambda x, offset: tf.linalg.diag_part(x, k=offset), [M34], offset=1)
    case("diagonal_axes_2_0", lambda x, offset, axis1, axis2: tf.experimental.numpy.diagonal(
        x, offset, axis1, axis2), [X3], offset=1, axis1=2, axis2=0)
    case("diagonal_below_int32", lambda x, offset: tf.linalg.diag_part(x, k=offset), [IA],
         offset=-1)
    case("matMul_plain", tf.linalg.matmul, [M23, M34])
    case("matMul_transposeA", lambda a, b: tf.linalg.matmul(a, b, transpose_a=True), [M23, M24])
    case("matMul_transposeB", lambda a, b: tf.linalg.matmul(a, b, transpose_b=True), [M23, M23])
    case("matMul_int32", tf.linalg.matmul, [IA, np.transpose(IB)])
    case("matMul_batch", tf.linalg.matmul, [BATCH, M34])
    case("matMul_empty", tf.linalg.matmul, [np.zeros((2, 0), f32), np.zeros((0, 3), f32)])
    case("batchMatMul_plain", tf.linalg.matmul, [BATCH, np.transpose(BATCH, (0, 2, 1))])
    case("batchMatMul_broadcast", tf.linalg.matmul, [BATCH, np.stack([M34] * 1)])
    case("batchMatMul_adjoint",
         lambda a, b: tf.linalg.matmul(a, b, adjoint_a=True, adjoint_b=True),
         [BATCH, np.transpose(BATCH, (0, 2, 1))])

    # Shapes, indexing, combining ----------------------------------------------
    case("reshape_infer", lambda x, shape: tf.reshape(x, shape), [X3], shape=[4, -1])
    case("reshape_scalar", lambda x, shape: tf.reshape(x, shape), [np.array([5], i32)], shape=[])
    case("reshape_empty", lambda x, shape: tf.reshape(x, shape), [EMPTY], shape=[3, 0, 2])
    case("flatten_rank3", lambda x: tf.reshape(x, [-1]), [X3])
    for first, last in ((1, 2), (0, -2), (-1, -1)):
        case(f"flatten_axes_{first}_{last}".replace("-", "minus"),
             lambda x, first, last: tf.reshape(x, merged_shape(x.shape, first, last)), [X3],
             first=first, last=last)
    case("flip_axes", lambda x, axes: tf.reverse(x, axes), [X3], axes=[0, 2])
    case("flip_last_strings", lambda x, axes: tf.reverse(x, axes),
         [strings("a", "b", "c", "d", "e", "f", shape=(2, 3))], axes=[-1])
    for k in (1, 2, 3, -1):
        case(f"rot90_k{k}".replace("-", "minus"), lambda x, k, axes: tf.experimental.numpy.rot90(
            x, k, axes), [X3], k=k, axes=[2, 0])
    case("repeat_axis1", lambda x, repeats, axis: tf.repeat(x, repeats, axis), [X3], repeats=3,
         axis=1)
    case("repeat_strings_last", lambda x, repeats, axis: tf.repeat(x, repeats, axis),
         [strings("a", "b", "c", "d", shape=(2, 2))], repeats=2, axis=-1)
    case("transpose_default", tf.transpose, [X3])
    case("transpose_perm", lambda x, perm: tf.transpose(x, perm), [X3], perm=[1, 0, 2])
    case("transpose_strings", tf.transpose, [strings("a", "b", "c", "d", "e", "f", shape=(2, 3))])
    case("squeeze_all", tf.squeeze, [np.zeros((1, 3, 1, 2), i32) + 4])
    case("squeeze_axes", lambda x, axes: tf.squeeze(x, axis=axes),
         [np.arange(6, dtype=f32).reshape(1, 3, 1, 2)], axes=[2])
    case("expandDims_axis1", lambda x, axis: tf.expand_dims(x, axis), [A], axis=1)
    case("expandDims_negative", lambda x, axis: tf.expand_dims(x, axis), [ROW], axis=-1)
    case("concat_axis0", lambda a, b, axis: tf.concat([a, b], axis), [A, B], axis=0)
    case("concat_three_axis1", lambda a, b, c, axis: tf.concat([a, b, c], axis),
         [A, COL, B], axis=1)
    case("concat_empty", lambda a, b, axis: tf.concat([a, b], axis), [EMPTY, A], axis=0)
    case("concat_strings", lambda a, b, axis: tf.concat([a, b], axis),
         [strings("a", "b"), strings("c")], axis=0)
    case("stack_axis0", lambda a, b, axis: tf.stack([a, b], axis), [A, B], axis=0)
    case("stack_three_axis1", lambda a, b, c, axis: tf.stack([a, b, c], axis),
         [ROW, ROW * f32(2), ROW * f32(3)], axis=1)
    case("split_equal", lambda x, parts, axis: tf.split(x, parts, axis=axis), [X3],
         parts=2, axis=2)
    case("split_equal_rows", lambda x, parts, axis: tf.split(x, parts, axis=axis), [IA],
         parts=2, axis=0)
    case("split_sizes", lambda x, sizes, axis: tf.split(x, sizes, axis=axis), [M34],
         sizes=[1, -1, 2], axis=1)
    case("slice_block", lambda x, begin, size: tf.slice(x, begin, size), [X3],
         begin=[1, 0, 1], size=[1, -1, 2])
    case("slice_empty", lambda x, begin, size: tf.slice(x, begin, size), [A],
         begin=[1, 0], size=[0, 3])
    case("gather_axis0", tf.gather, [A, np.array([1, 0, 1], i32)])
    case("gather_axis1", lambda x, i, axis: tf.gather(x, i, axis=axis),
         [X3, np.array([[3, 0], [1, 1]], i64)], axis=2)
    case("gather_strings", tf.gather, [strings("zero", "one", "two"), np.array([2, 2, 0], i32)])
    case("tile_rows", lambda x, repeats: tf.tile(x, repeats), [A], repeats=[2, 1])
    case("tile_both", lambda x, repeats: tf.tile(x, repeats), [IA], repeats=[1, 3])
    case("tile_fewer_repeats", lambda x, repeats: np.tile(x.numpy(), repeats), [IA], repeats=[3])
    case("tile_more_repeats", lambda x, repeats: np.tile(x.numpy(), repeats), [ROW],
         repeats=[2, 1, 2])
    case("pad_zeros", lambda x, paddings: tf.pad(x, paddings), [A], paddings=[[1, 0], [2, 1]])
    case("pad_value", lambda x, paddings, value: tf.pad(x, paddings, constant_values=value),
         [IA], paddings=[[0, 1], [1, 1]], value=-1)
    case("pad_empty", lambda x, paddings: tf.pad(x, paddings), [EMPTY], paddings=[[1, 1], [0, 0]])
    case("oneHot_default", lambda x, depth: tf.one_hot(x, depth),
         [np.array([0, 2, -1, 3, 1], i32)], depth=3)
    case("oneHot_values", lambda x, depth, on, off: tf.one_hot(x, depth, on, off, dtype=tf.int64),
         [np.array([[1, 0], [2, 5]], i64)], depth=4, on=7, off=-1)
    # Indices OneHot does not take are converted to INT64 first, floats truncated.
    case("oneHot_float_indices", lambda x, depth: tf.one_hot(tf.cast(x, tf.int64), depth),
         [np.array([0.0, 2.7, -1.0, 1.2], f32)], depth=3)
    case("oneHot_int16_indices", lambda x, depth: tf.one_hot(tf.cast(x, tf.int64), depth),
         [np.array([[2, 0], [1, 4]], np.int16)], depth=3)
    # MXNet's SequenceMask: steps t >= lengths[b] of row b set to value.
    case("sequenceMask_int_lengths", lambda x, lengths, value: tf.where(
        tf.sequence_mask(lengths, 3)[:, :, None], x, value), [X3, np.array([1, 3], i32)],
        value=-1.0)
    case("sequenceMask_float_lengths", lambda x, lengths, value: tf.where(
        tf.sequence_mask(tf.cast(lengths, tf.int32), 3), x, value),
        [IA, np.array([2.0, 0.0], f32)], value=5)
    case("cast_float_to_int32", lambda x: tf.cast(x, tf.int32), [HALVES])
    case("cast_int32_to_float", lambda x: tf.cast(x, tf.float32), [IA])
    case("cast_float_to_bool", lambda x: tf.cast(x, tf.bool), [A])
    case("cast_float_to_half", lambda x: tf.cast(x, tf.float16), [A])
    case("cast_int64_to_uint8", lambda x: tf.cast(x, tf.uint8), [np.array([0, 255, 256, -1, 1000], i64)])
    case("cast_double_to_float", lambda x: tf.cast(x, tf.float32), [D])
    case("where_select", tf.where, [BM, A, B])
    case("where_select_broadcast", tf.where, [np.array([True, False, True]), A, np.array(0, f32)])
    case("where_indices", tf.where, [BM])
    case("where_indices_nonzero", tf.where, [IA * np.array([1, 0, 1], i32)])
    case("where_indices_none", tf.where, [np.zeros((2, 2), bool)])
    case("broadcastTo_rows", lambda x, shape: tf.broadcast_to(x, shape), [ROW], shape=[2, 3])
    case("broadcastTo_rank3", lambda x, shape: tf.broadcast_to(x, shape), [COL], shape=[3, 2, 4])

    # Creation --------------------------------------------------------------------
    case("zeros_float", lambda shape: tf.zeros(shape, tf.float32), [], shape=[2, 3])
    case("zeros_int64", lambda shape: tf.zeros(shape, tf.int64), [], shape=[4])
    case("zeros_empty", lambda shape: tf.zeros(shape, tf.float32), [], shape=[0, 2])
    case("ones_float", lambda shape: tf.ones(shape, tf.float32), [], shape=[3, 1])
    case("ones_bool", lambda shape: tf.ones(shape, tf.bool), [], shape=[2])
    case("ones_uint8", lambda shape: tf.ones(shape, tf.uint8), [], shape=[2, 2])
    case("full_float", lambda shape, value: tf.fill(shape, tf.constant(value, tf.float32)), [],
         shape=[2, 2], value=-1.25)
    case("full_int32", lambda shape, value: tf.fill(shape, tf.constant(value, tf.int32)), [],
         shape=[3], value=7)
    case("full_scalar", lambda shape, value: tf.fill(shape, tf.constant(value, tf.float64)), [],
         shape=[], value=0.1)
    case("arange_stop", lambda stop: tf.range(stop), [], stop=5)
    case("arange_int", lambda start, stop, step: tf.range(start, stop, step), [],
         start=2, stop=-7, step=-3)
    case("arange_float", lambda start, stop, step: tf.range(start, stop, step, dtype=tf.float32),
         [], start=0.5, stop=3.0, step=0.25)
    case("arange_empty", lambda start, stop, step: tf.range(start, stop, step), [],
         start=3, stop=3, step=1)
    case("linspace_five", lambda start, stop, num: tf.linspace(start, stop, num), [],
         start=0.0, stop=1.0, num=5)
    case("linspace_negative", lambda start, stop, num: tf.linspace(start, stop, num), [],
         start=2.5, stop=-10.0, num=7)
    case("eye_square", lambda n: tf.eye(n), [], n=3)
    case("eye_rect_int32", lambda rows, cols: tf.eye(rows, cols, dtype=tf.int32), [],
         rows=2, cols=4)
    case("randomUniform_unit",
         lambda seed, shape: tf.random.stateless_uniform(shape, tf.constant(seed, tf.int64)),
         [], seed=[1, 2], shape=[2, 3])
    case("randomUniform_range",
         lambda seed, shape, low, high: tf.random.stateless_uniform(
             shape, tf.constant(seed, tf.int64), low, high), [],
         seed=[42, -7], shape=[5], low=-2.0, high=5.0)
    case("randomUniform_double",
         lambda seed, shape, low, high: tf.random.stateless_uniform(
             shape, tf.constant(seed, tf.int64), low, high, dtype=tf.float64), [],
         seed=[123456789012, 3], shape=[2, 2], low=0.0, high=1.0)
    case("randomNormal_standard",
         lambda seed, shape: tf.random.stateless_normal(shape, tf.constant(seed, tf.int64)),
         [], seed=[1, 2], shape=[3, 3])
    case("randomNormal_mean_stddev",
         lambda seed, shape, mean, stddev: tf.random.stateless_normal(
             shape, tf.constant(seed, tf.int64), mean, stddev), [],
         seed=[9, 9], shape=[6], mean=10.0, stddev=0.5)

    # Images ----------------------------------------------------------------------
    case("decodePng_rgb", lambda b, channels: tf.io.decode_png(b, channels=channels),
         [scalar_string(PNG_RGB)], channels=3)
    case("decodePng_as_encoded", lambda b, channels: tf.io.decode_png(b, channels=channels),
         [scalar_string(PNG_GRAY)], channels=0)
    case("decodePng_gray_to_rgb", lambda b, channels: tf.io.decode_png(b, channels=channels),
         [scalar_string(PNG_GRAY)], channels=3)
    case("decodeJpeg_rgb", lambda b, channels: tf.io.decode_jpeg(b, channels=channels),
         [scalar_string(JPEG_RGB)], channels=3)
    case("decodeJpeg_rgb_to_gray", lambda b, channels: tf.io.decode_jpeg(b, channels=channels),
         [scalar_string(JPEG_RGB)], channels=1)
    case("decodeJpeg_gray", lambda b, channels: tf.io.decode_jpeg(b, channels=channels),
         [scalar_string(JPEG_GRAY)], channels=0)
    case("decodeImage_png", lambda b, channels: tf.io.decode_image(b, channels=channels),
         [scalar_string(PNG_RGB)], channels=3)
    case("decodeImage_jpeg", lambda b, channels: tf.io.decode_image(b, channels=channels),
         [scalar_string(JPEG_GRAY)], channels=1)
    case("resize_bilinear_up", lambda x, height, width: tf.image.resize(x, [height, width]),
         [SMALL_RGB], height=9, width=11)
    case("resize_bilinear_down", lambda x, height, width: tf.image.resize(x, [height, width]),
         [RGB], height=5, width=6)
    case("resize_bilinear_batch", lambda x, height, width: tf.image.resize(x, [height, width]),
         [FLOAT_BATCH], height=4, width=7)
    case("resize_nearest_up", lambda x, height, width: tf.image.resize(
        x, [height, width], method="nearest"), [SMALL_RGB], height=9, width=11)
    case("resize_nearest_down", lambda x, height, width: tf.image.resize(
        x, [height, width], method="nearest"), [RGB], height=5, width=6)
    case("resize_area_down", lambda x, height, width: tf.image.resize(
        x, [height, width], method="area"), [RGB], height=5, width=6)
    case("resize_bicubic_up", lambda x, height, width: tf.image.resize(
        x, [height, width], method="bicubic"), [SMALL_RGB], height=9, width=11)
    for method in ("bilinear", "nearest", "bicubic", "area"):
        case(f"resize_{method}_v1", lambda x, height, width, method: tf.compat.v1.image.resize(
            x, [height, width], method=method), [RGB], height=5, width=7, method=method)
    case("convertImageDtype_uint8_to_float",
         lambda x: tf.image.convert_image_dtype(x, tf.float32), [SMALL_RGB])
    case("convertImageDtype_float_to_uint8",
         lambda x: tf.image.convert_image_dtype(x, tf.uint8), [FLOAT_BATCH])
    case("convertImageDtype_uint8_to_int16",
         lambda x: tf.image.convert_image_dtype(x, tf.int16), [U8])
    case("convertImageDtype_int32_to_uint8",
         lambda x: tf.image.convert_image_dtype(x, tf.uint8),
         [np.array([0, 2 ** 24, 2 ** 31 - 1, 1000], i32)])
    case("convertImageDtype_float_to_double",
         lambda x: tf.image.convert_image_dtype(x, tf.float64), [FLOAT_BATCH[0]])

    # Strings ---------------------------------------------------------------------
    sentences = strings("hello world", "  leading and  double  spaces ", "", "one",
                        "tab\tand\nnewline")
    case("split_whitespace", lambda s, separator: tf.strings.split(s), [sentences], separator="")
    case("split_separator", lambda s, separator: tf.strings.split(s, sep=separator),
         [strings("a,b,,c", ",", "", "no commas")], separator=",")
    case("split_maxsplit", lambda s, separator, maxSplit: tf.strings.split(
        s, sep=separator, maxsplit=maxSplit), [strings("a-b-c-d", "x-y")],
         separator="-", maxSplit=1)
    case("split_scalar", lambda s, separator: [tf.strings.split(s, sep=separator),
                                               tf.constant([0, 3], tf.int64)],
         [scalar_string(b"1::2::3")], separator="::")
    mixed = strings("Hello, World!", "ÀÉÎ straße", "", "MiXeD 123")
    case("lower_ascii", tf.strings.lower, [mixed])
    case("upper_ascii", tf.strings.upper, [mixed])
    case("regexReplace_global", lambda s, pattern, rewrite: tf.strings.regex_replace(
        s, pattern, rewrite), [mixed], pattern="[aeiou]", rewrite="_")
    case("regexReplace_groups_first", lambda s, pattern, rewrite: tf.strings.regex_replace(
        s, pattern, rewrite, replace_global=False), [strings("2024-01-31 and 1999-12-01")],
         pattern=r"(\d+)-(\d+)-(\d+)", rewrite=r"\3/\2/\1")
    case("toNumber_float", lambda s: tf.strings.to_number(s, tf.float32),
         [strings("1.5", "-2e3", "  7", "inf", "0.1")])
    case("toNumber_double", lambda s: tf.strings.to_number(s, tf.float64),
         [strings("0.1", "1e-300", "-3")])
    case("toNumber_int32", lambda s: tf.strings.to_number(s, tf.int32),
         [strings("42", "-7", "2147483647", shape=(3, 1))])
    case("toNumber_int64", lambda s: tf.strings.to_number(s, tf.int64),
         [strings("9007199254740993", "-1")])
    case("stringLength_bytes", tf.strings.length, [mixed])
    case("join_elementwise", lambda a, b, separator: tf.strings.join([a, b], separator=separator),
         [strings("a", "b", "c"), strings("x", "y", "z")], separator="-")
    case("join_broadcast", lambda a, b, c, separator: tf.strings.join([a, b, c],
                                                                      separator=separator),
         [strings("a", "b"), scalar_string(b"+"), strings("1", "2")], separator="")
    case("reduceJoin_all", lambda s, separator: tf.strings.reduce_join(s, separator=separator),
         [strings("a", "b", "c", "d", "e", "f", shape=(2, 3))], separator=",")
    case("reduceJoin_axis", lambda s, axis, separator: tf.strings.reduce_join(
        s, axis=axis, separator=separator),
         [strings("a", "b", "c", "d", "e", "f", shape=(2, 3))], axis=0, separator="")

    # Creation: typed ranges, offset diagonals, more stateless samplers ------------------
    case("arange_dtype_int64", lambda start, stop, step: tf.range(start, stop, step,
                                                                   dtype=tf.int64), [],
         start=-3, stop=2 ** 33, step=2 ** 31)
    case("arange_dtype_double", lambda start, stop, step: tf.range(start, stop, step,
                                                                    dtype=tf.float64), [],
         start=1.0, stop=-0.5, step=-0.375)
    case("eye_offset_above", lambda rows, cols, k: np.eye(rows, cols, k, dtype=f32), [],
         rows=3, cols=4, k=1)
    case("eye_offset_below_int64", lambda rows, cols, k: np.eye(rows, cols, k, dtype=i64), [],
         rows=4, cols=3, k=-2)
    case("eye_offset_outside", lambda rows, cols, k: np.eye(rows, cols, k, dtype=f32), [],
         rows=2, cols=2, k=3)
    case("randomInteger_int32",
         lambda seed, shape, low, high: tf.random.stateless_uniform(
             shape, tf.constant(seed, tf.int64), low, high, dtype=tf.int32), [],
         seed=[1, 2], shape=[2, 5], low=-5, high=7)
    case("randomInteger_int64",
         lambda seed, shape, low, high: tf.random.stateless_uniform(
             shape, tf.constant(seed, tf.int64), low, high, dtype=tf.int64), [],
         seed=[77, -3], shape=[6], low=-(2 ** 40), high=2 ** 40)
    case("truncatedNormal_float",
         lambda seed, shape, mean, stddev: tf.random.stateless_truncated_normal(
             shape, tf.constant(seed, tf.int64), mean, stddev), [],
         seed=[5, 6], shape=[3, 4], mean=1.0, stddev=2.0)
    case("truncatedNormal_double",
         lambda seed, shape, mean, stddev: tf.random.stateless_truncated_normal(
             shape, tf.constant(seed, tf.int64), mean, stddev, dtype=tf.float64), [],
         seed=[0, 0], shape=[5], mean=0.0, stddev=1.0)
    case("randomPoisson_float",
         lambda rate, seed, shape: tf.random.stateless_poisson(
             shape, tf.constant(seed, tf.int64), rate, dtype=tf.float32),
         [np.array([1.0, 4.0, 0.5], f32)], seed=[3, 4], shape=[5, 3])
    case("randomPoisson_int64",
         lambda rate, seed, shape: tf.random.stateless_poisson(
             shape, tf.constant(seed, tf.int64), rate, dtype=tf.int64),
         [np.array([[20.0], [0.1]], f64)], seed=[8, 1], shape=[3, 2, 1])
    case("randomGamma_float",
         lambda alpha, seed, shape: tf.random.stateless_gamma(
             shape, tf.constant(seed, tf.int64), alpha),
         [np.array([0.5, 3.0], f32)], seed=[11, 12], shape=[4, 2])
    case("randomGamma_double",
         lambda alpha, seed, shape: tf.random.stateless_gamma(
             shape, tf.constant(seed, tf.int64), alpha, dtype=tf.float64),
         [np.array([0.01, 1.0, 9.0], f64)], seed=[-1, 2], shape=[3])

    # Gathers, scatters, strided slices, unique, reflection -----------------------------
    case("unstack_axis1", lambda x, axis: tf.unstack(x, axis=axis), [X3], axis=1)
    case("unstack_strings_last", lambda x, axis: tf.unstack(x, axis=axis),
         [strings("a", "b", "c", "d", shape=(2, 2))], axis=-1)
    case("gather_batch_dims", lambda x, i, axis, batchDims: tf.gather(
        x, i, axis=axis, batch_dims=batchDims), [X3, np.array([[3, 0], [1, 2]], i32)],
         axis=2, batchDims=1)
    case("gather_batch_dims_rows", lambda x, i, axis, batchDims: tf.gather(
        x, i, axis=axis, batch_dims=batchDims), [M34, np.array([[0, 3, 3], [1, 1, 0],
                                                               [2, 0, 1]], i64)],
         axis=1, batchDims=1)
    case("gatherNd_elements", tf.gather_nd, [X3, np.array([[0, 1, 2], [1, 2, 3]], i32)])
    case("gatherNd_slices", tf.gather_nd, [X3, np.array([[[1], [0]]], i64)])
    case("gatherNd_strings", tf.gather_nd,
         [strings("a", "b", "c", "d", shape=(2, 2)), np.array([[1, 0], [0, 1]], i32)])
    case("tensorScatterUpdate_elements", tf.tensor_scatter_nd_update,
         [A, np.array([[0, 1], [1, 2]], i32), np.array([9.0, -9.0], f32)])
    case("tensorScatterUpdate_rows", tf.tensor_scatter_nd_update,
         [IA, np.array([[1]], i64), np.array([[1, 2, 3]], i32)])
    case("stridedSlice_reversed_steps", lambda x, begin, end, strides: tf.strided_slice(
        x, begin, end, strides), [X3], begin=[0, 2, 3], end=[2, 0, 0], strides=[1, -1, -2])
    for name, begin, end, strides, masks in (
            ("shrink_and_new_axis", [1, 0, 0, 1], [0, 0, 2, 4], [1, 1, 1, 2], (0, 0, 1, 2)),
            ("begin_end_masks", [1, 2, 3], [0, 0, 3], [1, -1, 2], (6, 3, 0, 0))):
        case("stridedSlice_" + name,
             lambda x, begin, end, strides, beginMask, endMask, shrinkAxisMask, newAxisMask:
             tf.strided_slice(x, begin, end, strides, begin_mask=beginMask, end_mask=endMask,
                              shrink_axis_mask=shrinkAxisMask, new_axis_mask=newAxisMask),
             [X3], begin=begin, end=end, strides=strides, beginMask=masks[0],
             endMask=masks[1], shrinkAxisMask=masks[2], newAxisMask=masks[3])
    case("stridedSliceUpdate_every_other_column",
         lambda x, v, begin, end, strides: tf.raw_ops.TensorStridedSliceUpdate(
             input=x, begin=begin, end=end, strides=strides, value=v),
         [A, np.array([[10.0, 20.0], [30.0, 40.0]], f32)], begin=[0, 0], end=[2, 3],
         strides=[1, 2])
    case("stridedSliceUpdate_int32_reversed",
         lambda x, v, begin, end, strides: tf.raw_ops.TensorStridedSliceUpdate(
             input=x, begin=begin, end=end, strides=strides, value=v),
         [IA, np.array([[0, -1, -2]], i32)], begin=[1, -1], end=[2, -4], strides=[1, -1])
    unique = lambda x, axis: tf.raw_ops.UniqueWithCountsV2(x=x, axis=[axis], out_idx=tf.int64)
    case("uniqueWithCounts_vector", unique, [np.array([3, 1, 3, -2, 1, 1], i32)], axis=0)
    case("uniqueWithCounts_rows", unique,
         [np.array([[1.5, 2.0], [3.0, 4.0], [1.5, 2.0]], f32)], axis=0)
    case("uniqueWithCounts_columns", unique, [np.array([[1, 2, 1], [5, 6, 5]], i64)], axis=1)
    case("uniqueWithCounts_strings", unique, [strings("b", "a", "b", "")], axis=0)
    case("padReflect_matrix", lambda x, paddings: tf.pad(x, paddings, mode="REFLECT"), [A],
         paddings=[[1, 1], [2, 1]])
    case("padReflect_int32_last", lambda x, paddings: tf.pad(x, paddings, mode="REFLECT"),
         [np.arange(10, dtype=i32).reshape(2, 5)], paddings=[[0, 0], [3, 4]])

    # Complex numbers -----------------------------------------------------------------------
    C64 = np.array([[1 + 2j, -3.5 - 0.5j, 0j], [2.25j, -1.0, 1e-3 + 1e3j]], np.complex64)
    C128 = np.array([0.1 - 0.2j, -1e300 + 1j, 3.0], np.complex128)
    case("complex_float", tf.complex, [A, B])
    case("complex_double_broadcast", tf.complex, [D, np.array(0.5, f64)])
    case("real_complex64", tf.math.real, [C64])
    case("real_complex128", tf.math.real, [C128])
    case("imag_complex64", tf.math.imag, [C64])
    case("imag_complex128", tf.math.imag, [C128])
    case("conj_complex64", tf.math.conj, [C64])
    case("conj_complex128", tf.math.conj, [C128])
    case("conj_real_copied", tf.math.conj, [A])

    # Fourier transforms along any axis (numpy.fft's length: crop or zero-pad first) -------
    def fitted(x, length, axis):
        """x with its axis cropped or zero-padded to length, moved last."""
        x = tf.experimental.numpy.moveaxis(x, axis, -1)
        have = x.shape[-1]
        if have >= length:
            return x[..., :length]
        return tf.pad(x, [[0, 0]] * (len(x.shape) - 1) + [[0, length - have]])

    def transformed(fn, x, fit, axis):
        return tf.experimental.numpy.moveaxis(fn(fitted(x, fit, axis)), -1, axis)

    SIGNAL = (np.sin(np.arange(30, dtype=f64) * 0.7) * 3 - np.arange(30) * 0.1).reshape(3, 10)
    Z = (SIGNAL[:, :6] + 1j * SIGNAL[:, 4:]).astype(np.complex64)
    for name, x, length, axis in (("last_axis", Z, 6, -1), ("axis0_padded", Z, 5, 0),
                                  ("cropped_double", Z.astype(np.complex128), 4, 1)):
        case("fft_" + name, lambda x, length, axis: transformed(tf.signal.fft, x, length, axis),
             [x], length=length, axis=axis)
        case("ifft_" + name, lambda x, length, axis: transformed(tf.signal.ifft, x, length, axis),
             [x], length=length, axis=axis)
    for name, x, length, axis in (("last_axis_padded", SIGNAL.astype(f32), 16, -1),
                                  ("axis0_cropped_double", SIGNAL.T.copy(), 7, 0)):
        case("rfft_" + name, lambda x, length, axis: transformed(
            lambda v: tf.signal.rfft(v, [length]), x, length, axis), [x], length=length,
             axis=axis)
    for name, x, length, axis in (("last_axis", Z, 10, -1),
                                  ("axis0_padded_double", Z.astype(np.complex128), 9, 0),
                                  ("cropped", Z, 6, 1)):
        case("irfft_" + name, lambda x, length, axis: transformed(
            lambda v: tf.signal.irfft(v, [length]), x, length // 2 + 1, axis), [x],
             length=length, axis=axis)
    case("frame_overlapping", lambda x, frameLength, frameStep: tf.signal.frame(
        x, frameLength, frameStep), [SIGNAL.astype(f32)], frameLength=4, frameStep=3)
    case("frame_int32_exact", lambda x, frameLength, frameStep: tf.signal.frame(
        x, frameLength, frameStep), [np.arange(12, dtype=i32)], frameLength=3, frameStep=3)
    case("frame_too_short", lambda x, frameLength, frameStep: tf.signal.frame(
        x, frameLength, frameStep), [A], frameLength=4, frameStep=1)

    # Images: antialiased and corner-aligned resizing, colour adjustments ---------------------
    FLOAT_RGB = (SMALL_RGB / f32(255)).astype(f32)
    for method in ("bilinear", "bicubic"):
        case(f"resizeAntialiased_{method}_down", lambda x, height, width, method:
             tf.image.resize(x, [height, width], method=method, antialias=True),
             [FLOAT_BATCH], height=4, width=3, method=method)
        case(f"resizeAntialiased_{method}_up", lambda x, height, width, method:
             tf.image.resize(x, [height, width], method=method, antialias=True),
             [FLOAT_RGB], height=8, width=9, method=method)
    case("resizeAntialiased_area", lambda x, height, width, method:
         tf.image.resize(x, [height, width], method=method, antialias=True),
         [FLOAT_BATCH], height=4, width=3, method="area")
    for method in ("bilinear", "bicubic", "nearest"):
        case(f"resizeAlignCorners_{method}", lambda x, height, width, method:
             tf.compat.v1.image.resize(x, [height, width], method=method, align_corners=True),
             [RGB], height=5, width=7, method=method)
    case("resizeAlignCorners_bilinear_up", lambda x, height, width, method:
         tf.compat.v1.image.resize(x, [height, width], method=method, align_corners=True),
         [FLOAT_RGB], height=9, width=13, method="bilinear")
    case("adjustHue_quarter_turn", lambda x, delta: tf.image.adjust_hue(x, delta), [FLOAT_RGB],
         delta=0.25)
    case("adjustHue_batch_negative", lambda x, delta: tf.image.adjust_hue(x, delta),
         [np.stack([FLOAT_RGB, FLOAT_RGB[::-1]])], delta=-0.4)
    case("adjustSaturation_more", lambda x, factor: tf.image.adjust_saturation(x, factor),
         [FLOAT_RGB], factor=1.7)
    case("adjustSaturation_grey", lambda x, factor: tf.image.adjust_saturation(x, factor),
         [FLOAT_RGB], factor=0.0)
    case("adjustContrast_less", lambda x, factor: tf.image.adjust_contrast(x, factor),
         [FLOAT_RGB], factor=0.6)
    case("adjustContrast_batch", lambda x, factor: tf.image.adjust_contrast(x, factor),
         [FLOAT_BATCH], factor=2.5)

    # Layers (tf.nn, channels last, padding VALID) -------------------------------------------
    def values(*shape, scale=0.25, dtype=f32):
        count = int(np.prod(shape))
        return (np.sin(np.arange(count) * 1.3) * scale * 4).astype(dtype).reshape(shape)

    conv = lambda x, f, strides, dilations: tf.nn.convolution(
        x, f, strides=strides, padding="VALID", dilations=dilations)
    case("convolution_2d_strided", conv, [values(2, 5, 6, 3), values(3, 2, 3, 4)],
         strides=[1, 2], dilations=[1, 1])
    case("convolution_1d", conv, [values(2, 9, 3), values(3, 3, 2)], strides=[2], dilations=[1])
    case("convolution_2d_dilated", conv, [values(1, 7, 8, 2), values(2, 3, 2, 3)],
         strides=[1, 1], dilations=[2, 3])
    case("convolution_3d", conv, [values(1, 4, 5, 4, 2), values(2, 2, 3, 2, 3)],
         strides=[1, 1, 2], dilations=[1, 1, 1])
    conv_t = lambda x, f, outputShape, strides, dilations: tf.nn.conv_transpose(
        x, f, outputShape, strides, padding="VALID", dilations=dilations)
    case("convolutionTranspose_2d_extra_row", conv_t, [values(1, 3, 3, 2), values(2, 2, 4, 2)],
         outputShape=[1, 7, 6, 4], strides=[2, 2], dilations=[1, 1])
    case("convolutionTranspose_1d", conv_t, [values(2, 4, 3), values(3, 2, 3)],
         outputShape=[2, 9, 2], strides=[2], dilations=[1])
    def conv_t_as_gradient(x, f, outputShape, strides, dilations):
        """The transposed convolution as what it is, the convolution's gradient with respect to
        its input (TensorFlow's CPU kernel of conv_transpose has no dilation)."""
        z = tf.zeros(outputShape)
        with tf.GradientTape() as tape:
            tape.watch(z)
            y = tf.nn.convolution(z, f, strides=strides, padding="VALID", dilations=dilations)
        return tape.gradient(y, z, output_gradients=x)
    case("convolutionTranspose_2d_dilated", conv_t_as_gradient,
         [values(1, 3, 4, 1), values(2, 3, 2, 1)], outputShape=[1, 5, 8, 2], strides=[1, 1],
         dilations=[2, 2])
    case("convolutionTranspose_3d", conv_t, [values(1, 2, 2, 3, 2), values(2, 2, 1, 3, 2)],
         outputShape=[1, 4, 4, 3, 3], strides=[2, 2, 1], dilations=[1, 1, 1])
    pool = lambda fn: (lambda x, windows, strides: fn(x, windows, strides, padding="VALID"))
    case("maxPool_2d", pool(tf.nn.max_pool), [values(2, 5, 6, 3)], windows=[2, 3], strides=[2, 2])
    case("maxPool_1d", pool(tf.nn.max_pool), [values(2, 9, 2)], windows=[3], strides=[2])
    case("maxPool_3d", pool(tf.nn.max_pool), [values(1, 4, 4, 5, 2)], windows=[2, 2, 3],
         strides=[2, 1, 2])
    case("avgPool_2d", pool(tf.nn.avg_pool), [values(2, 5, 6, 3)], windows=[2, 3], strides=[2, 2])
    case("avgPool_1d", pool(tf.nn.avg_pool), [values(2, 9, 2)], windows=[3], strides=[2])
    case("avgPool_3d", pool(tf.nn.avg_pool), [values(1, 4, 4, 5, 2)], windows=[2, 2, 3],
         strides=[2, 1, 2])
    case("biasAdd_rank3", tf.nn.bias_add, [X3, np.array([1.0, -2.0, 0.5, 0.0], f32)])
    case("biasAdd_int32", tf.nn.bias_add, [IA, np.array([1, 2, 3], i32)])

    def block_lstm(x, c0, h0, kernel, bias):
        out = tf.raw_ops.BlockLSTMV2(
            seq_len_max=tf.constant(x.shape[0], tf.int64), x=x, cs_prev=c0, h_prev=h0, w=kernel,
            wci=tf.zeros([h0.shape[1]]), wcf=tf.zeros([h0.shape[1]]), wco=tf.zeros([h0.shape[1]]),
            b=bias, cell_clip=0.0, use_peephole=False)
        return [out.h, out.cs]
    case("blockLstm_three_steps", block_lstm,
         [values(3, 2, 4), values(2, 5, scale=0.1), values(2, 5, scale=0.2),
          values(9, 20, scale=0.15), values(20, scale=0.05)])


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print("usage: %s OUT_FILE.json" % argv[0], file=sys.stderr)
        return 2
    tf.get_logger().setLevel("ERROR")
    build_cases()
    names = [c["name"] for c in CASES]
    unknown = sorted(set(TOLERANT) - set(names))
    if unknown:
        print("FAILED: TOLERANT names no case: %s" % unknown, file=sys.stderr)
        return 1
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        print("FAILED: duplicate case names %s" % duplicates, file=sys.stderr)
        return 1
    with open(argv[1], "w") as out:
        json.dump(CASES, out, indent=1)
        out.write("\n")
    print("%d eager cases (TensorFlow %s) -> %s" % (len(CASES), tf.__version__, argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
