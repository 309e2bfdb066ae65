package io.tfjni.flink;

import io.tfjni.ModelCache;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a function of this module runs and how: the model, its signature, inputs and outputs, the
 * batching, the thread counts (LiteRT's: 0 for TensorFlow only) and what an invalid record does. Serializable, as Flink ships the
 * functions to the TaskManagers. No input keys means every input of the signature, in the order
 * of their keys. A poll interval means the path is a base directory of numbered versions, the
 * newest of which serves (io.tfjni.serving.VersionedModel); null, that it is the SavedModel.
 */
record ModelSettings(String modelPath, List<String> tags, String signatureKey,
    List<String> inputKeys, List<String> outputKeys, int maxBatchSize, Duration maxDelay,
    int intraOpThreads, int interOpThreads, int liteRtThreads, InvalidRecords invalidRecords,
    Duration versionPollInterval) implements Serializable {
  /** The key of the model in the JVM's model cache: path, tags and thread settings. */
  ModelCache.Key cacheKey() {
    return new ModelCache.Key(Path.of(modelPath), tags, intraOpThreads, interOpThreads,
        liteRtThreads);
  }
}
