package io.tfjni.spark;

import io.tfjni.ModelCache;
import java.time.Duration;

/**
 * The models of this JVM (an executor, or the driver), shared by its tasks: a model no task has
 * used for {@value #IDLE_SECONDS_PROPERTY} seconds (default 300) is closed, so that the tasks of
 * one job after another find it loaded.
 */
final class ExecutorModels {
  static final String IDLE_SECONDS_PROPERTY = "tfjni.spark.idleSeconds";

  static final ModelCache CACHE = new ModelCache("tfjni-spark",
      Duration.ofSeconds(Long.getLong(IDLE_SECONDS_PROPERTY, 300)));

  private ExecutorModels() {}
}
