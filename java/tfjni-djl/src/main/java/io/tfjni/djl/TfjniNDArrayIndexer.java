package io.tfjni.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDArrayIndexer;
import ai.djl.ndarray.index.full.NDIndexFullPick;
import ai.djl.ndarray.index.full.NDIndexFullSlice;
import ai.djl.ndarray.index.full.NDIndexFullTake;
import java.util.stream.IntStream;

/**
 * get/set by DJL's NDIndex: StridedSlice (+ Squeeze), GatherV2 and TensorStridedSliceUpdate. A
 * get's result belongs to the manager the indexer was made for; its temporaries are native only.
 */
final class TfjniNDArrayIndexer extends NDArrayIndexer {
  private final NDManager target;

  TfjniNDArrayIndexer(NDManager target) {
    this.target = target;
  }

  /** pick is take_along_axis, as DJL's gather. */
  @Override
  public NDArray get(NDArray array, NDIndexFullPick fullPick) {
    TfjniNDArray a = (TfjniNDArray) array;
    NDArray indices = fullPick.getIndices();
    int missing = a.getShape().dimension() - indices.getShape().dimension();
    if (missing <= 0) {
      return TfjniNDArray.wrapIn(target, a.takeAlongAxis(indices, fullPick.getAxis()));
    }
    // Indices for the leading axes: trailing axes of size 1 (one pick per row).
    long[] dims = java.util.Arrays.copyOf(indices.getShape().getShape(),
        a.getShape().dimension());
    java.util.Arrays.fill(dims, indices.getShape().dimension(), dims.length, 1);
    try (NDArray expanded = indices.reshape(dims)) {
      return TfjniNDArray.wrapIn(target, a.takeAlongAxis(expanded, fullPick.getAxis()));
    }
  }

  @Override
  public NDArray get(NDArray array, NDIndexFullTake fullTake) {
    TfjniNDArray a = (TfjniNDArray) array;
    NDArray index = fullTake.getIndices();
    try (io.tfjni.NDArray ax = a.tf().scalar(fullTake.getAxis());
        io.tfjni.NDArray cast = a.indexCast(index)) {
      return TfjniNDArray.wrapIn(target, a.op("GatherV2").addInput(a.tfArray())
          .addInput(cast == null ? a.tfOf(index) : cast).addInput(ax).build());
    }
  }

  @Override
  public NDArray get(NDArray array, NDIndexFullSlice fullSlice) {
    TfjniNDArray a = (TfjniNDArray) array;
    int[] toSqueeze = fullSlice.getToSqueeze();
    try (io.tfjni.NDArray begin = a.longVector(fullSlice.getMin());
        io.tfjni.NDArray end = a.longVector(fullSlice.getMax());
        io.tfjni.NDArray strides = a.longVector(fullSlice.getStep());
        io.tfjni.NDArray sliced = a.op("StridedSlice").addInput(a.tfArray()).addInput(begin)
            .addInput(end).addInput(strides).build()) {
      if (toSqueeze == null || toSqueeze.length == 0) {
        return TfjniNDArray.wrapIn(target, a.op("Identity").addInput(sliced).build());
      }
      long[] axes = IntStream.of(toSqueeze).asLongStream().toArray();
      return TfjniNDArray.wrapIn(target, a.op("Squeeze").addInput(sliced)
          .setAttr("squeeze_dims", axes).build());
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
    ai.djl.ndarray.types.Shape shape = fullSlice.getShape();
    if (value.getShape().size() == shape.size()) {
      return value.reshape(shape);
    }
    ai.djl.ndarray.types.Shape squeezed = fullSlice.getSqueezedShape();
    ai.djl.ndarray.types.Shape broadcastTo =
        value.getShape().dimension() <= squeezed.dimension() ? squeezed : shape;
    try (NDArray b = value.broadcast(broadcastTo)) {
      return b.reshape(shape);
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
