package io.tfjni;

import io.tfjni.internal.NativeLibrary;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** The natives behind {@link TensorFlow#loadLibrary} and {@link TensorFlow#loadLibraries}. */
final class OpLibraries {
  private OpLibraries() {}

  static OpLibrary load(Path library) {
    String path = nativePath(library, "library");
    NativeLibrary.ensureLoaded();
    return toOpLibrary(nativeLoad(path));
  }

  static List<OpLibrary> loadAll(Path directory) {
    String path = nativePath(directory, "directory");
    NativeLibrary.ensureLoaded();
    List<OpLibrary> libraries = new ArrayList<>();
    for (String[] row : nativeLoadAll(path)) {
      libraries.add(toOpLibrary(row));
    }
    return List.copyOf(libraries);
  }

  /** The path as the native side takes it: absolute, of the default file system. */
  private static String nativePath(Path path, String what) {
    Objects.requireNonNull(path, what);
    if (path.getFileSystem() != FileSystems.getDefault()) {
      throw new IllegalArgumentException("op " + what + " " + path
          + " is not on the default file system: the dynamic linker cannot read it");
    }
    return path.toAbsolutePath().toString();
  }

  /** A native row: the canonical path, then the op names. */
  private static OpLibrary toOpLibrary(String[] row) {
    return new OpLibrary(Path.of(row[0]), Arrays.asList(row).subList(1, row.length));
  }

  private static native String[] nativeLoad(String path);

  private static native String[][] nativeLoadAll(String directory);
}
