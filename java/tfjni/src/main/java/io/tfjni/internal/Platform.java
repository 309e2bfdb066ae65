package io.tfjni.internal;

import java.util.List;
import java.util.Locale;

/**
 * A platform tfjni ships native libraries for, chosen by the JVM's {@code os.name} and {@code
 * os.arch}, and the names its native libraries have there. Not API.
 *
 * <p>The platform's {@link #id()} names the directory of tfjni's own libraries inside the library
 * jar ({@code io/tfjni/native/<id>/}), the directory of TensorFlow's libraries inside a runtime
 * artifact ({@code io/tfjni/tensorflow/<id>/}) and the artifact's Maven classifier.
 */
public enum Platform {
  LINUX_X86_64("linux", "x86_64", "linux-x86_64", "lib", ".so",
      List.of("libtensorflow_framework.so.2", "libtensorflow_cc.so.2")),
  LINUX_AARCH64("linux", "aarch64", "linux-aarch64", "lib", ".so",
      List.of("libtensorflow_framework.so.2", "libtensorflow_cc.so.2")),
  // Apple calls the architecture arm64, and so do TensorFlow's macOS wheels.
  MACOS_ARM64("macos", "aarch64", "macos-arm64", "lib", ".dylib",
      List.of("libtensorflow_framework.2.dylib", "libtensorflow_cc.2.dylib")),
  // TensorFlow's Windows C API is a DLL of its Python build, which imports python311.dll (a
  // stand-in in the runtime artifact): _pywrap_tensorflow_common.dll from TensorFlow 2.19 on (the
  // `tensorflow` wheel). Windows looks for a DLL's imports among the DLLs already loaded, not in
  // the folder of a DLL loaded by absolute path: each goes first.
  WINDOWS_X86_64("windows", "x86_64", "windows-x86_64", "", ".dll",
      List.of("python311.dll", "_pywrap_tensorflow_common.dll"));

  /**
   * Windows' libraries up to TensorFlow 2.18 (Intel's `tensorflow-intel` wheel): the C API is the
   * Python extension module itself.
   */
  private static final List<String> WINDOWS_UP_TO_2_18 =
      List.of("python311.dll", "_pywrap_tensorflow_internal.pyd");

  private final String os;
  private final String arch;
  private final String id;
  private final String libraryPrefix;
  private final String librarySuffix;
  private final List<String> tensorFlowLibraries;

  Platform(String os, String arch, String id, String libraryPrefix, String librarySuffix,
      List<String> tensorFlowLibraries) {
    this.os = os;
    this.arch = arch;
    this.id = id;
    this.libraryPrefix = libraryPrefix;
    this.librarySuffix = librarySuffix;
    this.tensorFlowLibraries = tensorFlowLibraries;
  }

  /** "linux-x86_64", "linux-aarch64", "macos-arm64" or "windows-x86_64". */
  public String id() {
    return id;
  }

  /**
   * The file of a library of tfjni's own here: "tfjni" is libtfjni.so, libtfjni.dylib on macOS,
   * tfjni.dll on Windows.
   */
  public String libraryFile(String name) {
    return libraryPrefix + name + librarySuffix;
  }

  /**
   * Whether the system loader's message for a library that failed to load says that a library
   * it needs was not found: on Windows it names none ("Can't find dependent libraries"), so any
   * such failure counts; elsewhere the message must name one of TensorFlow's libraries.
   */
  public boolean lacksTensorFlow(String loaderMessage) {
    if (loaderMessage == null) {
      return false;
    }
    if (this == WINDOWS_X86_64) {
      return loaderMessage.contains("Can't find dependent libraries");
    }
    return tensorFlowLibraries.stream().anyMatch(loaderMessage::contains);
  }

  /**
   * TensorFlow's C API libraries, in the order they must be loaded, for the TensorFlow version
   * tfjni was built against (its jar's build.properties): on Windows tfjni.dll imports the C API
   * DLL of that version's wheel by name.
   */
  public List<String> tensorFlowLibraries() {
    return tensorFlowLibraries(NativeLibrary.buildProperty("tensorflow.version"));
  }

  /**
   * TensorFlow's C API libraries as the wheel of {@code tensorFlowVersion} holds them, in the
   * order they must be loaded; the newest layout when the version is unknown ("").
   */
  public List<String> tensorFlowLibraries(String tensorFlowVersion) {
    if (this == WINDOWS_X86_64 && !tensorFlowVersion.isEmpty()
        && !TensorFlowVersions.atLeast(tensorFlowVersion, 2, 19)) {
      return WINDOWS_UP_TO_2_18;
    }
    return tensorFlowLibraries;
  }

  /** Where the library jar keeps this platform's libraries, as a resource path. */
  public String nativeResourceDirectory() {
    return "io/tfjni/native/" + id + "/";
  }

  /** Where a TensorFlow runtime artifact keeps this platform's libraries, as a resource path. */
  public String tensorFlowResourceDirectory() {
    return NativeRuntime.TENSORFLOW.resourceDirectory(this);
  }

  /** The platform of this JVM, from its {@code os.name} and {@code os.arch}. */
  public static Platform current() {
    return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
  }

  /**
   * The platform of these {@code os.name} and {@code os.arch} values.
   *
   * @throws UnsatisfiedLinkError naming the platform and the supported ones if tfjni has no
   *     libraries for it
   */
  public static Platform of(String osName, String osArch) {
    String os = osFamily(osName);
    String arch = archFamily(osArch);
    for (Platform platform : values()) {
      if (platform.os.equals(os) && platform.arch.equals(arch)) {
        return platform;
      }
    }
    throw new UnsatisfiedLinkError("tfjni: no native libraries for " + os + "-" + arch
        + " (os.name '" + osName + "', os.arch '" + osArch + "'); tfjni runs on " + supported());
  }

  /** "linux-x86_64, linux-aarch64, macos-arm64 and windows-x86_64", for messages. */
  public static String supported() {
    Platform[] all = values();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < all.length; i++) {
      if (i > 0) {
        text.append(i == all.length - 1 ? " and " : ", ");
      }
      text.append(all[i].id);
    }
    return text.toString();
  }

  private static String osFamily(String osName) {
    String name = osName.toLowerCase(Locale.ROOT);
    if (name.startsWith("linux")) {
      return "linux";
    }
    if (name.startsWith("mac") || name.startsWith("darwin")) {
      return "macos";
    }
    if (name.startsWith("windows")) {
      return "windows";
    }
    return name.isEmpty() ? "unknown" : name.replaceAll("[^a-z0-9]+", "");
  }

  // JVMs say amd64 (Linux, Windows) or x86_64 (macOS) for the same architecture, and aarch64 or
  // arm64 for 64-bit ARM.
  private static String archFamily(String osArch) {
    String arch = osArch.toLowerCase(Locale.ROOT);
    switch (arch) {
      case "amd64":
      case "x86_64":
      case "x86-64":
        return "x86_64";
      case "aarch64":
      case "arm64":
        return "aarch64";
      default:
        return arch.isEmpty() ? "unknown" : arch;
    }
  }
}
