package io.tfjni;

import io.tfjni.internal.LeakTracer;
import io.tfjni.internal.NativeLibrary;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** Facts about the loaded TensorFlow library and tfjni's native objects. */
public final class TensorFlow {
  private TensorFlow() {}

  /** Loads libtensorflow and the JNI library now, rather than on first use. */
  public static void load() {
    NativeLibrary.ensureLoaded();
  }

  /**
   * TensorFlow's version, as its C API reports it; loads TensorFlow if needed.
   *
   * @return the version, e.g. {@code "2.18.0"}
   */
  public static String version() {
    NativeLibrary.ensureLoaded();
    return nativeVersion();
  }

  /**
   * tfjni's own version, as the build recorded it in the jar (not TensorFlow's: see
   * {@link #version()}); loads nothing.
   *
   * @return the version, e.g. {@code "0.1.0"}; empty if the jar records none
   */
  public static String tfjniVersion() {
    return NativeLibrary.tfjniVersion();
  }

  /**
   * The file libtensorflow's C API was actually loaded from; loads TensorFlow if needed.
   *
   * @return the library's path
   */
  public static String libraryPath() {
    NativeLibrary.ensureLoaded();
    return nativeLibraryPath();
  }

  /**
   * Loads a custom op library (a shared library that registers TensorFlow ops and kernels, such
   * as TensorFlow Text's {@code _normalize_ops.so}) so that models using its ops can be loaded.
   * Load it before the model: a SavedModel whose graph names an op TensorFlow does not know fails
   * to load, naming the op.
   *
   * <p>A library stays loaded until the process ends: TensorFlow keeps the ops it registered and
   * cannot unregister them, so there is no unload. Loading is idempotent: the same file again
   * (under any spelling or symbolic link) returns the first result and loads nothing. Safe from
   * any thread; concurrent loads run one after another.
   *
   * <p>A library built for another TensorFlow version may load without complaint and fail later,
   * so when the file belongs to an installed Python package whose metadata declares a TensorFlow
   * requirement ({@code Requires-Dist: tensorflow<2.17,>=2.16.1} in its {@code .dist-info}) that
   * {@link #version()} does not meet, it is refused before loading. A library outside such a
   * package is checked only by the dynamic linker: a missing symbol is reported as the likely
   * sign of another TensorFlow version.
   *
   * @param library the library file
   * @return the library's canonical path and the ops it registered
   * @throws NullPointerException if {@code library} is null
   * @throws IllegalArgumentException if the path is not on the default file system
   * @throws TensorFlowException {@code NOT_FOUND} if there is no such file;
   *     {@code INVALID_ARGUMENT} for a directory, a file that is not a shared library or a Python
   *     extension module; {@code FAILED_PRECONDITION} for a library built for another TensorFlow
   *     version; TensorFlow's own code if it refuses the library. The message names the file.
   */
  public static OpLibrary loadLibrary(Path library) {
    return OpLibraries.load(library);
  }

  /**
   * Loads every op library under a directory, typically an installed Python package such as
   * {@code site-packages/tensorflow_text}: every {@code *.so} file in it and its subdirectories
   * except Python extension modules (which define {@code PyInit_} functions and are no op
   * libraries), in path order. A library that misses a symbol is retried after the others, in
   * case it needs one of them. Each library is loaded as by {@link #loadLibrary(Path)}.
   *
   * @param directory the directory to search
   * @return the libraries, in path order
   * @throws NullPointerException if {@code directory} is null
   * @throws IllegalArgumentException if the path is not on the default file system
   * @throws TensorFlowException {@code NOT_FOUND} if the directory does not exist or holds no op
   *     library; {@code INVALID_ARGUMENT} if it is a file; the first library's error that retrying
   *     does not cure, as for {@link #loadLibrary(Path)}. Libraries loaded before an error stay
   *     loaded.
   */
  public static List<OpLibrary> loadLibraries(Path directory) {
    return OpLibraries.loadAll(directory);
  }

  /**
   * The native objects alive now, by kind; loads TensorFlow if needed.
   *
   * @return the counts at the time of the call
   */
  public static LiveObjects liveObjects() {
    NativeLibrary.ensureLoaded();
    long[] counts = new long[LiveObjects.KINDS + 1];
    nativeLiveObjects(counts);
    return LiveObjects.of(counts);
  }

  /**
   * Returns the memory the C allocator holds free to the operating system: on Linux with glibc,
   * {@code malloc_trim(0)}, which also releases free pages in the middle of glibc's heaps and
   * arenas. Memory freed by TensorFlow (a closed model's graph, kernels and buffers, say) stays
   * in those heaps, counted in the process's RSS, until the allocator reuses it or this is
   * called; {@link io.tfjni.serving.VersionedModel} calls it after unloading a version. It walks
   * every arena, holding that arena's lock meanwhile (40 to 55 ms in all after loading and
   * closing a 29 MB model on a loaded 2-core machine): call it after releasing memory, not on a
   * request path.
   *
   * @return true if the allocator was asked to release its free memory; false where it offers
   *     no such call (not glibc, or a sanitizer's allocator)
   */
  public static boolean releaseFreeMemory() {
    NativeLibrary.ensureLoaded();
    return nativeReleaseFreeMemory();
  }

  /**
   * Whether leak tracing is on: objects made while it is on record the stack that created them
   * (see {@link #openObjects()}), and one that becomes unreachable without {@code close()} is
   * reported as a WARNING, with that stack, through the {@code System.Logger} named
   * {@code "io.tfjni.leaks"}. Off by default; turn it on with {@code -Dtfjni.leakTracing=true} or
   * the environment variable {@code TFJNI_LEAK_TRACING=1} (the property wins when both are set),
   * or with {@link #setLeakTracing(boolean)}. Tracing costs a stack capture per object made.
   *
   * @return true if objects made now are traced
   */
  public static boolean leakTracing() {
    return LeakTracer.enabled();
  }

  /**
   * Turns leak tracing on or off from now on. Objects made while it was off are never traced;
   * objects made while it was on stay traced until closed.
   *
   * @param on true to trace objects made from now on, false to stop
   */
  public static void setLeakTracing(boolean on) {
    LeakTracer.setEnabled(on);
  }

  /**
   * The traced objects still open, oldest first, each with its creation stack: what to close.
   * Empty unless leak tracing was on when they were made. A reported leak (unreachable, never
   * closed) stays listed, since its native memory is still allocated.
   *
   * @return the open traced objects, oldest first
   */
  public static List<OpenObject> openObjects() {
    return LeakTracer.openObjects();
  }

  /**
   * Prints {@link #openObjects()}, one creation stack after another, with a count first.
   *
   * @param out where to print (not closed)
   */
  public static void printOpenObjects(PrintStream out) {
    List<OpenObject> open = openObjects();
    StringBuilder text = new StringBuilder()
        .append("tfjni: ").append(open.size()).append(" traced object")
        .append(open.size() == 1 ? "" : "s").append(" open")
        .append(leakTracing() ? "" : " (leak tracing is off)");
    for (OpenObject object : open) {
      text.append(System.lineSeparator()).append(object);
    }
    out.println(text);
  }

  private static native String nativeVersion();

  private static native String nativeLibraryPath();

  private static native void nativeLiveObjects(long[] counts);

  private static native boolean nativeReleaseFreeMemory();
}
