package io.tfjni.spark;

import io.tfjni.InvalidRows;
import io.tfjni.ModelCache;
import java.io.Serializable;
import java.util.List;

/**
 * Everything an executor needs to run one transform, resolved and checked on the driver when the
 * plan is built: where the model is, how to load it, which column feeds which input (by index in
 * the input rows) and what Spark type that column has, which outputs become columns.
 */
record InferencePlan(
    String modelLocation,
    List<String> tags,
    String signatureKey,
    int intraOpThreads,
    int interOpThreads,
    int liteRtThreads,
    int batchSize,
    InvalidRows invalidRows,
    boolean stringsAsBinary,
    List<ColumnSpec> inputs,
    int[] inputColumnIndexes,
    List<org.apache.spark.sql.types.DataType> inputColumnTypes,
    List<ColumnSpec> outputs) implements Serializable {

  ModelCache.Key cacheKey() {
    return new ModelCache.Key(ModelLocation.resolve(modelLocation), tags, intraOpThreads,
        interOpThreads, liteRtThreads);
  }

  List<String> inputKeys() {
    return inputs.stream().map(ColumnSpec::key).toList();
  }

  List<String> outputKeys() {
    return outputs.stream().map(ColumnSpec::key).toList();
  }
}
