package io.tfjni.flink;

import java.io.Serializable;

/**
 * Makes the function's output from a record and its prediction; serializable, as Flink ships it.
 *
 * @param <IN> the records' type
 * @param <OUT> the outputs' type
 */
@FunctionalInterface
public interface PredictionMapper<IN, OUT> extends Serializable {
  /**
   * The output for one record.
   *
   * @param record the record
   * @param prediction the record's rows of the model's outputs
   * @return what the function emits for the record
   */
  OUT map(IN record, Prediction prediction);
}
