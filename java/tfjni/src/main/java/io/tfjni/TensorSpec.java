package io.tfjni;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What a signature input or output (or a graph tensor) looks like: its key, the graph tensor
 * behind it, its data type and shape (-1 for an unknown dimension, null for an unknown rank).
 * Serializable, as a value that plans sent to a cluster's workers hold.
 */
public final class TensorSpec implements Serializable {
  private static final long serialVersionUID = 1;
  /** The signature's key, or the graph tensor's name. */
  private final String key;
  /** The graph tensor, {@code "op:index"}; empty for a non-dense tensor. */
  private final String tensorName;
  /** The data type. */
  private final DataType dataType;
  /** The shape: null for an unknown rank, -1 for an unknown dimension. */
  private final long[] shape;

  /**
   * A spec.
   *
   * @param key the signature's key for the tensor, or the graph tensor's name
   * @param tensorName the graph tensor, {@code "op:index"}; empty for a non-dense tensor
   * @param dataType the tensor's data type
   * @param shape the shape, copied: null for an unknown rank, -1 for an unknown dimension
   */
  public TensorSpec(String key, String tensorName, DataType dataType, long[] shape) {
    this.key = key;
    this.tensorName = tensorName;
    this.dataType = dataType;
    this.shape = shape == null ? null : shape.clone();
  }

  /**
   * The key of the tensor.
   *
   * @return the signature's key for it, or the graph tensor's name
   */
  public String key() {
    return key;
  }

  /**
   * The graph tensor behind it.
   *
   * @return {@code "op:index"}; empty for a non-dense (sparse, composite) tensor
   */
  public String tensorName() {
    return tensorName;
  }

  /**
   * The tensor's data type.
   *
   * @return the type
   */
  public DataType dataType() {
    return dataType;
  }

  /**
   * The tensor's shape.
   *
   * @return the shape with -1 for unknown dimensions (a copy), or null if the rank is unknown
   */
  public long[] shape() {
    return shape == null ? null : shape.clone();
  }

  /**
   * Whether the rank is unknown.
   *
   * @return true if even the number of dimensions is unknown ({@link #shape()} is null)
   */
  public boolean hasUnknownRank() {
    return shape == null;
  }

  /**
   * Whether a tensor of this shape fits the spec: it has the spec's rank and, where the spec
   * knows a dimension, that size (-1 in the spec accepts any size). A spec of unknown rank
   * accepts every shape.
   *
   * @param shape a tensor's full shape
   * @return true if it fits
   */
  public boolean accepts(long[] shape) {
    return this.shape == null || fitsFrom(shape, 0);
  }

  /**
   * Whether the tensor fits the spec, as {@link #accepts(long[])} its shape, read without copying
   * the shape.
   *
   * @param tensor an open tensor
   * @return true if it fits
   * @throws IllegalStateException if the tensor is closed
   */
  public boolean accepts(Tensor tensor) {
    long[] actual = tensor.shapeRef();  // throws for a closed tensor, whatever the spec
    return shape == null || fitsFrom(actual, 0);
  }

  /**
   * Whether one row of a batch fits the spec, read as batch-major: its first dimension is the
   * batch, whatever its size, and the row must have the rest of the spec's dimensions (rank one
   * less, each known size equal, -1 accepting any). A spec of unknown rank accepts every row; a
   * scalar spec, having no batch dimension, accepts none.
   *
   * @param rowShape the shape of one row: a tensor's shape without its leading batch dimension
   * @return true if it fits
   */
  public boolean acceptsRow(long[] rowShape) {
    return shape == null || fitsFrom(rowShape, 1);  // a scalar spec: no length is -1
  }

  /** Whether {@code actual} has exactly the spec's dimensions from {@code first} on. */
  private boolean fitsFrom(long[] actual, int first) {
    if (actual.length != shape.length - first) {
      return false;
    }
    for (int d = first; d < shape.length; d++) {
      if (shape[d] >= 0 && shape[d] != actual[d - first]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TensorSpec other && key.equals(other.key)
        && tensorName.equals(other.tensorName) && dataType == other.dataType
        && Arrays.equals(shape, other.shape);
  }

  @Override
  public int hashCode() {
    return key.hashCode() * 31 + Arrays.hashCode(shape);
  }

  @Override
  public String toString() {
    return key + ": " + dataType + " " + (shape == null ? "<unknown rank>" : Arrays.toString(shape))
        + " (" + tensorName + ")";
  }
}
