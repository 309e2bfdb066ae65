package io.tfjni;

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
    return NativeLibrary.buildProperty("tfjni.version");
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

  private static native String nativeVersion();

  private static native String nativeLibraryPath();

  private static native void nativeLiveObjects(long[] counts);
}
