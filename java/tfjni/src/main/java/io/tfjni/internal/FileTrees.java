package io.tfjni.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Directory trees on disk, copied or deleted whole: for version publishing, and for the tools
 * and tests that publish and remove versions.
 */
public final class FileTrees {
  private FileTrees() {}

  /**
   * Copies the tree at {@code from} to {@code to} (made with its parents), less the top-level
   * entries named in {@code leftOut}.
   *
   * @throws IOException if an entry cannot be read or written, or exists already
   */
  public static void copy(Path from, Path to, Set<String> leftOut) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : (Iterable<Path>) files::iterator) {
        Path relative = from.relativize(source);
        if (relative.getNameCount() > 0 && leftOut.contains(relative.getName(0).toString())) {
          continue;
        }
        Path target = to.resolve(relative.toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
  }

  /**
   * Deletes {@code tree}, a file or a directory with everything under it, deepest entries first;
   * nothing if it does not exist.
   *
   * @throws IOException if an entry cannot be deleted
   */
  public static void delete(Path tree) throws IOException {
    if (!Files.exists(tree)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(tree)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /**
   * As {@link #delete}, for callers that have no use for a checked failure.
   *
   * @throws UncheckedIOException if an entry cannot be deleted
   */
  public static void deleteUnchecked(Path tree) {
    try {
      delete(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
