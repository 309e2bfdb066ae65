package io.tfjni;

import java.nio.file.Path;
import java.util.List;

/**
 * A custom op library loaded into this process (see {@link TensorFlow#loadLibrary(Path)}): the
 * file, with symbolic links resolved, and the names of the ops it registered, in the order the
 * library registered them.
 *
 * @param path the library's canonical path
 * @param opNames the ops the library registered; immutable
 */
public record OpLibrary(Path path, List<String> opNames) {
  /**
   * Copies the op names into an immutable list.
   *
   * @param path the library's canonical path
   * @param opNames the ops the library registered
   */
  public OpLibrary {
    opNames = List.copyOf(opNames);
  }
}
