package io.tfjni.flink;

import java.io.Serializable;

/** Makes the function's output from a record and its prediction; serializable, as Flink ships it. */
@FunctionalInterface
public interface PredictionMapper<IN, OUT> extends Serializable {
  OUT map(IN record, Prediction prediction);
}
