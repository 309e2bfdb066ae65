package io.tfjni.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.TestModels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** VersionPublisher writes whole versions, refuses to overwrite one, and leaves nothing behind. */
class VersionPublisherTest {
  @TempDir
  Path base;

  private static final Path EXPORT = TestModels.modelPath("versioned_a");

  @Test
  void aPublishedVersionHoldsTheExportAndNothingElseIsLeftInTheBase() throws IOException {
    Path first = VersionPublisher.publish(EXPORT, base, 1);
    Path second = VersionPublisher.publish(EXPORT, base, 2);
    assertEquals(base.resolve("1"), first);
    assertEquals(base.resolve("2"), second);
    assertEquals(List.of("1", "2"), entries(base));
    assertEquals(files(EXPORT), files(first));
    assertEquals(files(EXPORT), files(second));
  }

  @Test
  void anExistingVersionIsRefusedAndLeftAsItIs() throws IOException {
    Path version = VersionPublisher.publish(EXPORT, base, 3);
    Files.writeString(version.resolve("marker"), "kept");
    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> VersionPublisher.publish(EXPORT, base, 3));
    TestModels.assertMentions(e, "version 3 exists already", EXPORT.toString());
    assertEquals("kept", Files.readString(version.resolve("marker")));
    assertEquals(List.of("3"), entries(base));
  }

  @Test
  void aStagingDirectoryLeftByADeadPublishIsReplaced() throws IOException {
    Path leftOver = Files.createDirectories(base.resolve(".publishing-4").resolve("variables"));
    Files.writeString(leftOver.resolve("half-written"), "x");
    Path version = VersionPublisher.publish(EXPORT, base, 4);
    assertEquals(files(EXPORT), files(version));
    assertEquals(List.of("4"), entries(base));
  }

  @Test
  void aVersionedModelServesWhatWasPublished() {
    VersionPublisher.publish(EXPORT, base, 7);
    try (VersionedModel model = VersionedModel.builder(base).pollInterval(Duration.ZERO)
        .build()) {
      assertEquals(7, model.servingVersion());
    }
  }

  @Test
  void badArgumentsAreRefusedBeforeAnythingIsWritten() throws IOException {
    assertThrows(IllegalArgumentException.class,
        () -> VersionPublisher.publish(base.resolve("missing"), base, 1));
    assertThrows(IllegalArgumentException.class, () -> VersionPublisher.publish(EXPORT, base, -1));
    assertThrows(NullPointerException.class, () -> VersionPublisher.publish(null, base, 1));
    assertThrows(NullPointerException.class, () -> VersionPublisher.publish(EXPORT, null, 1));
    assertFalse(Files.exists(base.resolve("1")));
    assertTrue(entries(base).isEmpty());
  }

  private static List<String> entries(Path dir) throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** Every file below {@code dir}, relative, with its size. */
  private static List<String> files(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).map(p -> {
        try {
          return dir.relativize(p) + " " + Files.size(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sorted().toList();
    }
  }
}
