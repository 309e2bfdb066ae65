package io.tfjni.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDArrayIndexer;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.index.dim.NDIndexAll;
import ai.djl.ndarray.index.dim.NDIndexBooleans;
import ai.djl.ndarray.index.dim.NDIndexElement;
import ai.djl.ndarray.index.dim.NDIndexNull;
import ai.djl.ndarray.index.dim.NDIndexPick;
import ai.djl.ndarray.index.dim.NDIndexTake;
import ai.djl.ndarray.index.full.NDIndexFullPick;
import ai.djl.ndarray.index.full.NDIndexFullSlice;
import ai.djl.ndarray.index.full.NDIndexFullTake;
import ai.djl.ndarray.types.Shape;
import java.util.List;

/**
 * get/set by DJL's NDIndex. DJL's own routing takes slices and integers (strided slices and
 * their updates), one boolean mask, one rank-1 index array among full slices (a gather) and
 * pick; every other index with arrays or new axes is an {@link AdvancedIndex}, as
 * in DJL's PyTorch engine. A get's result belongs to the manager the indexer was made for; its
 * temporaries are native only.
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
    return TfjniNDArray.wrapIn(target, Indexing.pick(a.tfArray(),
        a.tfOf(fullPick.getIndices()), fullPick.getAxis()));
  }

  @Override
  public NDArray get(NDArray array, NDIndexFullTake fullTake) {
    TfjniNDArray a = (TfjniNDArray) array;
    return TfjniNDArray.wrapIn(target, Indexing.take(a.tfArray(),
        a.tfOf(fullTake.getIndices()), fullTake.getAxis()));
  }

  @Override
  public NDArray get(NDArray array, NDIndexFullSlice fullSlice) {
    TfjniNDArray a = (TfjniNDArray) array;
    return TfjniNDArray.wrapIn(target, Indexing.stridedSlice(a.tfArray(),
        fullSlice.getMin(), fullSlice.getMax(), fullSlice.getStep(), fullSlice.getToSqueeze()));
  }

  @Override
  public NDArray get(NDArray array, NDIndex index) {
    if (!isAdvanced(index, true)) {
      return super.get(array, index);
    }
    TfjniNDArray a = (TfjniNDArray) array;
    try (Temporaries t = new Temporaries()) {
      AdvancedIndex advanced = new AdvancedIndex(a.tf(), t, a.getShape().getShape(), index,
          a::tfOf);
      return TfjniNDArray.wrapIn(target, advanced.get(a.tfArray()));
    }
  }

  @Override
  public void set(NDArray array, NDIndex index, Object value) {
    if (!isAdvanced(index, false)) {
      super.set(array, index, value);
      return;
    }
    TfjniNDArray a = (TfjniNDArray) array;
    try (Temporaries t = new Temporaries()) {
      io.tfjni.eager.NDArray raw;
      if (value instanceof Number) {
        raw = t.add(a.scalar((Number) value));
      } else if (value instanceof NDArray) {
        raw = a.tfOf((NDArray) value);
      } else {
        throw new IllegalArgumentException("a value to set is an NDArray or a Number, got "
            + (value == null ? "null" : value.getClass().getName()));
      }
      AdvancedIndex advanced = new AdvancedIndex(a.tf(), t, a.getShape().getShape(), index,
          a::tfOf);
      a.intern(a.wrap(advanced.set(a.tfArray(), raw)));
    }
  }

  /**
   * Whether {@code index} needs {@link AdvancedIndex}: it has index arrays or new axes that DJL's
   * routing does not take (one boolean mask alone; for a get, one rank-1 index array among full
   * slices), or an ellipsis before them, which that routing does not count.
   */
  private static boolean isAdvanced(NDIndex index, boolean forGet) {
    List<NDIndexElement> elements = index.getIndices();
    int arrays = 0;
    boolean onlyFullSlices = true;
    NDIndexTake take = null;
    for (NDIndexElement element : elements) {
      if (element instanceof NDIndexPick) {
        return false;
      }
      if (element instanceof NDIndexTake || element instanceof NDIndexBooleans
          || element instanceof NDIndexNull) {
        arrays++;
        take = element instanceof NDIndexTake ? (NDIndexTake) element : null;
      } else if (!(element instanceof NDIndexAll)) {
        onlyFullSlices = false;
      }
    }
    if (arrays == 0) {
      return false;
    }
    int ellipsis = index.getEllipsisIndex();
    if (ellipsis >= 0 && ellipsis < elements.size()) {
      return true;
    }
    if (elements.size() == 1 && elements.get(0) instanceof NDIndexBooleans) {
      return false;
    }
    return !(forGet && arrays == 1 && take != null && onlyFullSlices
        && take.getIndex().getShape().isRankOne());
  }

  @Override
  public void set(NDArray array, NDIndexFullSlice fullSlice, NDArray value) {
    TfjniNDArray a = (TfjniNDArray) array;
    try (Temporaries t = new Temporaries()) {
      update(a, fullSlice, fit(t, a.tfOf(value), fullSlice));
    }
  }

  /** The value in the slice's (unsqueezed) shape: reshaped if it has its size, else broadcast. */
  private static io.tfjni.eager.NDArray fit(Temporaries t, io.tfjni.eager.NDArray value,
      NDIndexFullSlice fullSlice) {
    long[] shape = fullSlice.getShape().getShape();
    if (value.size() == fullSlice.getShape().size()) {
      return t.add(value.reshape(shape));
    }
    Shape squeezed = fullSlice.getSqueezedShape();
    long[] broadcastTo = value.shape().length <= squeezed.dimension() ? squeezed.getShape()
        : shape;
    return t.add(t.add(value.broadcastTo(broadcastTo)).reshape(shape));
  }

  private static void update(TfjniNDArray a, NDIndexFullSlice fullSlice,
      io.tfjni.eager.NDArray value) {
    a.intern(a.wrap(Indexing.updateStridedSlice(a.tfArray(), fullSlice.getMin(),
        fullSlice.getMax(), fullSlice.getStep(), value)));
  }

  @Override
  public void set(NDArray array, NDIndexFullSlice fullSlice, Number value) {
    TfjniNDArray a = (TfjniNDArray) array;
    try (io.tfjni.eager.NDArray filled = a.tf().full(a.tfType(), value,
        fullSlice.getShape().getShape())) {
      update(a, fullSlice, filled);
    }
  }
}
