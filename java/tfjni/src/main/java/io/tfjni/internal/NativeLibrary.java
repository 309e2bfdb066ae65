package io.tfjni.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Loads libtensorflow and then the JNI library, once per JVM. Not API: the package is not
 * exported.
 *
 * <p>The {@link Platform} comes from {@code os.name} and {@code os.arch}; an unsupported one is
 * an {@link UnsatisfiedLinkError} naming it and the supported ones. libtensorflow (the platform's
 * {@link Platform#tensorFlowLibraries()}) is looked for in, in order: the system property {@value
 * #TENSORFLOW_DIR_PROPERTY}, the environment variable {@value #TENSORFLOW_DIR_ENV}, a TensorFlow
 * runtime artifact for this platform on the class path (e.g. {@code
 * io.tfjni:tfjni-tensorflow-cpu} with the platform's classifier, extracted once into a per-user
 * cache by {@link RuntimeArtifact}), such an artifact jar named by a setting, the dynamic
 * linker's own search path, and last an artifact jar beside tfjni's jar or in the local Maven
 * repository ({@link RuntimeArtifactSearch}: what {@code java -jar}, which ignores the class
 * path, needs). The JNI library comes from {@value #LIBRARY_DIR_PROPERTY} / {@value
 * #LIBRARY_DIR_ENV} if set, else from the jar's {@code io/tfjni/native/<platform>/}: extracted
 * into a temporary directory, loaded, and deleted at once (the loaded copy stays mapped), so no run leaves files behind. The JNI library
 * binds to libtensorflow by soname (install name on macOS), so whichever copy was loaded first is
 * used.
 *
 * <p>TensorFlow's log level: {@value #LOG_LEVEL_PROPERTY} or {@value #LOG_LEVEL_ENV} (0 to 3, as
 * TensorFlow's {@value #TF_LOG_LEVEL_ENV}), if set, is put into the process environment as
 * {@value #TF_LOG_LEVEL_ENV} before libtensorflow loads, by the small {@value #LOADER_LIBRARY}
 * library (it links no TensorFlow library, and comes from where the JNI library does). A {@value
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
  /** tfjni's own libraries, by their platform-independent names ({@link Platform#libraryFile}). */
  public static final String JNI_LIBRARY = "tfjni";
  public static final String LOADER_LIBRARY = "tfjni_loader";

  /** Where libtensorflow came from, for error messages; written once, during loading. */
  private static String tensorFlowSource = "the dynamic linker's search path";
  /**
   * The search for a runtime artifact jar off the class path that follows the dynamic linker's,
   * when nothing before it named libtensorflow; else null. Written once, during loading.
   */
  private static RuntimeArtifactSearch pendingSearch;

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
      Platform platform = Platform.current();
      applyLogLevel(platform);
      loadTensorFlow(platform);
      loadJniLibrary(platform);
      return null;
    } catch (UnsatisfiedLinkError e) {
      return e;
    }
  }

  private static void loadTensorFlow(Platform platform) {
    Setting dir = setting(TENSORFLOW_DIR_PROPERTY, TENSORFLOW_DIR_ENV);
    if (dir != null) {
      loadTensorFlowFrom(Path.of(dir.value()), platform.tensorFlowLibraries(), dir.source());
      return;
    }
    RuntimeArtifact artifact =
        RuntimeArtifact.find(NativeLibrary.class.getClassLoader(), platform);
    if (artifact != null) {
      loadTensorFlowFrom(artifact.extract(), artifact.libraries(), artifact.description());
      return;
    }
    RuntimeArtifactSearch search = new RuntimeArtifactSearch(platform);
    RuntimeArtifactSearch.Found named = search.named();
    if (named != null) {
      loadTensorFlowFromJar(named, platform);
      return;
    }
    // Otherwise the dynamic linker finds libtensorflow (LD_LIBRARY_PATH, ldconfig) when the JNI
    // library is loaded; if it has none, loadJniLibrary goes on with this search.
    pendingSearch = search;
  }

  /** Loads libtensorflow from a runtime artifact jar that is not on the class path. */
  private static void loadTensorFlowFromJar(RuntimeArtifactSearch.Found jar, Platform platform) {
    // A loader of that jar alone (no parent) reads the artifact as if it were on the class path.
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.jar().toUri().toURL()}, null)) {
      RuntimeArtifact artifact = RuntimeArtifact.find(loader, platform);
      if (artifact == null) {
        throw new UnsatisfiedLinkError("tfjni: " + jar.jar() + " (from " + jar.source()
            + ") is not a TensorFlow runtime artifact: it has no "
            + platform.tensorFlowResourceDirectory() + RuntimeArtifact.INDEX_FILE);
      }
      loadTensorFlowFrom(artifact.extract(), artifact.libraries(),
          artifact.description() + ", " + jar.source());
    } catch (IOException e) {
      throw chained("tfjni: cannot read " + jar.jar() + " (from " + jar.source() + "): " + e, e);
    }
  }

  /** Loads {@code libraries} from {@code dir} in their order. */
  private static void loadTensorFlowFrom(Path dir, List<String> libraries, String source) {
    List<String> missing = new ArrayList<>();
    for (String name : libraries) {
      if (!Files.isRegularFile(dir.resolve(name))) {
        missing.add(name);
      }
    }
    if (!missing.isEmpty()) {
      throw new UnsatisfiedLinkError(
          "tfjni: looked for " + libraries + " in " + dir.toAbsolutePath()
              + " (from " + source + ") but " + missing + " is not there");
    }
    tensorFlowSource = dir.toAbsolutePath() + " (from " + source + ")";
    for (String name : libraries) {
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
  private static void applyLogLevel(Platform platform) {
    Setting setting = setting(LOG_LEVEL_PROPERTY, LOG_LEVEL_ENV);
    if (setting == null) {
      return;
    }
    String level = setting.value();
    String source = setting.source();
    if (!level.matches("[0-3]")) {
      throw new UnsatisfiedLinkError("tfjni: " + source + " is '" + level + "'; TensorFlow's log"
          + " levels are 0 (everything), 1 (no INFO), 2 (no INFO or WARNING), 3 (no INFO,"
          + " WARNING or ERROR)");
    }
    String own = System.getenv(TF_LOG_LEVEL_ENV);
    if (own != null && !own.isEmpty()) {
      return; // the user's own TensorFlow setting wins
    }
    String purpose = " (to apply " + source + ")";
    loadOwnLibrary(platform, LOADER_LIBRARY, library -> {
      try {
        System.load(library.toString());
      } catch (UnsatisfiedLinkError e) {
        throw chained("tfjni: could not load " + library + purpose + ": " + e.getMessage(), e);
      }
    });
    int error = nativeSetenv(TF_LOG_LEVEL_ENV, level);
    if (error != 0) {
      throw new UnsatisfiedLinkError("tfjni: could not set " + TF_LOG_LEVEL_ENV + " (from "
          + source + "): setenv failed with errno " + error);
    }
  }

  /** System property naming LiteRT's runtime library, libLiteRtRuntimeCApi.so. */
  public static final String LITERT_LIBRARY_PROPERTY = "tfjni.litert.library";
  /** Environment variable naming it when the system property is not set. */
  public static final String LITERT_LIBRARY_ENV = "TFJNI_LITERT_LIBRARY";
  /** LiteRT's runtime library as PyPI's ai-edge-litert wheels name it, on every platform. */
  public static final String LITERT_LIBRARY_FILE = "libLiteRtRuntimeCApi.so";

  /** The library extracted from the LiteRT runtime artifact, once found; guarded by the class. */
  private static Path liteRtFromArtifact;

  /**
   * The path of LiteRT's runtime library: the one {@value #LITERT_LIBRARY_PROPERTY} or else
   * {@value #LITERT_LIBRARY_ENV} names, else the one of the LiteRT runtime artifact for this
   * platform on the class path ({@code io.tfjni:tfjni-litert}), extracted once into the per-user
   * cache by {@link RuntimeArtifact}. Native code opens it at the first LiteRT model (libtfjni
   * does not link it, so everything else works without it).
   *
   * @throws IllegalStateException naming the settings and the artifact when there is neither
   * @throws UnsatisfiedLinkError if the artifact on the class path is for another platform, is
   *     there twice, is damaged or cannot be extracted
   */
  public static String liteRtLibrary() {
    Setting setting = setting(LITERT_LIBRARY_PROPERTY, LITERT_LIBRARY_ENV);
    if (setting != null) {
      return setting.value();
    }
    Path extracted = liteRtFromArtifact();
    if (extracted == null) {
      String version = buildProperty("litert.version");
      throw new IllegalStateException("LiteRT's runtime library is not configured: put the runtime"
          + " artifact io.tfjni:tfjni-litert:" + version + " with the classifier "
          + Platform.current().id() + " on the class path, or set the system property "
          + LITERT_LIBRARY_PROPERTY + " or the environment variable " + LITERT_LIBRARY_ENV
          + " to the path of " + LITERT_LIBRARY_FILE + " from PyPI's ai-edge-litert " + version
          + " wheel (see docs/LITERT.md)");
    }
    return extracted.toString();
  }

  private static synchronized Path liteRtFromArtifact() {
    if (liteRtFromArtifact == null) {
      RuntimeArtifact artifact = RuntimeArtifact.find(NativeLibrary.class.getClassLoader(),
          Platform.current(), NativeRuntime.LITERT);
      if (artifact != null) {
        List<String> libraries = artifact.libraries();
        // The index lists the libraries in load order: LiteRT's C API is the last.
        liteRtFromArtifact = artifact.extract().resolve(libraries.get(libraries.size() - 1))
            .toAbsolutePath();
      }
    }
    return liteRtFromArtifact;
  }

  /** A setting's value and where it came from: "system property X" or "environment variable Y". */
  record Setting(String value, String source) {}

  /** The system property if set (not empty), else the environment variable if set, else null. */
  static Setting setting(String property, String env) {
    String value = System.getProperty(property);
    if (value != null && !value.isEmpty()) {
      return new Setting(value, "system property " + property);
    }
    value = System.getenv(env);
    if (value != null && !value.isEmpty()) {
      return new Setting(value, "environment variable " + env);
    }
    return null;
  }

  /** setenv(name, value, 1); returns 0 or errno. In {@value #LOADER_LIBRARY}. */
  private static native int nativeSetenv(String name, String value);

  /**
   * Hands a native library of tfjni's own to {@code load}: the file in {@value
   * #LIBRARY_DIR_PROPERTY} / {@value #LIBRARY_DIR_ENV} if set, else a copy extracted from the jar
   * into a temporary directory that is deleted as soon as {@code load} returns (a loaded library
   * stays mapped without its file).
   */
  private static void loadOwnLibrary(Platform platform, String name, Consumer<Path> load) {
    String file = platform.libraryFile(name);
    Setting dir = setting(LIBRARY_DIR_PROPERTY, LIBRARY_DIR_ENV);
    if (dir != null) {
      Path library = Path.of(dir.value(), file).toAbsolutePath();
      if (!Files.isRegularFile(library)) {
        throw new UnsatisfiedLinkError(
            "tfjni: looked for " + file + " in " + Path.of(dir.value()).toAbsolutePath()
                + " (from " + dir.source() + ") but it is not there");
      }
      load.accept(library);
      return;
    }
    String resource = platform.nativeResourceDirectory() + file;
    Path extracted = null;
    try (InputStream in = NativeLibrary.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        throw new UnsatisfiedLinkError("tfjni: " + resource + " is not on the class path: this"
            + " tfjni jar was built without " + platform.id() + " natives (the released jar"
            + " carries " + Platform.supported() + "); set " + LIBRARY_DIR_PROPERTY
            + " to a directory holding " + file);
      }
      extracted = Files.createTempDirectory("tfjni");
      Path library = extracted.resolve(file);
      Files.copy(in, library);
      load.accept(library);
    } catch (IOException e) {
      throw chained("tfjni: could not extract " + resource + ": " + e, e);
    } finally {
      deleteQuietly(extracted);
    }
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> paths = Files.list(dir)) {
      for (Path path : paths.toList()) {
        Files.deleteIfExists(path);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // A temporary directory left behind is no reason to fail the load; deleteOnExit tries again.
      dir.toFile().deleteOnExit();
    }
  }

  private static void loadJniLibrary(Platform platform) {
    loadOwnLibrary(platform, JNI_LIBRARY, library -> {
      UnsatisfiedLinkError failure = tryLoad(library);
      if (failure != null && pendingSearch != null
          && platform.lacksTensorFlow(failure.getMessage())) {
        // The dynamic linker has no libtensorflow: a runtime artifact jar beside tfjni's jar or
        // in the local Maven repository (java -jar ignores the class path) may have it.
        RuntimeArtifactSearch.Found found = pendingSearch.find();
        if (found != null) {
          pendingSearch = null; // found: the places it was not in no longer explain a failure
          loadTensorFlowFromJar(found, platform);
          failure = tryLoad(library);
        }
      }
      if (failure != null) {
        throw jniLibraryFailure(platform, library, failure);
      }
    });
  }

  private static UnsatisfiedLinkError tryLoad(Path library) {
    try {
      System.load(library.toString());
      return null;
    } catch (UnsatisfiedLinkError e) {
      return e;
    }
  }

  private static UnsatisfiedLinkError jniLibraryFailure(Platform platform, Path library,
      UnsatisfiedLinkError e) {
    String symbol = undefinedSymbol(e.getMessage());
    if (symbol != null) {
      // libtfjni binds every symbol at load (-z now): a libtensorflow without one ends here.
      return chained("tfjni: the libtensorflow loaded from " + tensorFlowSource + " lacks "
          + symbol + ", which " + library + " needs: use a TensorFlow 2.x whose C API has it"
          + " (tfjni is tested with 2.16 to 2.21). The loader said: " + e.getMessage(), e);
    }
    return chained("tfjni: could not load the " + platform.id() + " JNI library " + library
        + ": " + e.getMessage()
        + (pendingSearch == null ? "" : ". " + pendingSearch.describeSearch()), e);
  }

  /**
   * The symbol named by glibc's "undefined symbol: NAME[, version V]" or by dyld's "Symbol not
   * found: _NAME" (without the underscore that Mach-O puts before C names), or null.
   */
  public static String undefinedSymbol(String loaderMessage) {
    String rest = after(loaderMessage, "undefined symbol: ");
    if (rest == null) {
      rest = after(loaderMessage, "Symbol not found: _");
    }
    if (rest == null) {
      return null;
    }
    int end = 0;
    while (end < rest.length() && rest.charAt(end) != ','
        && !Character.isWhitespace(rest.charAt(end))) {
      end++;
    }
    return end == 0 ? null : rest.substring(0, end);
  }

  private static String after(String text, String marker) {
    int at = text == null ? -1 : text.lastIndexOf(marker);
    return at < 0 ? null : text.substring(at + marker.length());
  }

  /** tfjni's version, as Maven recorded it in the jar. */
  public static String tfjniVersion() {
    return buildProperty("tfjni.version");
  }

  /** A value Maven recorded in the jar's build.properties, or "" if it did not. */
  static String buildProperty(String name) {
    Properties properties = new Properties();
    try (InputStream in = NativeLibrary.class.getResourceAsStream("/io/tfjni/build.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      return "";
    }
    String value = properties.getProperty(name, "");
    return value.startsWith("${") ? "" : value;
  }

  static UnsatisfiedLinkError chained(String message, Throwable cause) {
    UnsatisfiedLinkError error = new UnsatisfiedLinkError(message);
    error.initCause(cause);
    return error;
  }
}
