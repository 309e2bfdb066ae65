package io.tfjni.serving;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Finds the version directories under a base directory and tells the complete ones from those
 * still being written. A version is complete when it holds {@code saved_model.pb} (or {@code
 * .pbtxt}), the ready marker if one is required, and the same files with the same sizes and
 * modification times as at the previous scan: a copy in progress changes between two scans.
 * Directories whose names are not decimal numbers (a writer's {@code .tmp-3}, say) are ignored.
 * Not thread-safe: its owner scans under one lock.
 */
final class VersionDirectories {
  /** Every file of a version directory: relative path, size and modification time. */
  record Fingerprint(List<String> files) {}

  /**
   * One scan's findings.
   *
   * @param problem why the base directory could not be listed, or null
   * @param directories every numbered version directory, by version
   * @param complete the versions that are complete
   * @param pending the versions that are not complete yet
   * @param fingerprints each version directory's content (absent where it could not be read)
   */
  record Scan(String problem, Map<Long, Path> directories, NavigableSet<Long> complete,
      NavigableSet<Long> pending, Map<Long, Fingerprint> fingerprints) {}

  private final Path base;
  private final String readyMarker;
  private Map<Long, Fingerprint> previous = Map.of();

  VersionDirectories(Path base, String readyMarker) {
    this.base = Objects.requireNonNull(base, "base");
    this.readyMarker = readyMarker;
  }

  Scan scan() {
    Map<Long, Path> directories = new TreeMap<>();
    String problem = listVersions(directories);
    NavigableSet<Long> complete = new TreeSet<>();
    NavigableSet<Long> pending = new TreeSet<>();
    Map<Long, Fingerprint> fingerprints = new HashMap<>();
    for (Map.Entry<Long, Path> entry : directories.entrySet()) {
      long version = entry.getKey();
      Fingerprint now = fingerprint(entry.getValue());
      if (now != null) {
        fingerprints.put(version, now);
      }
      if (now != null && hasSavedModel(entry.getValue()) && now.equals(previous.get(version))) {
        complete.add(version);
      } else {
        pending.add(version);
      }
    }
    previous = fingerprints;
    return new Scan(problem, Collections.unmodifiableMap(directories),
        Collections.unmodifiableNavigableSet(complete),
        Collections.unmodifiableNavigableSet(pending), Collections.unmodifiableMap(fingerprints));
  }

  /** Fills {@code into} with the numbered subdirectories; returns a problem, or null. */
  private String listVersions(Map<Long, Path> into) {
    if (!Files.isDirectory(base)) {
      return "the base directory " + base + (Files.exists(base) ? " is not a directory"
          : " does not exist");
    }
    try (DirectoryStream<Path> children = Files.newDirectoryStream(base)) {
      for (Path child : children) {
        long version = versionOf(child.getFileName().toString());
        if (version >= 0 && Files.isDirectory(child) && !into.containsKey(version)) {
          into.put(version, child);
        }
      }
      return null;
    } catch (IOException | UncheckedIOException | SecurityException e) {
      into.clear();
      return "the base directory " + base + " cannot be listed: " + e;
    }
  }

  /** A directory name's version number, or -1 if it is not a plain decimal number. */
  static long versionOf(String name) {
    if (name.isEmpty() || name.length() > 18) {
      return -1;  // 18 digits always fit a long
    }
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(name);
  }

  private boolean hasSavedModel(Path directory) {
    boolean model = Files.isRegularFile(directory.resolve("saved_model.pb"))
        || Files.isRegularFile(directory.resolve("saved_model.pbtxt"));
    return model && (readyMarker == null || Files.exists(directory.resolve(readyMarker)));
  }

  /** The directory's files; null if it changed under the walk (a file removed meanwhile). */
  private static Fingerprint fingerprint(Path directory) {
    List<String> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path file : (Iterable<Path>) walk::iterator) {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (attributes.isRegularFile()) {
          files.add(directory.relativize(file) + " " + attributes.size() + " "
              + attributes.lastModifiedTime().toMillis());
        }
      }
    } catch (IOException | UncheckedIOException | SecurityException e) {
      return null;
    }
    Collections.sort(files);
    return new Fingerprint(List.copyOf(files));
  }
}
