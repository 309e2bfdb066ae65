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

  /**
   * The names of the arrays in the archive.
   *
   * @param file the .npz file
   * @return the names, without {@code .npy}, in archive order
   * @throws IllegalArgumentException if the file is not a zip archive
   * @throws IOException if the file cannot be read ({@link java.nio.file.NoSuchFileException} if
   *     it does not exist)
   */
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

  /**
   * Reads one array of the archive.
   *
   * @param file the .npz file
   * @param name the array's name (its entry without {@code .npy})
   * @return the array, in Java memory (nothing to close)
   * @throws IllegalArgumentException for an unknown name (the message lists the archive's
   *     arrays), a malformed archive or array, or an array over 2 GiB
   * @throws IOException if the file cannot be read ({@link java.nio.file.NoSuchFileException} if
   *     it does not exist)
   */
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

  /**
   * Whether the file starts like a zip archive (as .npz files do).
   *
   * @param file the file
   * @return true if its first bytes are a zip entry's signature
   * @throws IOException if the file cannot be read
   */
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
