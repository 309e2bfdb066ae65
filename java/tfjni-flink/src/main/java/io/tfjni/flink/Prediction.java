package io.tfjni.flink;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One record's outputs, by output key: each a primitive array of the output's type holding the
 * record's row, flattened ({@code float[]} for FLOAT, {@code long[]} for INT64), or for STRING a
 * {@code byte[][]} of the strings' bytes.
 */
public final class Prediction {
  private final Map<String, Object> rows;

  Prediction(Map<String, Object> rows) {
    this.rows = rows;
  }

  /**
   * The output keys, in the order of the function's outputs.
   *
   * @return the keys
   */
  public List<String> keys() {
    return List.copyOf(rows.keySet());
  }

  /**
   * The record's row of an output: a primitive array, or a {@code byte[][]} for STRING.
   *
   * @param key the output's key
   * @return the row, flattened
   * @throws IllegalArgumentException if no output has that key
   */
  public Object get(String key) {
    Object row = rows.get(key);
    if (row == null) {
      throw new IllegalArgumentException("no output '" + key + "'; the outputs are " + keys());
    }
    return row;
  }

  /**
   * The record's row of a FLOAT output.
   *
   * @param key the output's key
   * @return the row, flattened
   * @throws IllegalArgumentException if no output has that key, or it is of another type
   */
  public float[] floats(String key) {
    return as(key, float[].class);
  }

  /**
   * The record's row of a DOUBLE output.
   *
   * @param key the output's key
   * @return the row, flattened
   * @throws IllegalArgumentException if no output has that key, or it is of another type
   */
  public double[] doubles(String key) {
    return as(key, double[].class);
  }

  /**
   * The record's row of an INT32 output.
   *
   * @param key the output's key
   * @return the row, flattened
   * @throws IllegalArgumentException if no output has that key, or it is of another type
   */
  public int[] ints(String key) {
    return as(key, int[].class);
  }

  /**
   * The record's row of an INT64 output.
   *
   * @param key the output's key
   * @return the row, flattened
   * @throws IllegalArgumentException if no output has that key, or it is of another type
   */
  public long[] longs(String key) {
    return as(key, long[].class);
  }

  /**
   * The record's row of a STRING output, each string's bytes as they are.
   *
   * @param key the output's key
   * @return the row, flattened
   * @throws IllegalArgumentException if no output has that key, or it is of another type
   */
  public byte[][] bytes(String key) {
    return as(key, byte[][].class);
  }

  /**
   * The record's row of a STRING output, each string decoded as UTF-8.
   *
   * @param key the output's key
   * @return the row, flattened
   * @throws IllegalArgumentException if no output has that key, or it is of another type
   */
  public String[] strings(String key) {
    byte[][] bytes = bytes(key);
    String[] strings = new String[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      strings[i] = new String(bytes[i], StandardCharsets.UTF_8);
    }
    return strings;
  }

  private <T> T as(String key, Class<T> type) {
    Object row = get(key);
    if (!type.isInstance(row)) {
      throw new IllegalArgumentException("output '" + key + "' is a "
          + row.getClass().getSimpleName() + ", not a " + type.getSimpleName());
    }
    return type.cast(row);
  }
}
