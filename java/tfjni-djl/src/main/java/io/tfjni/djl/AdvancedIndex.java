package io.tfjni.djl;

import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.index.dim.NDIndexAll;
import ai.djl.ndarray.index.dim.NDIndexBooleans;
import ai.djl.ndarray.index.dim.NDIndexElement;
import ai.djl.ndarray.index.dim.NDIndexFixed;
import ai.djl.ndarray.index.dim.NDIndexNull;
import ai.djl.ndarray.index.dim.NDIndexSlice;
import ai.djl.ndarray.index.dim.NDIndexTake;
import io.tfjni.DataType;
import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * An {@link NDIndex} with index arrays or new axes, applied as DJL's PyTorch engine applies it
 * (torch's indexing). Integers, slices and new axes ({@code null}) are one strided slice, an
 * integer dropping its axis. The index arrays then select along the axes they stand for: integer
 * arrays (a negative entry counts from the end) and boolean masks (the coordinates of their true
 * entries, a mask of rank k standing for k axes) are broadcast together and gathered as
 * coordinates (gatherNd). Their broadcast shape takes the place of those axes when they are
 * adjacent, else it comes first. {@link #set} writes through the same positions: the index
 * applied to the element numbers of x names the elements that a scatter replaces.
 */
final class AdvancedIndex {
  private final NDManager tf;
  /** Owns the index arrays' coordinates; the caller's scope closes it. */
  private final Temporaries t;
  private final List<long[]> slices = new ArrayList<>();  // {begin, end, stride} per entry
  private long beginMask;
  private long endMask;
  private long shrinkMask;
  private long newAxisMask;
  /** Per index array: its first axis in the sliced array, how many it covers, coordinates. */
  private final List<int[]> arrayAxes = new ArrayList<>();
  private final List<NDArray> coordinates = new ArrayList<>();

  /**
   * The plan of {@code index} over an array of {@code shape}; {@code raw} gives the tfjni array
   * of an index array (owned elsewhere).
   */
  AdvancedIndex(NDManager tf, Temporaries t, long[] shape, NDIndex index,
      Function<ai.djl.ndarray.NDArray, NDArray> raw) {
    this.tf = tf;
    this.t = t;
    int axis = 0;
    for (NDIndexElement element : withEllipsisExpanded(index, shape.length)) {
      if (axis + consumes(element) > shape.length) {
        throw new IllegalArgumentException("too many indices for an array of shape "
            + Arrays.toString(shape) + ": " + index.getIndices().size() + " index elements");
      }
      axis = add(element, raw, shape, axis);
    }
  }

  /** The index's elements with the ellipsis (if any) as full slices of the axes it stands for. */
  private static List<NDIndexElement> withEllipsisExpanded(NDIndex index, int rank) {
    List<NDIndexElement> elements = new ArrayList<>(index.getIndices());
    int ellipsis = index.getEllipsisIndex();
    if (ellipsis >= 0) {
      int consumed = 0;
      for (NDIndexElement element : elements) {
        consumed += consumes(element);
      }
      for (int i = 0; i < rank - consumed; i++) {
        elements.add(ellipsis, new NDIndexAll());
      }
    }
    return elements;
  }

  /** How many axes of the indexed array an element stands for. */
  private static int consumes(NDIndexElement element) {
    if (element instanceof NDIndexNull) {
      return 0;
    }
    if (element instanceof NDIndexBooleans) {
      return ((NDIndexBooleans) element).getIndex().getShape().dimension();
    }
    return 1;
  }

  /** Adds one element at {@code axis} of the indexed array; returns the next axis. */
  private int add(NDIndexElement element, Function<ai.djl.ndarray.NDArray, NDArray> raw,
      long[] shape, int axis) {
    if (element instanceof NDIndexAll) {
      fullSlice();
      return axis + 1;
    }
    if (element instanceof NDIndexSlice) {
      NDIndexSlice slice = (NDIndexSlice) element;
      long step = slice.getStep() == null ? 1 : slice.getStep();
      if (step == 0) {
        throw new IllegalArgumentException("a slice's step must not be 0");
      }
      int bit = slices.size();
      beginMask |= slice.getMin() == null ? 1L << bit : 0;
      endMask |= slice.getMax() == null ? 1L << bit : 0;
      slices.add(new long[] {slice.getMin() == null ? 0 : slice.getMin(),
          slice.getMax() == null ? 0 : slice.getMax(), step});
      return axis + 1;
    }
    if (element instanceof NDIndexFixed) {
      select(((NDIndexFixed) element).getIndex());
      return axis + 1;
    }
    if (element instanceof NDIndexNull) {
      newAxis();
      return axis;
    }
    if (element instanceof NDIndexTake) {
      NDArray index = raw.apply(((NDIndexTake) element).getIndex());
      NDArray wide = Indexing.castTo(t, index, DataType.INT64);
      if (index.shape().length == 0) {
        select(wide.toLongArray()[0]);  // a 0-d integer array is an integer, as in torch
        return axis + 1;
      }
      addArray(1, t.add(t.add(fromTheEnd(wide, shape[axis])).expandDims(-1)));
      fullSlice();
      return axis + 1;
    }
    if (element instanceof NDIndexBooleans) {
      return addMask(raw.apply(((NDIndexBooleans) element).getIndex()), shape, axis);
    }
    throw new UnsupportedOperationException("an index element of type "
        + element.getClass().getSimpleName() + " does not combine with index arrays");
  }

  /** A mask covers as many axes as its rank, which must match them; a 0-d one a new axis. */
  private int addMask(NDArray mask, long[] shape, int axis) {
    long[] maskShape = mask.shape();
    NDArray truth = Indexing.castTo(t, mask, DataType.BOOL);
    if (maskShape.length == 0) {
      addArray(1, t.add(t.add(truth.reshape(1)).where()));
      newAxis();
      return axis;
    }
    long[] covered = Arrays.copyOfRange(shape, axis, axis + maskShape.length);
    if (!Arrays.equals(maskShape, covered)) {
      throw new IllegalArgumentException("the mask's shape " + Arrays.toString(maskShape)
          + " does not match the indexed array's " + Arrays.toString(covered) + " at axis "
          + axis);
    }
    addArray(maskShape.length, t.add(truth.where()));
    for (int i = 0; i < maskShape.length; i++) {
      fullSlice();
    }
    return axis + maskShape.length;
  }

  /** {@code index} with each negative entry counted from the end of an axis of {@code size}. */
  private NDArray fromTheEnd(NDArray index, long size) {
    NDArray negative = t.add(index.lt(0L));
    NDArray shifted = t.add(index.add(size));
    return negative.where(shifted, index);
  }

  /**
   * An index array standing for {@code width} axes from the next axis of the sliced array; its
   * coordinates are INT64 with a last axis of {@code width}.
   */
  private void addArray(int width, NDArray coordinatesOfArray) {
    arrayAxes.add(new int[] {slicedRank(), width});
    coordinates.add(coordinatesOfArray);
  }

  /** The rank of the StridedSlice's result so far. */
  private int slicedRank() {
    return slices.size() - Long.bitCount(shrinkMask);
  }

  private void fullSlice() {
    int bit = slices.size();
    beginMask |= 1L << bit;
    endMask |= 1L << bit;
    slices.add(new long[] {0, 0, 1});
  }

  private void select(long index) {
    shrinkMask |= 1L << slices.size();
    slices.add(new long[] {index, index + 1, 1});
  }

  private void newAxis() {
    newAxisMask |= 1L << slices.size();
    slices.add(new long[] {0, 0, 1});
  }

  /** x indexed: a new array the caller owns. */
  NDArray get(NDArray x) {
    NDArray sliced = slice(x);
    if (coordinates.isEmpty()) {
      return sliced;
    }
    t.add(sliced);
    NDArray front = t.add(sliced.transpose(indexedAxesFirst(sliced.shape().length)));
    NDArray where = combinedCoordinates();
    NDArray gathered = front.gatherNd(where);
    int first = arrayAxes.get(0)[0];
    if (!adjacent() || first == 0) {
      return gathered;
    }
    // Adjacent index arrays: their shape takes the place of the axes they stand for.
    try (NDArray result = gathered) {
      int batch = where.shape().length - 1;
      return result.transpose(batchAt(first, batch, result.shape().length));
    }
  }

  /** The permutation of the sliced array that puts the indexed axes first, in order. */
  private int[] indexedAxesFirst(int rank) {
    int[] perm = new int[rank];
    boolean[] indexed = new boolean[rank];
    int k = 0;
    for (int[] a : arrayAxes) {
      for (int i = 0; i < a[1]; i++) {
        perm[k++] = a[0] + i;
        indexed[a[0] + i] = true;
      }
    }
    for (int a = 0; a < rank; a++) {
      if (!indexed[a]) {
        perm[k++] = a;
      }
    }
    return perm;
  }

  /** The permutation that moves a gather's leading {@code batch} axes to axis {@code first}. */
  private static int[] batchAt(int first, int batch, int rank) {
    int[] perm = new int[rank];
    int j = 0;
    for (int a = 0; a < first; a++) {
      perm[j++] = batch + a;
    }
    for (int a = 0; a < batch; a++) {
      perm[j++] = a;
    }
    for (int a = batch + first; a < rank; a++) {
      perm[j++] = a;
    }
    return perm;
  }

  /**
   * x with the indexed elements replaced by {@code value} (broadcast to the indexed shape, in
   * x's type): a new array the caller owns.
   */
  NDArray set(NDArray x, NDArray value) {
    long[] shape = x.shape();
    long size = 1;
    for (long d : shape) {
      size *= d;
    }
    NDArray numbers = t.add(t.add(tf.arange(DataType.INT64, 0, size, 1)).reshape(shape));
    NDArray targets = t.add(get(numbers));
    long[] targetShape = targets.shape();
    NDArray typed = Indexing.castTo(t, value, x.dataType());
    NDArray fitted = t.add(t.add(withoutLeadingOnes(typed, targetShape.length))
        .broadcastTo(targetShape));
    NDArray flat = t.add(x.reshape(-1));
    NDArray updated = t.add(flat.tensorScatterUpdate(t.add(targets.reshape(-1, 1)),
        t.add(fitted.reshape(-1))));
    return updated.reshape(shape);
  }

  /** A value of higher rank than the target loses leading axes of size 1, as torch allows. */
  private NDArray withoutLeadingOnes(NDArray value, int rank) {
    long[] dims = value.shape();
    int drop = 0;
    while (dims.length - drop > rank && dims[drop] == 1) {
      drop++;
    }
    return value.reshape(Arrays.copyOfRange(dims, drop, dims.length));
  }

  private NDArray slice(NDArray x) {
    int n = slices.size();
    long[][] columns = new long[3][n];
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < 3; c++) {
        columns[c][i] = slices.get(i)[c];
      }
    }
    return x.stridedSlice(columns[0], columns[1], columns[2], beginMask, endMask, shrinkMask,
        newAxisMask);
  }

  private boolean adjacent() {
    for (int i = 1; i < arrayAxes.size(); i++) {
      int[] previous = arrayAxes.get(i - 1);
      if (arrayAxes.get(i)[0] != previous[0] + previous[1]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every index array's coordinates broadcast to one shape B and concatenated: [B..., axes].
   */
  private NDArray combinedCoordinates() {
    List<long[]> batchShapes = new ArrayList<>();
    for (NDArray c : coordinates) {
      long[] s = c.shape();
      batchShapes.add(Arrays.copyOf(s, s.length - 1));
    }
    long[] batch = broadcastShape(batchShapes);
    if (coordinates.size() == 1) {
      return coordinates.get(0);
    }
    NDArray[] parts = new NDArray[coordinates.size()];
    for (int i = 0; i < parts.length; i++) {
      long[] target = Arrays.copyOf(batch, batch.length + 1);
      target[batch.length] = arrayAxes.get(i)[1];
      parts[i] = t.add(coordinates.get(i).broadcastTo(target));
    }
    return t.add(parts[0].concat(-1, Arrays.copyOfRange(parts, 1, parts.length)));
  }

  /** numpy's broadcast of the index arrays' shapes. */
  private static long[] broadcastShape(List<long[]> shapes) {
    int rank = 0;
    for (long[] s : shapes) {
      rank = Math.max(rank, s.length);
    }
    long[] out = new long[rank];
    Arrays.fill(out, 1);
    for (long[] s : shapes) {
      for (int i = 0; i < s.length; i++) {
        int o = rank - s.length + i;
        if (s[i] != out[o] && s[i] != 1 && out[o] != 1) {
          throw new IllegalArgumentException("index arrays of shapes "
              + shapesText(shapes) + " cannot be broadcast together");
        }
        if (s[i] != 1) {
          out[o] = s[i];
        }
      }
    }
    return out;
  }

  private static String shapesText(List<long[]> shapes) {
    List<String> texts = new ArrayList<>();
    for (long[] s : shapes) {
      texts.add(Arrays.toString(s));
    }
    return String.join(", ", texts);
  }
}
