"""Expected values for tfjni-djl's LayerOpsTest (DJL's pooling, convolution and normalization
layers, channels-first) computed with TensorFlow Python on channels-last transposes, or with
plain numpy loops where DJL (as PyTorch) means something no single TensorFlow call does: ceil
mode, averages that skip padding, transposed convolution with output padding.
scripts/setup.sh writes it into the test models' directory, under the oneDNN setting the tests
run with (TF_ENABLE_ONEDNN_OPTS):

  ~/.cache/tfjni/venv-2.18.0/bin/python scripts/goldens/djl_layer_goldens.py OUT.json
"""
import itertools
import json
import math
import os
import sys

import numpy as np
import tensorflow as tf

OUT = sys.argv[1]
rng = np.random.default_rng(17)


def data(*shape, positive=False):
    x = rng.standard_normal(shape).astype(np.float32)
    return np.abs(x) + 0.1 if positive else x


def last(x):
    """(N, C, ...) -> (N, ..., C)."""
    return np.moveaxis(x, 1, -1)


def first(x):
    return np.moveaxis(np.asarray(x), -1, 1)


def tf_filter(w):
    """DJL's (out, in, k...) -> TensorFlow's (k..., in, out)."""
    return np.moveaxis(np.moveaxis(w, 0, -1), 0, -2)


