package io.tfjni.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkFiles;

/**
 * Finds a SavedModel directory on this JVM from the path the user gave: a local or shared
 * directory (an {@code --archives} entry is one, unpacked by Spark in the working directory), a
 * file shipped with {@code SparkContext.addFile} / {@code --files} (looked up by its name), or a
 * zip of either (unpacked once per JVM into a temporary directory).
 */
final class ModelLocation {
  /** Zips already unpacked in this JVM, by path, size and time. */
  private static final Map<String, Path> UNPACKED = new HashMap<>();

  private ModelLocation() {}

  static Path resolve(String location) {
    List<String> looked = new ArrayList<>();
    Path local = Path.of(location);
    looked.add(local.toAbsolutePath().toString());
    Path found = usable(local);
    if (found == null && SparkEnv.get() != null && !location.contains("/")) {
      Path shipped = Path.of(SparkFiles.get(location));
      looked.add(shipped + " (SparkFiles)");
      found = usable(shipped);
    }
    if (found == null) {
      throw new IllegalArgumentException("no SavedModel at '" + location + "': looked in "
          + looked + " for a directory holding saved_model.pb, or a zip of one");
    }
    return found;
  }

  /** The SavedModel directory {@code path} is or unpacks to, or null. */
  private static Path usable(Path path) {
    if (Files.isRegularFile(path.resolve("saved_model.pb"))) {
      return path.toAbsolutePath();
    }
    if (Files.isRegularFile(path) && path.getFileName().toString().endsWith(".zip")) {
      return unpacked(path);
    }
    return null;
  }

  private static Path unpacked(Path zip) {
    try {
      String key = zip.toAbsolutePath() + ":" + Files.size(zip) + ":"
          + Files.getLastModifiedTime(zip).toMillis();
      synchronized (UNPACKED) {
        Path dir = UNPACKED.get(key);
        if (dir == null) {
          dir = unzip(zip);
          UNPACKED.put(key, dir);
        }
        return dir;
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot unpack the SavedModel zip " + zip + ": " + e, e);
    }
  }

  /** Unpacks into a new temporary directory; returns the directory holding saved_model.pb. */
  private static Path unzip(Path zip) throws IOException {
    Path target = Files.createTempDirectory("tfjni-spark-model");
    target.toFile().deleteOnExit();
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
      for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
        Path out = target.resolve(entry.getName()).normalize();
        if (!out.startsWith(target)) {
          throw new IOException("entry " + entry.getName() + " points outside the archive");
        }
        if (entry.isDirectory()) {
          Files.createDirectories(out);
        } else {
          Files.createDirectories(out.getParent());
          Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    try (Stream<Path> files = Files.walk(target)) {
      return files.filter(p -> p.getFileName().toString().equals("saved_model.pb"))
          .map(Path::getParent).findFirst()
          .orElseThrow(() -> new IOException(zip + " holds no saved_model.pb"));
    }
  }
}
