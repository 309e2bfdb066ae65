package io.tfjni.micrometer;

import io.tfjni.TestModels;
import io.tfjni.serving.VersionPublisher;
import java.nio.file.Path;

/**
 * Base directories of numbered versions for the tests: the test models versioned_a (y = x * [2,
 * 3, 4] + 1) and versioned_b, published as a writer should (copied beside, renamed into place).
 */
final class ModelBase {
  static final String A = "versioned_a";
  static final String B = "versioned_b";

  private ModelBase() {}

  static void publish(Path base, long version, String export) {
    VersionPublisher.publish(TestModels.modelPath(export), base, version);
  }
}
