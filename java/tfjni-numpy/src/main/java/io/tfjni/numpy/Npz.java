package io.tfjni.numpy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * Reads NumPy .npz archives ({@code np.savez}, {@code np.savez_compressed}): a zip of .npy files,
 * each array named after its file without ".npy".
 */
public final class Npz {
  private static final String SUFFIX = ".npy";

  private Npz() {}

  /** The names of the arrays in the archive, in archive order. */
  public static List<String> names(Path file) throws IOException {
    try (ZipFile zip = open(file)) {
      List<String> names = new ArrayList<>();
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        if (!entry.isDirectory() && entry.getName().endsWith(SUFFIX)) {
          names.add(entry.getName().substring(0, entry.getName().length() - SUFFIX.length()));
        }
      }
      return names;
    }
  }

  /** Reads the array {@code name}; an unknown name throws, listing the archive's arrays. */
  public static NpyArray read(Path file, String name) throws IOException {
    try (ZipFile zip = open(file)) {
      ZipEntry entry = zip.getEntry(name + SUFFIX);
      if (entry == null || entry.isDirectory()) {
        throw new IllegalArgumentException(file + " has no array '" + name + "'; its arrays are "
            + names(file));
      }
      if (entry.getSize() > Integer.MAX_VALUE - 64) {
        throw new IllegalArgumentException(file + "[" + name + "] is larger than tfjni reads"
            + " (2 GiB)");
      }
      byte[] bytes;
      try (InputStream in = zip.getInputStream(entry)) {
        bytes = in.readAllBytes();
      } catch (ZipException e) {
        throw new IllegalArgumentException("malformed .npz file " + file + ": " + e.getMessage());
      }
      return Npy.parse(bytes, file + "[" + name + "]");
    }
  }

  /** True if the file starts like a zip archive (as .npz files do). */
  public static boolean isNpz(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(4);
      return head.length == 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4;
    }
  }

  private static ZipFile open(Path file) throws IOException {
    if (!Files.exists(file)) {
      throw new NoSuchFileException(file.toString(), null, "no such file");
    }
    try {
      return new ZipFile(file.toFile());
    } catch (ZipException e) {
      throw new IllegalArgumentException("malformed .npz file " + file + ": not a zip archive");
    }
  }
}
