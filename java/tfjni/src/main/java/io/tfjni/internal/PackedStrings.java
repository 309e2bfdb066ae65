package io.tfjni.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The elements of a STRING tensor as Java holds them between native calls: every element's bytes
 * one after another in one array, and where each element ends. One native call makes a tensor of
 * it or reads a tensor into it, whatever the number of elements.
 */
public record PackedStrings(byte[] bytes, int[] ends) {
  /** Java arrays stop short of 2 GiB. */
  private static final int MAX_BYTES = Integer.MAX_VALUE - 8;

  /** No elements. */
  public static final PackedStrings EMPTY = new PackedStrings(new byte[0], new int[0]);

  /**
   * The elements' bytes, copied.
   *
   * @throws NullPointerException naming the first null element
   * @throws IllegalArgumentException if they hold 2 GiB or more in total
   */
  public static PackedStrings of(byte[][] values) {
    int[] ends = new int[values.length];
    long total = 0;
    for (int i = 0; i < values.length; i++) {
      total += Objects.requireNonNull(values[i], "values[" + i + "]").length;
      checkTotal(total);
      ends[i] = (int) total;
    }
    byte[] bytes = new byte[(int) total];
    int at = 0;
    for (byte[] value : values) {
      System.arraycopy(value, 0, bytes, at, value.length);
      at += value.length;
    }
    return new PackedStrings(bytes, ends);
  }

  /**
   * The elements encoded as UTF-8.
   *
   * @throws NullPointerException naming the first null element
   * @throws IllegalArgumentException if they hold 2 GiB or more in total
   */
  public static PackedStrings ofUtf8(String[] values) {
    byte[][] encoded = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      encoded[i] = Objects.requireNonNull(values[i], "values[" + i + "]")
          .getBytes(StandardCharsets.UTF_8);
    }
    return of(encoded);
  }

  /**
   * The parts' elements one after another, then {@code emptyAfter} empty strings.
   *
   * @throws IllegalArgumentException if they hold 2 GiB or more in total
   */
  public static PackedStrings concatenate(List<PackedStrings> parts, int emptyAfter) {
    long total = 0;
    int count = emptyAfter;
    for (PackedStrings part : parts) {
      total += part.bytes.length;
      count += part.ends.length;
    }
    checkTotal(total);
    byte[] bytes = new byte[(int) total];
    int[] ends = new int[count];
    int at = 0;
    int element = 0;
    for (PackedStrings part : parts) {
      System.arraycopy(part.bytes, 0, bytes, at, part.bytes.length);
      for (int end : part.ends) {
        ends[element++] = at + end;
      }
      at += part.bytes.length;
    }
    Arrays.fill(ends, element, count, at);  // the empty strings end where they start
    return new PackedStrings(bytes, ends);
  }

  /** Elements {@code from} (inclusive) to {@code to} (exclusive), copied. */
  public PackedStrings slice(int from, int to) {
    int start = from == 0 ? 0 : ends[from - 1];
    int[] sliceEnds = new int[to - from];
    for (int i = 0; i < sliceEnds.length; i++) {
      sliceEnds[i] = ends[from + i] - start;
    }
    int end = to == 0 ? 0 : ends[to - 1];
    return new PackedStrings(Arrays.copyOfRange(bytes, start, end), sliceEnds);
  }

  /** Each element's bytes in an array of its own. */
  public byte[][] toArrays() {
    byte[][] values = new byte[ends.length][];
    int start = 0;
    for (int i = 0; i < ends.length; i++) {
      values[i] = Arrays.copyOfRange(bytes, start, ends[i]);
      start = ends[i];
    }
    return values;
  }

  /** The number of elements. */
  public int count() {
    return ends.length;
  }

  private static void checkTotal(long total) {
    if (total > MAX_BYTES) {
      throw new IllegalArgumentException("strings larger than 2 GiB in total");
    }
  }
}
