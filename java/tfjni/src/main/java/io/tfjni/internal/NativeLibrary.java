package io.tfjni.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Loads libtensorflow and then the JNI library, once per JVM. Not API: the package is not
 * exported.
 *
 * <p>libtensorflow (libtensorflow_framework.so.2 and libtensorflow_cc.so.2) is looked for in, in
 * order: the system property {@value #TENSORFLOW_DIR_PROPERTY}, the environment variable
 * {@value #TENSORFLOW_DIR_ENV}, a TensorFlow runtime artifact on the class path (e.g.
 * {@code io.tfjni:tfjni-tensorflow-cpu}, extracted once into a per-user cache by {@link
 * RuntimeArtifact}), and finally the dynamic linker's own search path. The JNI library comes from
 * {@value #LIBRARY_DIR_PROPERTY} / {@value #LIBRARY_DIR_ENV} if set, else from inside the jar.
 * The JNI library binds to libtensorflow by soname, so whichever copy was loaded first is used.
 *
 * <p>TensorFlow's log level: {@value #LOG_LEVEL_PROPERTY} or {@value #LOG_LEVEL_ENV} (0 to 3, as
 * TensorFlow's {@value #TF_LOG_LEVEL_ENV}), if set, is put into the process environment as
 * {@value #TF_LOG_LEVEL_ENV} before libtensorflow loads, by the small {@value #LOADER_LIBRARY}
 * (it links no TensorFlow library, and comes from where the JNI library does). A {@value
 * #TF_LOG_LEVEL_ENV} the process already has wins: it is left alone.
 */
public final class NativeLibrary {
  public static final String TENSORFLOW_DIR_PROPERTY = "tfjni.tensorflow.dir";
  public static final String TENSORFLOW_DIR_ENV = "TFJNI_TENSORFLOW_DIR";
  public static final String LIBRARY_DIR_PROPERTY = "tfjni.library.dir";
  public static final String LIBRARY_DIR_ENV = "TFJNI_LIBRARY_DIR";
  public static final String LOG_LEVEL_PROPERTY = "tfjni.logLevel";
  public static final String LOG_LEVEL_ENV = "TFJNI_LOG_LEVEL";
  public static final String TF_LOG_LEVEL_ENV = "TF_CPP_MIN_LOG_LEVEL";
  public static final String JNI_LIBRARY = "libtfjni.so";
  public static final String LOADER_LIBRARY = "libtfjni_loader.so";
  public static final String RESOURCE_DIR = "/native/linux-x86_64/";
  public static final String JNI_RESOURCE = RESOURCE_DIR + JNI_LIBRARY;
  public static final List<String> TENSORFLOW_LIBRARIES =
      List.of("libtensorflow_framework.so.2", "libtensorflow_cc.so.2");

  /** Where libtensorflow came from, for error messages; written once, during loading. */
  private static String tensorFlowSource = "the dynamic linker's search path";

  private NativeLibrary() {}

  /** The first call loads; the JVM runs the holder's initializer once, for every thread. */
  private static final class Holder {
    static final UnsatisfiedLinkError FAILURE = load();
  }

  /** Loads everything on first use; later calls read one constant. */
  public static void ensureLoaded() {
    UnsatisfiedLinkError failure = Holder.FAILURE;
    if (failure != null) {
      throw failure;
    }
  }

  private static UnsatisfiedLinkError load() {
    try {
      applyLogLevel();
      loadTensorFlow();
      loadJniLibrary();
      return null;
    } catch (UnsatisfiedLinkError e) {
      return e;
    }
  }

  private static void loadTensorFlow() {
    String property = System.getProperty(TENSORFLOW_DIR_PROPERTY);
    if (property != null && !property.isEmpty()) {
      loadTensorFlowFrom(Path.of(property), "system property " + TENSORFLOW_DIR_PROPERTY);
      return;
    }
    String env = System.getenv(TENSORFLOW_DIR_ENV);
    if (env != null && !env.isEmpty()) {
      loadTensorFlowFrom(Path.of(env), "environment variable " + TENSORFLOW_DIR_ENV);
      return;
    }
    RuntimeArtifact artifact = RuntimeArtifact.find(NativeLibrary.class.getClassLoader());
    if (artifact != null) {
      loadTensorFlowFrom(artifact.extract(), artifact.description());
    }
    // Otherwise the dynamic linker finds libtensorflow (LD_LIBRARY_PATH, ldconfig) when the JNI
    // library is loaded; a failure there names what is missing.
  }

  private static void loadTensorFlowFrom(Path dir, String source) {
    List<String> missing = new ArrayList<>();
    for (String name : TENSORFLOW_LIBRARIES) {
      if (!Files.isRegularFile(dir.resolve(name))) {
        missing.add(name);
      }
    }
    if (!missing.isEmpty()) {
      throw new UnsatisfiedLinkError(
          "tfjni: looked for " + TENSORFLOW_LIBRARIES + " in " + dir.toAbsolutePath()
              + " (from " + source + ") but " + missing + " is not there");
    }
    tensorFlowSource = dir.toAbsolutePath() + " (from " + source + ")";
    for (String name : TENSORFLOW_LIBRARIES) {
      Path library = dir.resolve(name).toAbsolutePath();
      try {
        System.load(library.toString());
      } catch (UnsatisfiedLinkError e) {
        throw chained("tfjni: could not load " + library + " (from " + source + "): "
            + e.getMessage(), e);
      }
    }
  }

  /**
   * Sets TF_CPP_MIN_LOG_LEVEL for TensorFlow from {@value #LOG_LEVEL_PROPERTY} or {@value
   * #LOG_LEVEL_ENV}, unless neither is set or the process already has TF_CPP_MIN_LOG_LEVEL.
   */
  private static void applyLogLevel() {
    String level = System.getProperty(LOG_LEVEL_PROPERTY);
    String source = "system property " + LOG_LEVEL_PROPERTY;
    if (level == null || level.isEmpty()) {
      level = System.getenv(LOG_LEVEL_ENV);
      source = "environment variable " + LOG_LEVEL_ENV;
    }
    if (level == null || level.isEmpty()) {
      return;
    }
    if (!level.matches("[0-3]")) {
      throw new UnsatisfiedLinkError("tfjni: " + source + " is '" + level + "'; TensorFlow's log"
          + " levels are 0 (everything), 1 (no INFO), 2 (no INFO or WARNING), 3 (no INFO,"
          + " WARNING or ERROR)");
    }
    String own = System.getenv(TF_LOG_LEVEL_ENV);
    if (own != null && !own.isEmpty()) {
      return; // the user's own TensorFlow setting wins
    }
    Path library = nativeFile(LOADER_LIBRARY);
    try {
      System.load(library.toString());
    } catch (UnsatisfiedLinkError e) {
      throw chained("tfjni: could not load " + library + " (to apply " + source + "): "
          + e.getMessage(), e);
    }
    int error = nativeSetenv(TF_LOG_LEVEL_ENV, level);
    if (error != 0) {
      throw new UnsatisfiedLinkError("tfjni: could not set " + TF_LOG_LEVEL_ENV + " (from "
          + source + "): setenv failed with errno " + error);
    }
  }

  /** setenv(name, value, 1); returns 0 or errno. In {@value #LOADER_LIBRARY}. */
  private static native int nativeSetenv(String name, String value);

  /**
   * A native library of tfjni's own: from {@value #LIBRARY_DIR_PROPERTY} / {@value
   * #LIBRARY_DIR_ENV} if set, else extracted from the jar.
   */
  private static Path nativeFile(String name) {
    String dir = System.getProperty(LIBRARY_DIR_PROPERTY);
    String source = "system property " + LIBRARY_DIR_PROPERTY;
    if (dir == null || dir.isEmpty()) {
      dir = System.getenv(LIBRARY_DIR_ENV);
      source = "environment variable " + LIBRARY_DIR_ENV;
    }
    if (dir == null || dir.isEmpty()) {
      return extractFromJar(name);
    }
    Path library = Path.of(dir, name).toAbsolutePath();
    if (!Files.isRegularFile(library)) {
      throw new UnsatisfiedLinkError(
          "tfjni: looked for " + name + " in " + Path.of(dir).toAbsolutePath()
              + " (from " + source + ") but it is not there");
    }
    return library;
  }

  private static void loadJniLibrary() {
    Path library = nativeFile(JNI_LIBRARY);
    try {
      System.load(library.toString());
    } catch (UnsatisfiedLinkError e) {
      String symbol = undefinedSymbol(e.getMessage());
      if (symbol != null) {
        // libtfjni binds every symbol at load (-z now): a libtensorflow without one ends here.
        throw chained("tfjni: the libtensorflow loaded from " + tensorFlowSource + " lacks "
            + symbol + ", which " + library + " needs: use a TensorFlow 2.x whose C API has it"
            + " (tfjni is tested with 2.16 to 2.21). The loader said: " + e.getMessage(), e);
      }
      throw chained("tfjni: could not load " + library + ": " + e.getMessage()
          + ". If libtensorflow is missing, put io.tfjni:tfjni-tensorflow-cpu on the class path"
          + " or point " + TENSORFLOW_DIR_PROPERTY + " or " + TENSORFLOW_DIR_ENV
          + " at the directory holding " + TENSORFLOW_LIBRARIES, e);
    }
  }

  private static Path extractFromJar(String name) {
    String resource = RESOURCE_DIR + name;
    try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new UnsatisfiedLinkError("tfjni: " + resource + " is not on the class path "
            + "(only linux-x86_64 is packaged); set " + LIBRARY_DIR_PROPERTY
            + " to a directory holding " + name);
      }
      Path dir = Files.createTempDirectory("tfjni");
      Path library = dir.resolve(name);
      Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
      library.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      return library;
    } catch (IOException e) {
      throw chained("tfjni: could not extract " + resource + ": " + e, e);
    }
  }

  /** The symbol named by the dynamic linker's "undefined symbol: NAME[, version V]", or null. */
  public static String undefinedSymbol(String loaderMessage) {
    String marker = "undefined symbol: ";
    int at = loaderMessage == null ? -1 : loaderMessage.lastIndexOf(marker);
    if (at < 0) {
      return null;
    }
    String rest = loaderMessage.substring(at + marker.length());
    int end = 0;
    while (end < rest.length() && rest.charAt(end) != ','
        && !Character.isWhitespace(rest.charAt(end))) {
      end++;
    }
    return end == 0 ? null : rest.substring(0, end);
  }

  /** tfjni's version, as Maven recorded it in the jar. */
  public static String tfjniVersion() {
    Properties properties = new Properties();
    try (InputStream in = NativeLibrary.class.getResourceAsStream("/io/tfjni/build.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      return "";
    }
    String value = properties.getProperty("tfjni.version", "");
    return value.startsWith("${") ? "" : value;
  }

  static UnsatisfiedLinkError chained(String message, Throwable cause) {
    UnsatisfiedLinkError error = new UnsatisfiedLinkError(message);
    error.initCause(cause);
    return error;
  }
}
