package io.tfjni.flink;

import io.tfjni.DataType;
import io.tfjni.RowSpec;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Which SQL types feed which signature inputs, and the SQL type of each output: numbers for the
 * number dtypes (converted), character strings for STRING; a value for a row of one element,
 * else an ARRAY of the row's elements, flattened.
 */
final class SqlTypes {
  /** The SQL number types an input takes; values are converted to the input's dtype. */
  private static final Set<LogicalTypeRoot> NUMBERS = Set.of(LogicalTypeRoot.TINYINT,
      LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT,
      LogicalTypeRoot.FLOAT, LogicalTypeRoot.DOUBLE);
  /** The SQL character string types a STRING input takes. */
  private static final Set<LogicalTypeRoot> STRINGS =
      Set.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR);
  /** The dtypes the SQL functions feed and return. */
  private static final Set<DataType> DTYPES = Set.of(DataType.FLOAT, DataType.DOUBLE,
      DataType.INT32, DataType.INT64, DataType.STRING);

  private SqlTypes() {}

  /** Why an argument of SQL type {@code type} cannot feed {@code input}, or null if it can. */
  static String whyNot(LogicalType type, RowSpec input) {
    String problem = unsupported(input, "input");
    if (problem != null) {
      return problem;
    }
    Set<LogicalTypeRoot> elements = input.dataType() == DataType.STRING ? STRINGS : NUMBERS;
    boolean fits = input.rank() == 0 ? elements.contains(type.getTypeRoot())
        : type instanceof ArrayType array
            && elements.contains(array.getElementType().getTypeRoot());
    return fits ? null : "a column of " + type + " cannot feed " + describe(input);
  }

  /** What an argument feeding {@code input} must be, for messages. */
  static String describe(RowSpec input) {
    String row = input.describe();
    String element = input.dataType() == DataType.STRING ? "string" : "number";
    return input.rank() == 0 ? "a " + element + " (" + row + ")"
        : "an ARRAY of " + input.arrayLength() + " " + element + "s (" + row + ")";
  }

  /**
   * The SQL type of an output: its dtype's for one value per row, else an ARRAY, flattened. The
   * values are handed over as Flink's internal data (no conversion, and a null passes: Flink's
   * async operators convert a result without checking for null).
   */
  static org.apache.flink.table.types.DataType of(RowSpec output) {
    String problem = unsupported(output, "output");
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    org.apache.flink.table.types.DataType element = switch (output.dataType()) {
      case FLOAT -> DataTypes.FLOAT();
      case DOUBLE -> DataTypes.DOUBLE();
      case INT32 -> DataTypes.INT();
      case INT64 -> DataTypes.BIGINT();
      default -> DataTypes.STRING().bridgedTo(StringData.class);
    };
    return output.rank() == 0 ? element
        : DataTypes.ARRAY(element.notNull()).bridgedTo(ArrayData.class);
  }

  /** A ROW of the outputs, each a field named by its key; internal data, as {@link #of}. */
  static org.apache.flink.table.types.DataType row(List<RowSpec> outputs) {
    return DataTypes.ROW(outputs.stream().map(o -> DataTypes.FIELD(o.key(), of(o))).toList())
        .bridgedTo(RowData.class);
  }

  private static String unsupported(RowSpec layout, String what) {
    return DTYPES.contains(layout.dataType()) ? null : what + " '" + layout.key() + "' is "
        + layout.dataType() + ": the SQL functions take FLOAT, DOUBLE, INT32, INT64 and STRING";
  }
}
