"""Expected values for tfjni-djl's FourierTest, UniqueScatterTest and AdvancedIndexTest: the
transforms from numpy.fft (torch.fft's meaning), unique and scatter from TensorFlow Python (numpy
where DJL's meaning is numpy's/torch's and TensorFlow has no single op: the sorted order of
unique, scatter's positions), NDIndex get/set with index arrays from numpy's indexing (torch's
meaning; where an integer and an index array are apart, numpy broadcasts the integer with the
arrays but torch selects first, written here as numpy on the selected array). The tests hold
these values as Java array constants: printed by the first command (rerun after changing an
input and paste the output), checked against the tests' sources by the second (make test runs it,
so a constant that drifts from this script fails the build).

  ~/.cache/tfjni/venv-2.18.0/bin/python scripts/goldens/djl_op_goldens.py
  ~/.cache/tfjni/venv-2.18.0/bin/python scripts/goldens/djl_op_goldens.py --check TEST.java ...
"""
import re
import sys

import numpy as np
import tensorflow as tf

GOLDENS = {}  # name -> (kind, values), in the order the script computes them


def golden(name, values, kind="float"):
    """Records a constant for the tests: float32 values, or longs."""
    GOLDENS[name] = (kind, np.asarray(values))


def print_constant(name, kind, values):
    """A Java constant, wrapped at 100 columns; floats in their shortest float32 spelling."""
    flat = values.reshape(-1)
    if kind == "float":
        items = [str(np.float32(v)) + "f" for v in flat]
    else:
        items = [str(int(v)) + "L" for v in flat]
    print(f"  /** shape {list(values.shape)} */")
    lines, line = [], "     "
    for item in items:
        if len(line) + len(item) + 2 > 100:
            lines.append(line.rstrip())
            line = "     "
        line += " " + item + ","
    lines.append(line.rstrip().rstrip(","))
    print(f"  private static final {kind}[] {name} = {{")
    print("\n".join(lines))
    print("  };")


def as_real(c):  # torch.view_as_real: (real, imaginary) on a new last axis
    c = np.asarray(c)
    return np.stack([c.real, c.imag], axis=-1).astype(np.float32)


SIGNAL = np.array([[1.0, -2.0, 3.5, 0.25], [4.0, 0.5, -1.0, 2.0], [0.0, 3.0, 1.5, -0.5]],
                  np.float32)
golden("SIGNAL", SIGNAL)
# numpy.fft has torch.fft's meaning (n crops or zero-pads the axis): no axis moving or padding
# of ours that the engine's own code could share a mistake with.
golden("FFT_AXIS0_PADDED_TO_5", as_real(np.fft.fft(SIGNAL, n=5, axis=0)))
golden("FFT_LAST_CROPPED_TO_3", as_real(np.fft.fft(SIGNAL, n=3, axis=1)))
golden("IFFT_LAST_6", as_real(np.fft.ifft(SIGNAL, n=6, axis=1)))
golden("RFFT_AXIS0_4", as_real(np.fft.rfft(SIGNAL, n=4, axis=0)))
spectrum = np.fft.rfft(SIGNAL, n=4, axis=1)
golden("IRFFT_OF_RFFT_LAST_4", np.fft.irfft(spectrum, n=4, axis=1))
golden("IRFFT_OF_RFFT_LAST_5", np.fft.irfft(spectrum, n=5, axis=1))
golden("FFT2_PADDED_4x6", as_real(np.fft.fft2(SIGNAL, s=(4, 6))))
golden("CONJ_OF_FFT_LAST_4", as_real(np.conj(np.fft.fft(SIGNAL, n=4, axis=1))))

# torch.stft(audio, n_fft=8, hop_length=3, center=True (reflect), window=hann(8), normalized):
# frames of n_fft every hop, windowed, numpy's rfft of each, laid out (frequency, frame).
AUDIO = np.array([[np.sin(0.7 * i) + 0.1 * i for i in range(12)],
                  [np.cos(0.3 * i) * (i % 3) for i in range(12)]], np.float32)
golden("AUDIO", AUDIO)
n_fft, hop = 8, 3


def stft(x, window):
    starts = range(0, x.shape[-1] - n_fft + 1, hop)
    frames = np.stack([x[..., s:s + n_fft] * window for s in starts], axis=-2)
    return np.swapaxes(np.fft.rfft(frames, axis=-1), -1, -2)


