package io.tfjni;

import java.util.Arrays;

/**
 * What a signature input or output (or a graph tensor) looks like: its key, the graph tensor
 * behind it, its data type and shape (-1 for an unknown dimension, null for an unknown rank).
 */
public final class TensorSpec {
  private final String key;
  private final String tensorName;
  private final DataType dataType;
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
