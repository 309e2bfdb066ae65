package io.tfjni.djl;

import ai.djl.ndarray.types.DataType;

/**
 * DJL's data types to tfjni's (TensorFlow's) and back. DJL has no type for TensorFlow's
 * quantized, float8, float4, 4-bit and 2-bit integer, COMPLEX128, RESOURCE and VARIANT types: an
 * array of one is UNKNOWN to DJL (as in DJL's own TensorFlow engine), keeps its bytes for
 * {@code toByteBuffer()}, and is refused by every operation that needs its type.
 */
final class DataTypes {
  private DataTypes() {}

  static io.tfjni.DataType toTf(DataType type) {
    switch (type) {
      case FLOAT32:
        return io.tfjni.DataType.FLOAT;
      case FLOAT64:
        return io.tfjni.DataType.DOUBLE;
      case FLOAT16:
        return io.tfjni.DataType.HALF;
      case BFLOAT16:
        return io.tfjni.DataType.BFLOAT16;
      case UINT8:
        return io.tfjni.DataType.UINT8;
      case UINT16:
        return io.tfjni.DataType.UINT16;
      case UINT32:
        return io.tfjni.DataType.UINT32;
      case UINT64:
        return io.tfjni.DataType.UINT64;
      case INT8:
        return io.tfjni.DataType.INT8;
      case INT16:
        return io.tfjni.DataType.INT16;
      case INT32:
        return io.tfjni.DataType.INT32;
      case INT64:
        return io.tfjni.DataType.INT64;
      case BOOLEAN:
        return io.tfjni.DataType.BOOL;
      case STRING:
        return io.tfjni.DataType.STRING;
      case COMPLEX64:
        return io.tfjni.DataType.COMPLEX64;
      case UNKNOWN:
        throw new UnsupportedOperationException("this array's TensorFlow type has no DJL"
            + " counterpart (DJL's UNKNOWN: quantized, float8, float4, int4, int2 and other types"
            + " DJL lacks), so no DJL operation takes it; read its bytes with toByteBuffer()");
      default:
        throw new UnsupportedOperationException("no TensorFlow type for DJL's " + type);
    }
  }

  static DataType fromTf(io.tfjni.DataType type) {
    switch (type) {
      case FLOAT:
        return DataType.FLOAT32;
      case DOUBLE:
        return DataType.FLOAT64;
      case HALF:
        return DataType.FLOAT16;
      case BFLOAT16:
        return DataType.BFLOAT16;
      case UINT8:
        return DataType.UINT8;
      case UINT16:
        return DataType.UINT16;
      case UINT32:
        return DataType.UINT32;
      case UINT64:
        return DataType.UINT64;
      case INT8:
        return DataType.INT8;
      case INT16:
        return DataType.INT16;
      case INT32:
        return DataType.INT32;
      case INT64:
        return DataType.INT64;
      case BOOL:
        return DataType.BOOLEAN;
      case STRING:
        return DataType.STRING;
      case COMPLEX64:
        return DataType.COMPLEX64;
      default:
        return DataType.UNKNOWN;
    }
  }
}
