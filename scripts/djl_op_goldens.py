"""Expected values for tfjni-djl's FourierTest and UniqueScatterTest, computed with TensorFlow
Python (numpy where DJL's meaning is numpy's/torch's and TensorFlow has no single op: the sorted
order of unique, scatter's positions, stft's reflect padding). Prints Java array literals that
the tests hold; rerun after changing an input and paste the output.

  ~/.cache/tfjni/venv-2.18.0/bin/python scripts/djl_op_goldens.py
"""
import numpy as np
import tensorflow as tf


def java(name, values, kind="float"):
    """A Java constant, wrapped at 100 columns; floats in their shortest float32 spelling."""
    flat = np.asarray(values).reshape(-1)
    if kind == "float":
        items = [str(np.float32(v)) + "f" for v in flat]
    else:
        items = [str(int(v)) + "L" for v in flat]
    print(f"  /** shape {list(np.asarray(values).shape)} */")
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


def fft_along(x, n, axis, inverse=False):
    """torch.fft.fft/ifft: crop or zero-pad the axis to n, then TensorFlow's FFT on it."""
    x = np.moveaxis(np.asarray(x, np.complex64), axis, -1)
    if x.shape[-1] >= n:
        x = x[..., :n]
    else:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - x.shape[-1])])
    y = (tf.signal.ifft if inverse else tf.signal.fft)(tf.constant(x)).numpy()
    return np.moveaxis(y, -1, axis)


SIGNAL = np.array([[1.0, -2.0, 3.5, 0.25], [4.0, 0.5, -1.0, 2.0], [0.0, 3.0, 1.5, -0.5]],
                  np.float32)
java("SIGNAL", SIGNAL)
java("FFT_AXIS0_PADDED_TO_5", as_real(fft_along(SIGNAL, 5, 0)))
java("FFT_LAST_CROPPED_TO_3", as_real(fft_along(SIGNAL, 3, 1)))
java("IFFT_LAST_6", as_real(fft_along(SIGNAL, 6, 1, inverse=True)))
java("RFFT_AXIS0_4", as_real(np.moveaxis(
    tf.signal.rfft(tf.constant(np.moveaxis(SIGNAL, 0, -1)), fft_length=[4]).numpy(), -1, 0)))
spectrum = tf.signal.rfft(tf.constant(SIGNAL), fft_length=[4])
java("IRFFT_OF_RFFT_LAST_4", tf.signal.irfft(spectrum, fft_length=[4]).numpy())
java("IRFFT_OF_RFFT_LAST_5", tf.signal.irfft(spectrum, fft_length=[5]).numpy())
java("FFT2_PADDED_4x6", as_real(fft_along(fft_along(SIGNAL, 4, 0), 6, 1)))
java("CONJ_OF_FFT_LAST_4", as_real(np.conj(fft_along(SIGNAL, 4, 1))))

# torch.stft(audio, n_fft=8, hop_length=3, center=True (reflect), window=hann(8), normalized)
AUDIO = np.array([[np.sin(0.7 * i) + 0.1 * i for i in range(12)],
                  [np.cos(0.3 * i) * (i % 3) for i in range(12)]], np.float32)
java("AUDIO", AUDIO)
n_fft, hop = 8, 3
window = np.array([0.5 * (1 - np.cos(2 * np.pi * i / n_fft)) for i in range(n_fft)], np.float32)
padded = np.pad(AUDIO, [(0, 0), (n_fft // 2, n_fft // 2)], mode="reflect")
frames = tf.signal.stft(tf.constant(padded), frame_length=n_fft, frame_step=hop, fft_length=n_fft,
                        window_fn=lambda n, dtype: tf.constant(window)).numpy()
frames = frames / np.sqrt(n_fft)
java("STFT_CENTERED_NORMALIZED", as_real(np.swapaxes(frames, -1, -2)))
plain = tf.signal.stft(tf.constant(AUDIO), frame_length=n_fft, frame_step=hop, fft_length=n_fft,
                       window_fn=None).numpy()
java("STFT_PLAIN_NO_WINDOW", as_real(np.swapaxes(plain, -1, -2)))

# unique: TensorFlow's UniqueWithCounts finds them; numpy gives torch's sorted order.
VALUES = np.array([[5, 1, 5, 2], [2, 7, 1, 5]], np.float32)
java("VALUES", VALUES)
y, idx, counts = tf.unique_with_counts(tf.reshape(VALUES, [-1]))
order = np.argsort(y.numpy(), kind="stable")
rank = np.argsort(order)
java("UNIQUE_SORTED", y.numpy()[order])
java("UNIQUE_SORTED_INVERSE", rank[idx.numpy()].reshape(VALUES.shape), "long")
java("UNIQUE_SORTED_COUNTS", counts.numpy()[order], "long")
java("UNIQUE_FIRST_SEEN", y.numpy())
ROWS = np.array([[2, 0, 1], [1, 9, 9], [2, 0, 1], [1, 9, 3], [0, 5, 5], [1, 9, 9]], np.float32)
java("ROWS", ROWS)
uy, uidx, ucount = tf.raw_ops.UniqueWithCountsV2(x=ROWS, axis=[0], out_idx=tf.int64)
order = sorted(range(uy.shape[0]), key=lambda i: tuple(uy.numpy()[i]))
rank = np.argsort(order)
java("UNIQUE_ROWS", uy.numpy()[order])
java("UNIQUE_ROWS_INVERSE", rank[uidx.numpy()], "long")
java("UNIQUE_ROWS_COUNTS", ucount.numpy()[order], "long")
np_rows, np_inv, np_counts = np.unique(ROWS, axis=0, return_inverse=True, return_counts=True)
assert (np_rows == uy.numpy()[order]).all() and (np_inv.reshape(-1) == rank[uidx.numpy()]).all()
# unique columns (axis 1) of ROWS.T
cy, cidx, ccount = tf.raw_ops.UniqueWithCountsV2(x=ROWS.T, axis=[1], out_idx=tf.int64)
corder = sorted(range(cy.shape[1]), key=lambda i: tuple(cy.numpy()[:, i]))
java("UNIQUE_COLUMNS", cy.numpy()[:, corder])
java("UNIQUE_COLUMNS_INVERSE", np.argsort(corder)[cidx.numpy()], "long")

# scatter (torch.scatter): this[p with p[axis] = index[p]] = data[p], through TensorScatterUpdate
BASE = np.arange(20, dtype=np.float32).reshape(4, 5) * -1
DATA = np.arange(100, 112, dtype=np.float32).reshape(3, 4)
INDEX1 = np.array([[4, 0, 2], [1, 3, 0]])  # axis 1, index shape (2, 3)
coords = [[i, INDEX1[i, j]] for i in range(2) for j in range(3)]
updates = [DATA[i, j] for i in range(2) for j in range(3)]
java("SCATTER_AXIS1", tf.tensor_scatter_nd_update(BASE, coords, updates).numpy())
INDEX0 = np.array([[3, 0], [1, 2]])  # axis 0, index shape (2, 2)
coords = [[INDEX0[i, j], j] for i in range(2) for j in range(2)]
updates = [DATA[i, j] for i in range(2) for j in range(2)]
java("SCATTER_AXIS0", tf.tensor_scatter_nd_update(BASE, coords, updates).numpy())
