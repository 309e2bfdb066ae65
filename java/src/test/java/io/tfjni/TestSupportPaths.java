package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** The generated test models' directory, from the system property Maven sets. */
final class TestSupportPaths {
  private TestSupportPaths() {}

  static Path modelsDir() {
    String dir = System.getProperty("tfjni.test.models");
    assertTrue(dir != null && !dir.isEmpty(),
        "system property tfjni.test.models is not set (run the tests through scripts/test.sh)");
    Path path = Path.of(dir);
    assertTrue(Files.isDirectory(path), "test models directory " + path + " does not exist");
    return path;
  }
}
