package io.tfjni;

import io.tfjni.internal.NativeLibrary;
import java.io.PrintStream;
import java.util.List;

/** Facts about the loaded TensorFlow library and tfjni's native objects. */
public final class TensorFlow {
  private TensorFlow() {}

  /** Loads libtensorflow and the JNI library now, rather than on first use. */
  public static void load() {
    NativeLibrary.ensureLoaded();
  }

  /** TensorFlow's version, as its C API reports it (e.g. "2.18.0"). */
  public static String version() {
    NativeLibrary.ensureLoaded();
    return nativeVersion();
  }

  /** tfjni's own version. */
  public static String tfjniVersion() {
    return NativeLibrary.tfjniVersion();
  }

  /** The file libtensorflow's C API was actually loaded from. */
  public static String libraryPath() {
    NativeLibrary.ensureLoaded();
    return nativeLibraryPath();
  }

  /** The native objects alive now. */
  public static LiveObjects liveObjects() {
    NativeLibrary.ensureLoaded();
    long[] counts = new long[LiveObjects.KINDS + 1];
    nativeLiveObjects(counts);
    return LiveObjects.of(counts);
  }

  /**
   * Whether leak tracing is on: objects made while it is on record the stack that created them
   * (see {@link #openObjects()}), and one that becomes unreachable without {@code close()} is
   * reported as a WARNING, with that stack, through the {@code System.Logger} named
   * {@code "io.tfjni.leaks"}. Off by default; turn it on with {@code -Dtfjni.leakTracing=true} or
   * the environment variable {@code TFJNI_LEAK_TRACING=1} (the property wins when both are set),
   * or with {@link #setLeakTracing(boolean)}. Tracing costs a stack capture per object made.
   */
  public static boolean leakTracing() {
    return LeakTracer.enabled();
  }

  /**
   * Turns leak tracing on or off from now on. Objects made while it was off are never traced;
   * objects made while it was on stay traced until closed.
   */
  public static void setLeakTracing(boolean on) {
    LeakTracer.setEnabled(on);
  }

  /**
   * The traced objects still open, oldest first, each with its creation stack: what to close.
   * Empty unless leak tracing was on when they were made. A reported leak (unreachable, never
   * closed) stays listed, since its native memory is still allocated.
   */
  public static List<OpenObject> openObjects() {
    return LeakTracer.openObjects();
  }

  /** Prints {@link #openObjects()}, one creation stack after another, with a count first. */
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
}
