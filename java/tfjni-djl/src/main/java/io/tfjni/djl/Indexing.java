package io.tfjni.djl;

import io.tfjni.DataType;
import io.tfjni.eager.NDArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * DJL's indexing operations over TensorFlow's gathers and scatters: torch.gather (take along an
 * axis), pick, take, gatherNd, put, torch.scatter, booleanMask and the strided slices behind
 * get/set by slices. Inputs are borrowed; each result is a new array the caller owns.
 */
final class Indexing {
  private Indexing() {}

  /** {@code index} as TensorFlow's gathers take it: INT32 and INT64 kept, else cast to INT64. */
  static NDArray asIndices(Temporaries t, NDArray index) {
    DataType type = index.dataType();
    return type == DataType.INT32 || type == DataType.INT64 ? index
        : t.add(index.cast(DataType.INT64));
  }

  /**
   * torch.gather: {@code out[i][j][k] = x[i][index[i][j][k]][k]} for axis 1, the index of x's
   * rank and no larger in the other axes. x is cut to the index's extent in the other axes, the
   * axis swapped last, and gathered with every leading axis a batch axis.
   */
  static NDArray takeAlongAxis(NDArray x, NDArray index, int axis) {
    long[] dims = x.shape();
    long[] indexDims = index.shape();
    int r = dims.length;
    if (indexDims.length != r) {
      throw new IllegalArgumentException("gather: the index must have rank " + r + ", got "
          + Arrays.toString(indexDims));
    }
    long[] size = dims.clone();
    for (int d = 0; d < r; d++) {
      if (d != axis) {
        if (indexDims[d] > dims[d]) {
          throw new IllegalArgumentException("gather: index " + Arrays.toString(indexDims)
              + " is larger than " + Arrays.toString(dims) + " in axis " + d);
        }
        size[d] = indexDims[d];
      }
    }
    int[] perm = Axes.swapWithLast(r, axis);
    try (Temporaries t = new Temporaries()) {
      NDArray moved = t.add(t.add(x.slice(new long[r], size)).transpose(perm));
      NDArray idx = t.add(asIndices(t, index).transpose(perm));
      return t.add(moved.gather(idx, r - 1, r - 1)).transpose(perm);
    }
  }

  /**
   * DJL's pick: {@link #takeAlongAxis}, an index of lower rank than x covering its leading axes
   * (one pick per row: trailing axes of size 1).
   */
  static NDArray pick(NDArray x, NDArray index, int axis) {
    int r = x.shape().length;
    long[] indexDims = index.shape();
    if (indexDims.length >= r) {
      return takeAlongAxis(x, index, axis);
    }
    long[] dims = Arrays.copyOf(indexDims, r);
    Arrays.fill(dims, indexDims.length, r, 1);
    try (NDArray expanded = index.reshape(dims)) {
      return takeAlongAxis(x, expanded, axis);
    }
  }

  /** Whole slices of x at {@code index} along {@code axis} (numpy.take with an axis). */
  static NDArray take(NDArray x, NDArray index, int axis) {
    try (Temporaries t = new Temporaries()) {
      return x.gather(asIndices(t, index), axis);
    }
  }

  /** numpy.take without an axis: indices into the flattened x; the result has their shape. */
  static NDArray takeFlat(NDArray x, NDArray index) {
    try (NDArray flat = x.reshape(-1)) {
      return take(flat, index, 0);
    }
  }

  /**
   * DJL's gatherNd (MXNet's gather_nd): the index's first axis holds the coordinates, where
   * tf.gather_nd wants them in the last; the index is transposed accordingly.
   */
  static NDArray gatherNd(NDArray x, NDArray index) {
    int r = index.shape().length;
    int[] perm = new int[r];
    for (int i = 0; i < r; i++) {
      perm[i] = (i + 1) % r;
    }
    try (Temporaries t = new Temporaries()) {
      NDArray coordinates = t.add(asIndices(t, index).transpose(perm));
      return x.gatherNd(coordinates);
    }
  }

  /** torch.put: {@code data} written at flat indices of x (as x's type); x's shape kept. */
  static NDArray put(NDArray x, NDArray index, NDArray data) {
    try (Temporaries t = new Temporaries()) {
      NDArray flat = t.add(x.reshape(-1));
      NDArray positions = t.add(castTo(t, index, DataType.INT64).reshape(-1, 1));
      NDArray values = t.add(castTo(t, data, x.dataType()).reshape(-1));
      return t.add(flat.tensorScatterUpdate(positions, values)).reshape(x.shape());
    }
  }

