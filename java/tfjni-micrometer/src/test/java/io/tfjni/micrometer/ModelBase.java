package io.tfjni.micrometer;

import io.tfjni.TestModels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;

/**
 * Base directories of numbered versions for the tests: the test models versioned_a (y = x * [2,
 * 3, 4] + 1) and versioned_b, published as a writer should (copied beside, renamed into place).
 */
final class ModelBase {
  static final String A = "versioned_a";
  static final String B = "versioned_b";

  private ModelBase() {}

  static void publish(Path base, long version, String export) {
    Path staging = base.resolve(".writing-" + version);
    TestModels.copyTree(TestModels.modelPath(export), staging, Set.of());
    try {
      Files.move(staging, base.resolve(Long.toString(version)), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
