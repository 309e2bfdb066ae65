package io.tfjni;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Loads libtensorflow and then the JNI library, once per JVM.
 *
 * <p>libtensorflow (libtensorflow_framework.so.2 and libtensorflow_cc.so.2) is looked for in, in
 * order: the system property {@value #TENSORFLOW_DIR_PROPERTY}, the environment variable
 * {@value #TENSORFLOW_DIR_ENV}, the directory recorded when tfjni was built, and finally the
 * dynamic linker's own search path. The JNI library comes from {@value #LIBRARY_DIR_PROPERTY} /
 * {@value #LIBRARY_DIR_ENV} if set, else from inside the jar. The JNI library binds to
 * libtensorflow by soname, so whichever copy was loaded first is the one used.
 */
final class NativeLibrary {
  static final String TENSORFLOW_DIR_PROPERTY = "tfjni.tensorflow.dir";
  static final String TENSORFLOW_DIR_ENV = "TFJNI_TENSORFLOW_DIR";
  static final String LIBRARY_DIR_PROPERTY = "tfjni.library.dir";
  static final String LIBRARY_DIR_ENV = "TFJNI_LIBRARY_DIR";
  static final String JNI_LIBRARY = "libtfjni.so";
  static final List<String> TENSORFLOW_LIBRARIES =
      List.of("libtensorflow_framework.so.2", "libtensorflow_cc.so.2");
  private static final String JAR_RESOURCE = "/native/linux-x86_64/" + JNI_LIBRARY;

  private static boolean loaded;
  private static UnsatisfiedLinkError failure;
  /** Where libtensorflow came from, for error messages. */
  private static String tensorFlowSource = "the dynamic linker's search path";

  private NativeLibrary() {}

  /** Loads everything on first use; later calls are a volatile-free check under the class lock. */
  static synchronized void ensureLoaded() {
    if (loaded) {
      return;
    }
    if (failure != null) {
      throw failure;
    }
    try {
      loadTensorFlow();
      loadJniLibrary();
      loaded = true;
    } catch (UnsatisfiedLinkError e) {
      failure = e;
      throw e;
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
    String recorded = buildProperty("tensorflow.dir");
    if (!recorded.isEmpty()
        && Files.isRegularFile(Path.of(recorded, TENSORFLOW_LIBRARIES.get(1)))) {
      loadTensorFlowFrom(Path.of(recorded), "the directory recorded at build time");
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

  private static void loadJniLibrary() {
    String dir = System.getProperty(LIBRARY_DIR_PROPERTY);
    String source = "system property " + LIBRARY_DIR_PROPERTY;
    if (dir == null || dir.isEmpty()) {
      dir = System.getenv(LIBRARY_DIR_ENV);
      source = "environment variable " + LIBRARY_DIR_ENV;
    }
    Path library;
    if (dir != null && !dir.isEmpty()) {
      library = Path.of(dir, JNI_LIBRARY).toAbsolutePath();
      if (!Files.isRegularFile(library)) {
        throw new UnsatisfiedLinkError(
            "tfjni: looked for " + JNI_LIBRARY + " in " + Path.of(dir).toAbsolutePath()
                + " (from " + source + ") but it is not there");
      }
    } else {
      library = extractFromJar();
    }
    try {
      System.load(library.toString());
    } catch (UnsatisfiedLinkError e) {
      String symbol = undefinedSymbol(e.getMessage());
      if (symbol != null) {
        // libtfjni binds every symbol at load (-z now): a libtensorflow without one ends here.
        throw chained("tfjni: the libtensorflow loaded from " + tensorFlowSource + " lacks "
            + symbol + ", which " + library + " needs: use a TensorFlow 2.x whose C API has it"
            + " (tfjni is tested with 2.18.0). The loader said: " + e.getMessage(), e);
      }
      throw chained("tfjni: could not load " + library + ": " + e.getMessage()
          + ". If libtensorflow is missing, point " + TENSORFLOW_DIR_PROPERTY + " or "
          + TENSORFLOW_DIR_ENV + " at the directory holding " + TENSORFLOW_LIBRARIES, e);
    }
  }

  private static Path extractFromJar() {
    try (InputStream in = NativeLibrary.class.getResourceAsStream(JAR_RESOURCE)) {
      if (in == null) {
        throw new UnsatisfiedLinkError("tfjni: " + JAR_RESOURCE + " is not on the class path "
            + "(only linux-x86_64 is packaged); set " + LIBRARY_DIR_PROPERTY
            + " to a directory holding " + JNI_LIBRARY);
      }
      Path dir = Files.createTempDirectory("tfjni");
      Path library = dir.resolve(JNI_LIBRARY);
      Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
      library.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      return library;
    } catch (IOException e) {
      throw chained("tfjni: could not extract " + JAR_RESOURCE + ": " + e, e);
    }
  }

  /** The symbol named by the dynamic linker's "undefined symbol: NAME[, version V]", or null. */
  static String undefinedSymbol(String loaderMessage) {
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

  static String buildProperty(String key) {
    Properties properties = new Properties();
    try (InputStream in = NativeLibrary.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      return "";
    }
    String value = properties.getProperty(key, "");
    return value.startsWith("${") ? "" : value;
  }

  private static UnsatisfiedLinkError chained(String message, Throwable cause) {
    UnsatisfiedLinkError error = new UnsatisfiedLinkError(message);
    error.initCause(cause);
    return error;
  }
}