  /**
   * torch.scatter: {@code x[p with p[axis] = index[p]] = data[p]} for each position p of index
   * (index and data of x's rank; data at least the index's size, x too except along the axis).
   */
  static NDArray scatter(NDArray x, NDArray index, NDArray data, int axis) {
    long[] is = index.shape();
    long[] ds = data.shape();
    long[] xs = x.shape();
    int r = xs.length;
    long n = 1;
    for (long d : is) {
      n *= d;
    }
    if (n == 0) {
      return x.cast(x.dataType());
    }
    if (is.length != r || ds.length != r) {
      throw new IllegalArgumentException("scatter needs index and data of this array's rank "
          + r + ", got " + Arrays.toString(is) + " and " + Arrays.toString(ds));
    }
    for (int d = 0; d < r; d++) {
      if (is[d] > ds[d] || (d != axis && is[d] > xs[d])) {
        throw new IllegalArgumentException("scatter: index " + Arrays.toString(is)
            + " exceeds data " + Arrays.toString(ds) + " or this array " + Arrays.toString(xs)
            + " on axis " + d);
      }
    }
    int count = Math.toIntExact(n);
    try (Temporaries t = new Temporaries()) {
      // One coordinate row per index position: the index's value on the axis, else its own.
      List<NDArray> columns = new ArrayList<>();
      long stride = count;
      for (int d = 0; d < r; d++) {
        stride /= is[d];
        if (d == axis) {
          columns.add(castTo(t, t.add(index.reshape(-1)), DataType.INT64));
        } else {
          long[] coordinate = new long[count];
          for (int p = 0; p < count; p++) {
            coordinate[p] = (p / stride) % is[d];
          }
          columns.add(t.add(x.getManager().create(coordinate, count)));
        }
      }
      NDArray coordinates = t.add(columns.get(0).stack(1,
          columns.subList(1, r).toArray(new NDArray[0])));
      NDArray cut = t.add(data.slice(new long[r], is));
      NDArray values = t.add(castTo(t, cut, x.dataType()).reshape(-1));
      return x.tensorScatterUpdate(coordinates, values);
    }
  }

  /**
   * The entries of x where {@code mask} is true: the mask covers axes [axis, axis + its rank),
   * which become one axis (as tf.boolean_mask with an axis); a scalar mask covers a new axis.
   */
  static NDArray booleanMask(NDArray x, NDArray mask, int axis) {
    long[] shape = x.shape();
    long[] maskShape = mask.shape();
    try (Temporaries t = new Temporaries()) {
      if (maskShape.length == 0) {
        return booleanMask(t.add(x.expandDims(0)), t.add(mask.reshape(1)), axis);
      }
      int start = axis < 0 ? axis + shape.length : axis;
      int maskRank = maskShape.length;
      if (start < 0 || start + maskRank > shape.length) {
        throw new IllegalArgumentException("booleanMask: a rank " + maskRank + " mask at axis "
            + axis + " does not fit shape " + Arrays.toString(shape));
      }
      NDArray truth = castTo(t, t.add(mask.reshape(-1)), DataType.BOOL);
      long[] flat = new long[shape.length - maskRank + 1];
      System.arraycopy(shape, 0, flat, 0, start);
      flat[start] = -1;
      System.arraycopy(shape, start + maskRank, flat, start + 1, shape.length - start - maskRank);
      NDArray positions = t.add(t.add(truth.where()).reshape(-1));
      return take(t.add(x.reshape(flat)), positions, start);
    }
  }

  /** x[begin:end:strides] per axis, the {@code squeezed} axes dropped. */
  static NDArray stridedSlice(NDArray x, long[] begin, long[] end, long[] strides,
      int[] squeezed) {
    NDArray sliced = x.stridedSlice(begin, end, strides);
    if (squeezed == null || squeezed.length == 0) {
      return sliced;
    }
    try (NDArray unsqueezed = sliced) {
      return unsqueezed.squeeze(squeezed);
    }
  }

  /** x with x[begin:end:strides] replaced by {@code value} (its shape, x's type). */
  static NDArray updateStridedSlice(NDArray x, long[] begin, long[] end, long[] strides,
      NDArray value) {
    try (Temporaries t = new Temporaries()) {
      return x.stridedSliceUpdate(begin, end, strides, castTo(t, value, x.dataType()));
    }
  }

  /** {@code a} in {@code type}: itself, or a cast registered with {@code t}. */
  static NDArray castTo(Temporaries t, NDArray a, DataType type) {
    return a.dataType() == type ? a : t.add(a.cast(type));
  }
}