def out_len(length, k, s, p, ceil):
    span = length + 2 * p - k
    n = (-(-span // s) if ceil else span // s) + 1
    if ceil and (n - 1) * s >= length + p:
        n -= 1
    return n


def ref_pool(x, kind, k, s, p, ceil, include_pad):
    """PyTorch's pooling by loops over every window (channels-first)."""
    spatial = x.shape[2:]
    outs = [out_len(spatial[i], k[i], s[i], p[i], ceil) for i in range(len(k))]
    y = np.zeros(x.shape[:2] + tuple(outs), np.float64)
    for pos in itertools.product(*[range(o) for o in outs]):
        lo = [pos[i] * s[i] - p[i] for i in range(len(k))]
        hi_pad = [min(lo[i] + k[i], spatial[i] + p[i]) for i in range(len(k))]
        a = [max(lo[i], 0) for i in range(len(k))]
        b = [min(lo[i] + k[i], spatial[i]) for i in range(len(k))]
        window = x[(slice(None), slice(None)) + tuple(slice(a[i], b[i]) for i in range(len(k)))]
        flat = window.reshape(x.shape[0], x.shape[1], -1).astype(np.float64)
        if kind == "max":
            v = flat.max(axis=2)
        else:
            count = np.prod([(hi_pad[i] - lo[i]) if include_pad else (b[i] - a[i])
                             for i in range(len(k))])
            v = flat.sum(axis=2) / count
        y[(slice(None), slice(None)) + pos] = v
    return y


def ref_deconv(x, w, s, p, op, d):
    """Transposed convolution by scattering every input cell's kernel (channels-first)."""
    spatial = x.shape[2:]
    k = w.shape[2:]
    full = [(spatial[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 + op[i] for i in range(len(k))]
    y = np.zeros((x.shape[0], w.shape[1]) + tuple(full), np.float64)
    for pos in itertools.product(*[range(n) for n in spatial]):
        for kk in itertools.product(*[range(n) for n in k]):
            at = tuple(pos[i] * s[i] + kk[i] * d[i] for i in range(len(k)))
            contrib = np.einsum("nc,co->no", x[(slice(None), slice(None)) + pos],
                                w[(slice(None), slice(None)) + kk])
            y[(slice(None), slice(None)) + at] += contrib
    crop = tuple(slice(p[i], full[i] - p[i]) for i in range(len(k)))
    return y[(slice(None), slice(None)) + crop]


cases = []


def dilated_conv(x, w, stride, padding, dilation, groups=1):
    """PyTorch's convolution (channels-first, zero padding on both sides) by tf.nn.convolution,
    which runs dilation on any CPU (as SpaceToBatchND around an undilated kernel); it refuses
    strides with dilation, so the stride-1 result is subsampled."""
    pads = [[0, 0]] + [[p, p] for p in padding] + [[0, 0]]
    xs = np.split(last(x), groups, axis=-1)
    ws = np.split(tf_filter(w), groups, axis=-1)
    dense = tf.concat([tf.nn.convolution(tf.pad(a, pads), f, 1, "VALID", dilations=dilation)
                       for a, f in zip(xs, ws)], -1)
    return first(dense.numpy()[(slice(None),) + tuple(slice(None, None, s) for s in stride)])


def case(name, op, inputs, expected, **params):
    cases.append({
        "name": name, "op": op, "params": params,
        "inputs": [{"shape": list(a.shape), "data": [float(f"{v:.9g}") for v in a.reshape(-1)]}
                   if a is not None else None for a in inputs],
        "expected": {"shape": list(np.shape(expected)),
                     "data": [float(f"{v:.9g}") for v in np.asarray(expected).reshape(-1)]},
    })


# ---- pooling -------------------------------------------------------------------------------
x = data(2, 3, 5, 6)
case("maxPool2d valid", "maxPool", [x],
     first(tf.nn.max_pool2d(last(x), 2, 2, "VALID")), kernel=[2, 2], stride=[2, 2],
     padding=[0, 0], ceil=False)
# The loop references agree with TensorFlow where TensorFlow has the same call.
assert np.allclose(ref_pool(x, "max", [2, 2], [2, 2], [0, 0], False, True),
                   first(tf.nn.max_pool2d(last(x), 2, 2, "VALID")))
assert np.allclose(ref_pool(x, "avg", [3, 2], [1, 2], [0, 0], False, False),
                   first(tf.nn.avg_pool2d(last(x), [3, 2], [1, 2], "VALID")))
case("maxPool2d padded ceil", "maxPool", [x],
     ref_pool(x, "max", [3, 3], [2, 2], [1, 1], True, True),
     kernel=[3, 3], stride=[2, 2], padding=[1, 1], ceil=True)
x1 = data(2, 3, 8)
case("maxPool1d padded ceil", "maxPool", [x1], ref_pool(x1, "max", [3], [2], [1], True, True),
     kernel=[3], stride=[2], padding=[1], ceil=True)
x3 = data(1, 2, 4, 5, 4)
case("maxPool3d", "maxPool", [x3],
     first(tf.nn.max_pool3d(last(x3), [2, 2, 2], [1, 2, 2], "VALID")), kernel=[2, 2, 2],
     stride=[1, 2, 2], padding=[0, 0, 0], ceil=False)
case("avgPool2d valid", "avgPool", [x],
     first(tf.nn.avg_pool2d(last(x), [3, 2], [1, 2], "VALID")), kernel=[3, 2], stride=[1, 2],
     padding=[0, 0], ceil=False, countIncludePad=True)
case("avgPool2d padded ceil excluding padding", "avgPool", [x],
     ref_pool(x, "avg", [3, 3], [2, 2], [1, 1], True, False), kernel=[3, 3], stride=[2, 2],
     padding=[1, 1], ceil=True, countIncludePad=False)
case("avgPool2d padded ceil including padding", "avgPool", [x],
     ref_pool(x, "avg", [3, 3], [2, 2], [1, 1], True, True), kernel=[3, 3], stride=[2, 2],
     padding=[1, 1], ceil=True, countIncludePad=True)
case("avgPool1d padded", "avgPool", [x1], ref_pool(x1, "avg", [3], [1], [1], False, True),
     kernel=[3], stride=[1], padding=[1], ceil=False, countIncludePad=True)
case("avgPool3d", "avgPool", [x3],
     first(tf.nn.avg_pool3d(last(x3), [2, 2, 2], [2, 1, 2], "VALID")), kernel=[2, 2, 2],
     stride=[2, 1, 2], padding=[0, 0, 0], ceil=False, countIncludePad=True)
xp = data(2, 3, 4, 6, positive=True)
case("lpPool2d p=2", "lpPool", [xp],
     first(tf.sqrt(tf.nn.avg_pool2d(last(xp) ** 2, 2, 2, "VALID") * 4)), norm=2.0,
     kernel=[2, 2], stride=[2, 2], padding=[0, 0], ceil=False)
xl = data(2, 2, 6, positive=True)
s3 = tf.nn.avg_pool1d(last(xl) ** 3, 3, 3, "VALID") * 3
case("lpPool1d p=3", "lpPool", [xl], first(s3.numpy() ** (1 / 3)), norm=3.0, kernel=[3],
     stride=[3], padding=[0], ceil=False)
case("globalMaxPool", "globalMaxPool", [x], tf.reduce_max(x, axis=[2, 3]))
case("globalAvgPool 3d", "globalAvgPool", [x3], tf.reduce_mean(x3, axis=[2, 3, 4]))
case("globalLpPool p=3", "globalLpPool", [xp],
     tf.reduce_sum(xp ** 3, axis=[2, 3]).numpy() ** (1 / 3), norm=3.0)

# ---- convolution ---------------------------------------------------------------------------
xc = data(2, 4, 6, 7)
w = data(5, 4, 3, 3)
b = data(5)
case("conv2d padded bias", "convolution", [xc, w, b],
     first(tf.nn.conv2d(last(xc), tf_filter(w), 1, [[0, 0], [1, 1], [1, 1], [0, 0]]) + b),
     stride=[1, 1], padding=[1, 1], dilation=[1, 1], groups=1)
case("conv2d stride dilation", "convolution", [xc, w, None],
     dilated_conv(xc, w, [2, 1], [0, 1], [1, 2]),
     stride=[2, 1], padding=[0, 1], dilation=[1, 2], groups=1)
wg = data(6, 2, 3, 2)
xg = last(xc)
parts = [tf.nn.conv2d(xg[..., 2 * g:2 * g + 2], tf_filter(wg[3 * g:3 * g + 3]), 1, "VALID")
         for g in range(2)]
case("conv2d groups", "convolution", [xc, wg, None], first(tf.concat(parts, -1)),
     stride=[1, 1], padding=[0, 0], dilation=[1, 1], groups=2)
x1c = data(2, 3, 9)
w1 = data(4, 3, 3)
b1 = data(4)
case("conv1d", "convolution", [x1c, w1, b1],
     first(tf.nn.conv1d(tf.pad(last(x1c), [[0, 0], [2, 2], [0, 0]]), tf_filter(w1), 2,
                        "VALID") + b1),
     stride=[2], padding=[2], dilation=[1], groups=1)
x3c = data(1, 2, 4, 5, 5)
w3 = data(3, 2, 2, 3, 3)
case("conv3d", "convolution", [x3c, w3, None],
     first(tf.nn.conv3d(tf.pad(last(x3c), [[0, 0], [0, 0], [1, 1], [1, 1], [0, 0]]),
                        tf_filter(w3), [1, 1, 1, 2, 1], "VALID")),
     stride=[1, 1, 2], padding=[0, 1, 1], dilation=[1, 1, 1], groups=1)

# ---- deconvolution -------------------------------------------------------------------------
xd = data(2, 3, 4, 5)
wd = data(3, 2, 3, 3)  # DJL: (in, out, k...)
bd = data(2)
tf_deconv = tf.nn.conv2d_transpose(last(xd), np.moveaxis(np.moveaxis(wd, 0, -1), 0, -2),
                                   [2, 9, 11, 2], 2, "VALID")
assert np.allclose(ref_deconv(xd, wd, [2, 2], [0, 0], [0, 0], [1, 1]), first(tf_deconv),
                   atol=1e-5)
case("deconv2d valid", "deconvolution", [xd, wd, bd], first(tf_deconv + bd), stride=[2, 2],
     padding=[0, 0], outPadding=[0, 0], dilation=[1, 1], groups=1)
case("deconv2d padded outPadding", "deconvolution", [xd, wd, None],
     ref_deconv(xd, wd, [2, 2], [1, 1], [1, 1], [1, 1]), stride=[2, 2], padding=[1, 1],
     outPadding=[1, 1], dilation=[1, 1], groups=1)
x1d = data(1, 2, 5)
w1d = data(2, 3, 3)
case("deconv1d dilation", "deconvolution", [x1d, w1d, None],
     ref_deconv(x1d, w1d, [1], [1], [0], [2]), stride=[1], padding=[1], outPadding=[0],
     dilation=[2], groups=1)

xdg = data(1, 4, 3, 3)
wdg = data(4, 3, 2, 2)  # 2 groups: input channels 0-1 by wdg[0:2], 2-3 by wdg[2:4]
grouped = np.concatenate([ref_deconv(xdg[:, 2 * g:2 * g + 2], wdg[2 * g:2 * g + 2], [2, 2],
                                     [0, 0], [0, 0], [1, 1]) for g in range(2)], axis=1)
case("deconv2d groups", "deconvolution", [xdg, wdg, None], grouped, stride=[2, 2],
     padding=[0, 0], outPadding=[0, 0], dilation=[1, 1], groups=2)

# ---- normalization -------------------------------------------------------------------------
xb = data(2, 3, 4, 5)
mean, var = data(3), data(3, positive=True)
gamma, beta = data(3), data(3)
bshape = [1, 3, 1, 1]
case("batchNorm axis 1", "batchNorm", [xb, mean, var, gamma, beta],
     tf.nn.batch_normalization(xb, mean.reshape(bshape), var.reshape(bshape),
                               beta.reshape(bshape), gamma.reshape(bshape), 1e-3),
     axis=1, eps=1e-3)
xb2 = data(2, 4, 3)
case("batchNorm axis -1", "batchNorm", [xb2, mean, var, gamma, beta],
     tf.nn.batch_normalization(xb2, mean, var, beta, gamma, 1e-5), axis=-1, eps=1e-5)
g2, b2 = data(4, 5), data(4, 5)
m, v = tf.nn.moments(tf.constant(xb), axes=[2, 3], keepdims=True)
case("layerNorm", "layerNorm", [xb, g2, b2],
     tf.nn.batch_normalization(xb, m, v, b2, g2, 1e-5), normalizedShape=[4, 5], eps=1e-5)

# ---- interpolation (N, C, H, W); modes are DJL's Image.Interpolation ordinals ---------------
xi = data(1, 2, 4, 6)
case("interpolation bilinear up", "interpolation", [xi],
     first(tf.image.resize(last(xi), [7, 9], "bilinear", antialias=True)), size=[7, 9], mode=1,
     alignCorners=False)
case("interpolation bilinear down", "interpolation", [xi],
     first(tf.image.resize(last(xi), [3, 4], "bilinear", antialias=True)), size=[3, 4], mode=1,
     alignCorners=False)
case("interpolation bilinear align corners", "interpolation", [xi],
     first(tf.compat.v1.image.resize_bilinear(last(xi), [7, 9], align_corners=True)),
     size=[7, 9], mode=1, alignCorners=True)
case("interpolation nearest", "interpolation", [xi],
     first(tf.compat.v1.image.resize_nearest_neighbor(last(xi), [6, 4])), size=[6, 4], mode=0,
     alignCorners=False)
case("interpolation area", "interpolation", [xi],
     first(tf.compat.v1.image.resize_area(last(xi), [2, 3])), size=[2, 3], mode=2,
     alignCorners=False)
case("interpolation bicubic", "interpolation", [xi],
     first(tf.image.resize(last(xi), [5, 8], "bicubic", antialias=True)), size=[5, 8], mode=3,
     alignCorners=False)
case("interpolation bicubic align corners", "interpolation", [xi],
     first(tf.compat.v1.image.resize_bicubic(last(xi), [7, 9], align_corners=True)),
     size=[7, 9], mode=3, alignCorners=True)

# ---- dilation (after the other cases, so that their random data stays as it was) ----------
x1l = data(2, 3, 10)
w1l = data(4, 3, 3)
b1l = data(4)
case("conv1d dilation 3 bias", "convolution", [x1l, w1l, b1l],
     dilated_conv(x1l, w1l, [1], [2], [3]) + b1l[None, :, None],
     stride=[1], padding=[2], dilation=[3], groups=1)
xgd = data(1, 4, 7, 8)
wgd = data(4, 2, 2, 3)
case("conv2d dilation groups", "convolution", [xgd, wgd, None],
     dilated_conv(xgd, wgd, [1, 1], [1, 0], [2, 3], groups=2),
     stride=[1, 1], padding=[1, 0], dilation=[2, 3], groups=2)
x3d = data(1, 2, 5, 6, 7)
w3d = data(3, 2, 2, 2, 2)
case("conv3d dilation stride", "convolution", [x3d, w3d, None],
     dilated_conv(x3d, w3d, [1, 2, 1], [0, 0, 1], [2, 1, 2]),
     stride=[1, 2, 1], padding=[0, 0, 1], dilation=[2, 1, 2], groups=1)
xdd = data(1, 3, 4, 3)
wdd = data(3, 2, 2, 3)
case("deconv2d dilation stride", "deconvolution", [xdd, wdd, None],
     ref_deconv(xdd, wdd, [2, 1], [1, 0], [1, 0], [2, 2]), stride=[2, 1], padding=[1, 0],
     outPadding=[1, 0], dilation=[2, 2], groups=1)

with open(OUT, "w") as f:
    json.dump({"generator": "scripts/goldens/djl_layer_goldens.py", "tensorflow": tf.__version__,
               "cases": cases}, f, separators=(",", ":"))
print(f"{len(cases)} cases -> {OUT}")
