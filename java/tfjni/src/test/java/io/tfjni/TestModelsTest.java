package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The test harness itself: the tests read the models the build pointed them at. */
class TestModelsTest {
  @Test
  void modelsDirIsTheConfiguredOne() {
    Path dir = TestModels.dir();
    assertEquals(Path.of(System.getProperty(TestModels.MODELS_PROPERTY)).toAbsolutePath(), dir);
    assertTrue(Files.isRegularFile(dir.resolve("manifest.json")), dir.toString());
  }
}
