#!/usr/bin/env python3
"""Writes the .npy/.npz files of string object arrays that NumPy writes, as test vectors for
io.tfjni.numpy.ObjectArrayPickle, and expected.json: what NumPy itself loads from each file.

Usage: python make_vectors.py OUT_DIR   (run with NumPy 1.x and with NumPy 2.x; the committed
vectors come from numpy 1.26.4 in np1/ and numpy 2.0.2 in np2/).
np.save pickles with one protocol (3 in NumPy 1.x, 4 in 2.x); the p<N>_ files hold the pickle
of the same array written with pickle.dumps(array, protocol=N) after np.save's header, which
np.load reads the same way.
"""
import base64
import io
import json
import os
import pickle
import sys

import numpy as np


def objects(values, shape):
    a = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        a[i] = v
    return a.reshape(shape)


LONG = "long-" * 60                      # beyond the 1-byte lengths of SHORT_BIN*
CASES = {
    "scalar": objects([b"alone"], ()),
    "empty": objects([], (0,)),
    "vector": objects([b"ab", b"", b"c\x00d"], (3,)),
    "matrix": objects([b"a", b"bb", b"ccc", b"", b"e", b"ff"], (2, 3)),
    "fortran": np.asfortranarray(objects([b"a", b"bb", b"ccc", b"d", b"e", b"ff"], (2, 3))),
    "empty_2d": objects([], (2, 0)),
    "str_vector": objects(["caf\u00e9", "", "\U0001F600 x"], (3,)),
    "str_matrix": objects(["\u00e4", "b", "\u4e2d\u6587", "", "e", LONG], (2, 3)),
    "str_scalar": objects(["\u00fcber"], ()),
    "non_ascii_bytes": objects(["caf\u00e9".encode(), b"\xff\xfe\x00", bytes(range(256))], (3,)),
    "long": objects([LONG.encode(), b"x" * 1000, b""], (3,)),
    "repeated": objects([b"same", b"same", b"other", b"same"], (4,)),
}


def header(array):
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, np.lib.format.header_data_from_array_1_0(array))
    return buf.getvalue()


def encode(array):
    return {"shape": list(array.shape),
            "elements": [base64.b64encode(v if isinstance(v, bytes) else v.encode()).decode()
                         for v in array.reshape(-1, order="C").tolist()]}


def main(out):
    os.makedirs(out, exist_ok=True)
    expected = {"numpy": np.__version__}
    for name, array in CASES.items():
        files = {name + ".npy": None}
        np.save(os.path.join(out, name + ".npy"), array)
        for protocol in (2, 3, 4, 5):
            path = "p%d_%s.npy" % (protocol, name)
            with open(os.path.join(out, path), "wb") as f:
                f.write(header(array) + pickle.dumps(array, protocol=protocol))
            files[path] = None
        for path in files:
            loaded = np.load(os.path.join(out, path), allow_pickle=True)
            expected[path] = encode(loaded)
    np.savez(os.path.join(out, "archive.npz"), words=CASES["vector"], text=CASES["str_matrix"],
             n=np.arange(3))
    with np.load(os.path.join(out, "archive.npz"), allow_pickle=True) as z:
        for key in ("words", "text"):
            expected["archive.npz[%s]" % key] = encode(z[key])
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
