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

  /** A spec; {@code shape} is copied (null: unknown rank, -1: an unknown dimension). */
  public TensorSpec(String key, String tensorName, DataType dataType, long[] shape) {
    this.key = key;
    this.tensorName = tensorName;
    this.dataType = dataType;
    this.shape = shape == null ? null : shape.clone();
  }

  public String key() {
    return key;
  }

  /** The graph tensor, "op:index"; empty for a non-dense (sparse, composite) tensor. */
  public String tensorName() {
    return tensorName;
  }

  public DataType dataType() {
    return dataType;
  }

  /** The shape with -1 for unknown dimensions (a copy), or null if the rank is unknown. */
  public long[] shape() {
    return shape == null ? null : shape.clone();
  }

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
