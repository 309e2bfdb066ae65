package io.tfjni.spark;

import org.apache.spark.unsafe.Platform;

/** Where a Java primitive array's elements lie, for bulk copies through Spark's Platform. */
final class PrimitiveArrays {
  private PrimitiveArrays() {}

  /** The offset of element 0 of {@code array} (a primitive array), as Platform counts it. */
  static int firstElementOffset(Object array) {
    if (array instanceof float[]) {
      return Platform.FLOAT_ARRAY_OFFSET;
    } else if (array instanceof double[]) {
      return Platform.DOUBLE_ARRAY_OFFSET;
    } else if (array instanceof int[]) {
      return Platform.INT_ARRAY_OFFSET;
    } else if (array instanceof long[]) {
      return Platform.LONG_ARRAY_OFFSET;
    } else if (array instanceof short[]) {
      return Platform.SHORT_ARRAY_OFFSET;
    } else if (array instanceof boolean[]) {
      return Platform.BOOLEAN_ARRAY_OFFSET;
    } else if (array instanceof byte[]) {
      return Platform.BYTE_ARRAY_OFFSET;
    }
    throw new IllegalArgumentException("not a primitive array: " + array.getClass());
  }

  /** Bytes per element of {@code array} (a primitive array). */
  static int elementBytes(Object array) {
    if (array instanceof long[] || array instanceof double[]) {
      return 8;
    } else if (array instanceof int[] || array instanceof float[]) {
      return 4;
    } else if (array instanceof short[]) {
      return 2;
    }
    return 1;
  }
}
