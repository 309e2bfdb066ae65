package io.tfjni.flink;

import io.tfjni.RowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A model's INPUT and OUTPUT columns against its signature: each INPUT column feeds one input
 * (named by the column, or by the option {@code inputs}) and is of a SQL type that can feed it
 * ({@link SqlTypes}); every input is fed; each OUTPUT column is one output (named by the column,
 * or by the option {@code outputs}) and of the SQL type that output gives.
 */
final class ModelSchema {
  private ModelSchema() {}

  /**
   * The signature input each INPUT column feeds, in the columns' order.
   *
   * @param named the option {@code inputs}, if given
   * @param inputs the signature's inputs
   * @throws ValidationException naming the column and the input that do not fit
   */
  static List<String> inputKeys(ResolvedSchema columns, Optional<List<String>> named,
      List<RowSpec> inputs, String signatureKey) {
    List<String> keys = keys(columns, named, "INPUT", "inputs");
    List<String> inputKeys = inputs.stream().map(RowSpec::key).toList();
    for (int c = 0; c < keys.size(); c++) {
      String column = columns.getColumnNames().get(c);
      int input = inputKeys.indexOf(keys.get(c));
      if (input < 0) {
        throw new ValidationException(String.format("INPUT column '%s' feeds no input of "
            + "signature '%s': its inputs are %s (name each column after its input, or list "
            + "the inputs in the option 'inputs')", column, signatureKey, inputKeys));
      }
      if (keys.indexOf(keys.get(c)) != c) {
        throw new ValidationException(String.format("INPUT columns '%s' and '%s' both feed "
            + "input '%s'", columns.getColumnNames().get(keys.indexOf(keys.get(c))), column,
            keys.get(c)));
      }
      LogicalType type = columns.getColumnDataTypes().get(c).getLogicalType();
      String problem = SqlTypes.whyNot(type, inputs.get(input));
      if (problem != null) {
        throw new ValidationException(String.format("INPUT column '%s' (input '%s'): %s", column,
            keys.get(c), problem));
      }
    }
    List<String> unfed = new ArrayList<>(inputKeys);
    unfed.removeAll(keys);
    if (!unfed.isEmpty()) {
      throw new ValidationException(String.format("signature '%s' has inputs %s that no INPUT "
          + "column feeds: give every input a column", signatureKey, unfed));
    }
    return keys;
  }

  /**
   * The signature output each OUTPUT column is, in the columns' order.
   *
   * @param named the option {@code outputs}, if given
   * @param outputs the signature's outputs
   * @throws ValidationException naming the column and the output that do not fit
   */
  static List<String> outputKeys(ResolvedSchema columns, Optional<List<String>> named,
      List<RowSpec> outputs, String signatureKey) {
    List<String> keys = keys(columns, named, "OUTPUT", "outputs");
    List<String> outputKeys = outputs.stream().map(RowSpec::key).toList();
    for (int c = 0; c < keys.size(); c++) {
      String column = columns.getColumnNames().get(c);
      int output = outputKeys.indexOf(keys.get(c));
      if (output < 0) {
        throw new ValidationException(String.format("OUTPUT column '%s' is no output of "
            + "signature '%s': its outputs are %s (name each column after its output, or list "
            + "the outputs in the option 'outputs')", column, signatureKey, outputKeys));
      }
      LogicalType declared = columns.getColumnDataTypes().get(c).getLogicalType();
      LogicalType given;
      try {
        given = SqlTypes.of(outputs.get(output)).getLogicalType();
      } catch (IllegalArgumentException e) {
        throw new ValidationException(String.format("OUTPUT column '%s': %s", column,
            e.getMessage()), e);
      }
      if (!nullable(declared).equals(nullable(given))) {
        throw new ValidationException(String.format("OUTPUT column '%s' is %s, but output '%s' "
            + "gives %s (%s %s per row)", column, declared, keys.get(c), nullable(given),
            outputs.get(output).dataType(),
            java.util.Arrays.toString(outputs.get(output).shape())));
      }
    }
    return keys;
  }

  /** The keys the columns name: the option's, one per column, else the columns' names. */
  private static List<String> keys(ResolvedSchema columns, Optional<List<String>> named,
      String what, String option) {
    if (named.isEmpty()) {
      return columns.getColumnNames();
    }
    if (named.get().size() != columns.getColumnCount()) {
      throw new ValidationException(String.format("the option '%s' names %d keys %s for %d %s "
          + "columns %s: give one per column, in order", option, named.get().size(),
          named.get(), columns.getColumnCount(), what, columns.getColumnNames()));
    }
    return named.get();
  }

  /**
   * The type, nullable, an ARRAY's elements too: an OUTPUT column may declare either, as the
   * provider gives no null element.
   */
  private static LogicalType nullable(LogicalType type) {
    return type instanceof ArrayType array ? new ArrayType(nullable(array.getElementType()))
        : type.copy(true);
  }
}