window = np.array([0.5 * (1 - np.cos(2 * np.pi * i / n_fft)) for i in range(n_fft)], np.float32)
padded = np.pad(AUDIO, [(0, 0), (n_fft // 2, n_fft // 2)], mode="reflect")
golden("STFT_CENTERED_NORMALIZED", as_real(stft(padded, window) / np.sqrt(n_fft)))
golden("STFT_PLAIN_NO_WINDOW", as_real(stft(AUDIO, np.ones(n_fft, np.float32))))

# unique: TensorFlow's UniqueWithCounts finds them; numpy gives torch's sorted order.
VALUES = np.array([[5, 1, 5, 2], [2, 7, 1, 5]], np.float32)
golden("VALUES", VALUES)
y, idx, counts = tf.unique_with_counts(tf.reshape(VALUES, [-1]))
order = np.argsort(y.numpy(), kind="stable")
rank = np.argsort(order)
golden("UNIQUE_SORTED", y.numpy()[order])
golden("UNIQUE_SORTED_INVERSE", rank[idx.numpy()].reshape(VALUES.shape), "long")
golden("UNIQUE_SORTED_COUNTS", counts.numpy()[order], "long")
golden("UNIQUE_FIRST_SEEN", y.numpy())
ROWS = np.array([[2, 0, 1], [1, 9, 9], [2, 0, 1], [1, 9, 3], [0, 5, 5], [1, 9, 9]], np.float32)
golden("ROWS", ROWS)
uy, uidx, ucount = tf.raw_ops.UniqueWithCountsV2(x=ROWS, axis=[0], out_idx=tf.int64)
order = sorted(range(uy.shape[0]), key=lambda i: tuple(uy.numpy()[i]))
rank = np.argsort(order)
golden("UNIQUE_ROWS", uy.numpy()[order])
golden("UNIQUE_ROWS_INVERSE", rank[uidx.numpy()], "long")
golden("UNIQUE_ROWS_COUNTS", ucount.numpy()[order], "long")
np_rows, np_inv, np_counts = np.unique(ROWS, axis=0, return_inverse=True, return_counts=True)
assert (np_rows == uy.numpy()[order]).all() and (np_inv.reshape(-1) == rank[uidx.numpy()]).all()
# unique columns (axis 1) of ROWS.T
cy, cidx, ccount = tf.raw_ops.UniqueWithCountsV2(x=ROWS.T, axis=[1], out_idx=tf.int64)
corder = sorted(range(cy.shape[1]), key=lambda i: tuple(cy.numpy()[:, i]))
golden("UNIQUE_COLUMNS", cy.numpy()[:, corder])
golden("UNIQUE_COLUMNS_INVERSE", np.argsort(corder)[cidx.numpy()], "long")

# scatter (torch.scatter): this[p with p[axis] = index[p]] = data[p], through TensorScatterUpdate
BASE = np.arange(20, dtype=np.float32).reshape(4, 5) * -1
DATA = np.arange(100, 112, dtype=np.float32).reshape(3, 4)
INDEX1 = np.array([[4, 0, 2], [1, 3, 0]])  # axis 1, index shape (2, 3)
coords = [[i, INDEX1[i, j]] for i in range(2) for j in range(3)]
updates = [DATA[i, j] for i in range(2) for j in range(3)]
golden("SCATTER_AXIS1", tf.tensor_scatter_nd_update(BASE, coords, updates).numpy())
INDEX0 = np.array([[3, 0], [1, 2]])  # axis 0, index shape (2, 2)
coords = [[INDEX0[i, j], j] for i in range(2) for j in range(2)]
updates = [DATA[i, j] for i in range(2) for j in range(2)]
golden("SCATTER_AXIS0", tf.tensor_scatter_nd_update(BASE, coords, updates).numpy())

# NDIndex with index arrays (AdvancedIndexTest): numpy's advanced indexing on CUBE.
CUBE = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
golden("ROWS_BY_MATRIX", CUBE[np.array([[0, 2], [-1, 1]])])                # [2, 2, 4, 5]
golden("ADJACENT_ARRAYS", CUBE[1:, np.array([[3], [0]]), np.array([4, 1, -2])])  # [2, 2, 3]
golden("SEPARATED_ARRAYS", CUBE[np.array([0, 2]), :, np.array([1, 3])])   # [2, 4]
# torch: the integer selects first, then the array indexes what is left (numpy: CUBE[1][:, a]).
golden("INTEGER_THEN_ARRAY", CUBE[1][:, np.array([0, 4])])               # [4, 2]
MASK = np.array([True, False, True, True])
golden("MASK_AFTER_SLICE_NEW_AXIS", CUBE[:, MASK, None, 2:4])             # [3, 3, 1, 2]
golden("ELLIPSIS_THEN_ARRAY", CUBE[..., np.array([2, 0])])               # [3, 4, 2]
MASK2 = np.array([[True, False, False, True, False], [False, True, False, False, True],
                  [False, False, False, False, True], [True, True, False, False, False]])
golden("MATRIX_MASK_AFTER_INTEGER", CUBE[2][MASK2])                       # [7]
put = CUBE.copy()
put[np.array([2, 0]), 1:3, np.array([[4], [0]])] = np.array([-1, -2], np.float32)
golden("SET_ARRAY_BROADCAST", put)
put = CUBE.copy()
put[:, MASK, None, 3] = 7
golden("SET_NUMBER_MASK_NEW_AXIS", put)


def check(sources):
    """Every constant the script computes, found once in the sources with exactly its values."""
    text = "\n".join(open(path, encoding="utf-8").read() for path in sources)
    failures = []
    for name, (kind, values) in GOLDENS.items():
        found = re.findall(r"static final %s\[\] %s = \{(.*?)\};" % (kind, name), text, re.S)
        if len(found) != 1:
            failures.append(f"{name}: declared {len(found)} times in {', '.join(sources)}")
            continue
        literals = [item.strip().rstrip("fL") for item in found[0].split(",") if item.strip()]
        expected = values.reshape(-1)
        if kind == "float":
            held = np.array([np.float32(item) for item in literals])
            same = held.shape == expected.shape and (held == expected.astype(np.float32)).all()
        else:
            held = np.array([int(item) for item in literals])
            same = held.shape == expected.shape and (held == expected.astype(np.int64)).all()
        if not same:
            failures.append(f"{name}: the test holds {literals[:6]}..., the script computes "
                            f"{expected.reshape(-1)[:6].tolist()}... (rerun without --check and "
                            "paste)")
    for failure in failures:
        print("djl_op_goldens: " + failure, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"djl_op_goldens: {len(GOLDENS)} constants in {len(sources)} test sources match")


if len(sys.argv) > 1 and sys.argv[1] == "--check":
    check(sys.argv[2:])
else:
    for name, (kind, values) in GOLDENS.items():
        print_constant(name, kind, values)
