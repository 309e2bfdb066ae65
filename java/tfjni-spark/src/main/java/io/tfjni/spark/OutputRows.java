package io.tfjni.spark;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import java.lang.reflect.Array;
import java.util.Arrays;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * An output tensor of shape [batchRows, ...] as one value per row in Spark's internal form, for
 * its first rows (the rest padding): a scalar, or arrays nested once per dimension (the innermost
 * one a primitive array copied in bulk), of the types {@link SparkTypes} gives the column. The
 * tensor is read into one Java array, then sliced.
 */
final class OutputRows {
  private OutputRows() {}

  /** The values of the first {@code rows} of the {@code batchRows} the batch ran as. */
  static Object[] of(Tensor tensor, int batchRows, int rows, boolean stringsAsBinary) {
    long[] shape = tensor.shape();
    if (shape.length == 0 || shape[0] != batchRows) {
      throw new IllegalStateException("the model returned shape "
          + java.util.Arrays.toString(shape) + " for a batch of " + batchRows + " rows");
    }
    Object flat = elements(tensor, stringsAsBinary);
    int perRow = batchRows == 0 ? 0 : Array.getLength(flat) / batchRows;
    Object[] values = new Object[rows];
    for (int r = 0; r < rows; r++) {
      values[r] = shape.length == 1 ? Array.get(flat, r) : nest(flat, r * perRow, shape, 1);
    }
    return values;
  }

  /** Dimensions {@code dim..} of {@code shape} from {@code flat[offset]} on, as nested arrays. */
  private static Object nest(Object flat, int offset, long[] shape, int dim) {
    int length = (int) shape[dim];
    if (dim == shape.length - 1) {
      if (flat instanceof Object[] objects) {  // strings
        return new GenericArrayData(Arrays.copyOfRange(objects, offset, offset + length));
      }
      int bytes = PrimitiveArrays.elementBytes(flat);
      return UnsafeArrayData.fromPrimitiveArray(flat, PrimitiveArrays.firstElementOffset(flat)
          + offset * bytes, length, bytes);
    }
    int stride = 1;
    for (int d = dim + 1; d < shape.length; d++) {
      stride *= (int) shape[d];
    }
    Object[] nested = new Object[length];
    for (int i = 0; i < length; i++) {
      nested[i] = nest(flat, offset + i * stride, shape, dim + 1);
    }
    return new GenericArrayData(nested);
  }

  /** All elements, in the Java type of the column's elements (unsigned ones widened). */
  private static Object elements(Tensor tensor, boolean stringsAsBinary) {
    DataType type = tensor.dataType();
    switch (type) {
      case FLOAT:
        return tensor.toFloatArray();
      case DOUBLE:
        return tensor.toDoubleArray();
      case INT8:
        return tensor.toByteArray();
      case INT16:
        return tensor.toShortArray();
      case INT32:
        return tensor.toIntArray();
      case INT64:
        return tensor.toLongArray();
      case BOOL:
        return tensor.toBooleanArray();
      case UINT8: {
        byte[] raw = tensor.toByteArray();
        int[] widened = new int[raw.length];
        for (int i = 0; i < raw.length; i++) {
          widened[i] = raw[i] & 0xff;
        }
        return widened;
      }
      case UINT16: {
        short[] raw = tensor.toShortArray();
        int[] widened = new int[raw.length];
        for (int i = 0; i < raw.length; i++) {
          widened[i] = raw[i] & 0xffff;
        }
        return widened;
      }
      case UINT32: {
        int[] raw = tensor.toIntArray();
        long[] widened = new long[raw.length];
        for (int i = 0; i < raw.length; i++) {
          widened[i] = raw[i] & 0xFFFF_FFFFL;
        }
        return widened;
      }
      case STRING: {
        byte[][] raw = tensor.toBytesArray();
        if (stringsAsBinary) {
          return raw;
        }
        UTF8String[] text = new UTF8String[raw.length];
        for (int i = 0; i < raw.length; i++) {
          text[i] = UTF8String.fromBytes(raw[i]);
        }
        return text;
      }
      default:
        throw new IllegalStateException(type + " outputs are refused when the plan is built");
    }
  }
}
