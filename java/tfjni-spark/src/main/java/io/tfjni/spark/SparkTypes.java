package io.tfjni.spark;

import io.tfjni.DataType;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;

/** Which Spark column types feed which tensors, and the column type of each output. */
final class SparkTypes {
  private SparkTypes() {}

  /** The Spark type of one element of an output of this dtype. */
  static org.apache.spark.sql.types.DataType element(DataType type, boolean stringsAsBinary) {
    return switch (type) {
      case FLOAT -> DataTypes.FloatType;
      case DOUBLE -> DataTypes.DoubleType;
      case INT8 -> DataTypes.ByteType;
      case INT16 -> DataTypes.ShortType;
      case INT32, UINT8, UINT16 -> DataTypes.IntegerType;  // unsigned: widened, never negative
      case INT64, UINT32 -> DataTypes.LongType;
      case BOOL -> DataTypes.BooleanType;
      case STRING -> stringsAsBinary ? DataTypes.BinaryType : DataTypes.StringType;
      default -> throw new IllegalArgumentException(type + " tensors have no Spark column type"
          + " here (supported: FLOAT, DOUBLE, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32,"
          + " BOOL, STRING)");
    };
  }

  /** An output column: a scalar per row, or arrays nested once per dimension. */
  static org.apache.spark.sql.types.DataType output(ColumnSpec spec, boolean stringsAsBinary) {
    org.apache.spark.sql.types.DataType type = element(spec.dataType(), stringsAsBinary);
    for (int i = 0; i < spec.rowShape().length; i++) {
      type = DataTypes.createArrayType(type, false);
    }
    return type;
  }

  /**
   * Whether a column of {@code type} can feed {@code spec}: a number or boolean for a scalar per
   * row; arrays nested once per dimension, or a flat array (or an ML vector) holding all of a
   * row's elements; strings or binary for STRING tensors. Returns why not, or null.
   */
  static String whyNot(org.apache.spark.sql.types.DataType type, ColumnSpec spec) {
    int depth = 0;
    org.apache.spark.sql.types.DataType leaf = type;
    while (leaf instanceof ArrayType array) {
      depth++;
      leaf = array.elementType();
    }
    boolean vector = type.equals(SQLDataTypes.VectorType());
    if (vector) {
      depth = 1;
    }
    int rank = spec.rowShape().length;
    if (depth != rank && !(depth == 1 && rank > 1)) {
      return "a column of " + type.simpleString() + " cannot feed " + spec.describe()
          + " (give arrays nested " + rank + " deep, or one flat array per row)";
    }
    boolean string = leaf instanceof StringType || leaf instanceof BinaryType;
    boolean number = vector || leaf instanceof NumericType || leaf instanceof BooleanType;
    if (spec.dataType() == DataType.STRING ? !string : !number) {
      return "a column of " + type.simpleString() + " cannot feed " + spec.describe();
    }
    return null;
  }
}
