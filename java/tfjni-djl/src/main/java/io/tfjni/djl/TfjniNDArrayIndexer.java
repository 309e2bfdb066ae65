package io.tfjni.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.index.NDArrayIndexer;
import ai.djl.ndarray.index.full.NDIndexFullPick;
import ai.djl.ndarray.index.full.NDIndexFullSlice;
import ai.djl.ndarray.index.full.NDIndexFullTake;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.util.stream.IntStream;

/** get/set by DJL's NDIndex: StridedSlice, TensorStridedSliceUpdate and GatherV2. */
final class TfjniNDArrayIndexer extends NDArrayIndexer {

  @Override
  public NDArray get(NDArray array, NDIndexFullPick fullPick) {
    // take_along_axis: move the axis last, gather with every leading axis a batch axis.
    TfjniNDArray a = (TfjniNDArray) array;
    int rank = a.getShape().dimension();
    int axis = fullPick.getAxis() < 0 ? fullPick.getAxis() + rank : fullPick.getAxis();
    int[] perm = IntStream.range(0, rank).toArray();
    perm[axis] = rank - 1;
    perm[rank - 1] = axis;
    NDArray indices = fullPick.getIndices();
    if (indices.getShape().dimension() != rank) {
      throw new UnsupportedOperationException("pick: indices of rank " + rank + " only");
    }
    try (NDArray at = a.transpose(perm); NDArray it = indices.transpose(perm);
        NDArray it64 = it.toType(DataType.INT64, false);
        io.tfjni.NDArray ax = a.tf().scalar(rank - 1)) {
      TfjniNDArray t = (TfjniNDArray) at;
      try (NDArray picked = t.wrap(t.op("GatherV2").addInput(t.tfArray())
          .addInput(t.tfOf(it64)).addInput(ax).setAttr("batch_dims", rank - 1).build())) {
        return picked.transpose(perm);
      }
    }
  }

  @Override
  public NDArray get(NDArray array, NDIndexFullTake fullTake) {
    return array.gather(fullTake.getIndices(), fullTake.getAxis());
  }

  @Override
  public NDArray get(NDArray array, NDIndexFullSlice fullSlice) {
    TfjniNDArray a = (TfjniNDArray) array;
    try (io.tfjni.NDArray begin = a.longVector(fullSlice.getMin());
        io.tfjni.NDArray end = a.longVector(fullSlice.getMax());
        io.tfjni.NDArray strides = a.longVector(fullSlice.getStep());
        NDArray sliced = a.wrap(a.op("StridedSlice").addInput(a.tfArray()).addInput(begin)
            .addInput(end).addInput(strides).build())) {
      return sliced.reshape(fullSlice.getSqueezedShape());
    }
  }

  @Override
  public void set(NDArray array, NDIndexFullSlice fullSlice, NDArray value) {
    TfjniNDArray a = (TfjniNDArray) array;
    try (NDArray typed = value.toType(a.getDataType(), true);
        NDArray fitted = fit(typed, fullSlice)) {
      update(a, fullSlice, fitted);
    }
  }

  /** The value in the slice's (unsqueezed) shape: reshaped if it has its size, else broadcast. */
  private static NDArray fit(NDArray value, NDIndexFullSlice fullSlice) {
    Shape target = fullSlice.getShape();
    if (value.getShape().size() == target.size()) {
      return value.reshape(target);
    }
    Shape squeezed = fullSlice.getSqueezedShape();
    Shape broadcastTo = value.getShape().dimension() <= squeezed.dimension() ? squeezed : target;
    try (NDArray b = value.broadcast(broadcastTo)) {
      return b.reshape(target);
    }
  }

  private static void update(TfjniNDArray a, NDIndexFullSlice fullSlice, NDArray value) {
    try (io.tfjni.NDArray begin = a.longVector(fullSlice.getMin());
        io.tfjni.NDArray end = a.longVector(fullSlice.getMax());
        io.tfjni.NDArray strides = a.longVector(fullSlice.getStep())) {
      NDArray updated = a.wrap(a.op("TensorStridedSliceUpdate").addInput(a.tfArray())
          .addInput(begin).addInput(end).addInput(strides).addInput(a.tfOf(value)).build());
      a.intern(updated);
    }
  }

  @Override
  public void set(NDArray array, NDIndexFullSlice fullSlice, Number value) {
    TfjniNDArray a = (TfjniNDArray) array;
    try (NDArray filled = a.wrap(a.tf().full(a.tfType(), value,
        fullSlice.getShape().getShape()))) {
      update(a, fullSlice, filled);
    }
  }
}
