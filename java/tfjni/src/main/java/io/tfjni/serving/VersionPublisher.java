package io.tfjni.serving;

import io.tfjni.internal.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.Set;

/**
 * Writes a new version into a base directory the way a {@link VersionedModel} never sees half
 * copied: the export is copied beside the versions under a name that is not a number (which the
 * model ignores), then renamed into place in one step. The rename is atomic when the staging
 * directory and the version are on one file system, as they are here (both in {@code base}).
 *
 * <p>A writer that copies straight into {@code base/N} is safe too (the model waits until two
 * scans see the same files), only slower to be noticed; this is the quick and certain way.
 */
public final class VersionPublisher {
  private VersionPublisher() {}

  /**
   * Copies the SavedModel directory {@code export} into {@code base} as version {@code version}.
   * A staging directory left by an earlier publish that died is replaced. Nothing is left
   * behind when the copy fails.
   *
   * @param export the SavedModel directory to publish
   * @param base the base directory of numbered versions (created if absent)
   * @param version the version number, 0 or more
   * @return the version's directory, {@code base/version}
   * @throws IllegalArgumentException if {@code export} is not a directory or {@code version} is
   *     negative
   * @throws UncheckedIOException if the version exists already or the copy fails; the message
   *     names the export and the version
   */
  public static Path publish(Path export, Path base, long version) {
    Objects.requireNonNull(export, "export");
    Objects.requireNonNull(base, "base");
    if (!Files.isDirectory(export)) {
      throw new IllegalArgumentException("not a directory: " + export);
    }
    if (version < 0) {
      throw new IllegalArgumentException("a version is a number >= 0, got " + version);
    }
    Path target = base.resolve(Long.toString(version));
    Path staging = base.resolve(".publishing-" + version);
    try {
      if (Files.exists(target)) {
        throw new IOException("version " + version + " exists already: " + target);
      }
      Files.createDirectories(base);
      FileTrees.delete(staging);
      FileTrees.copy(export, staging, Set.of());
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      try {
        FileTrees.delete(staging);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw new UncheckedIOException("publishing " + export + " as version " + version + " of "
          + base + ": " + e.getMessage(), e);
    }
  }
}
