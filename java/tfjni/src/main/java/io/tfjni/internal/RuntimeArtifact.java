package io.tfjni.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.stream.Stream;

/**
 * A runtime artifact on the class path (such as {@code io.tfjni:tfjni-tensorflow-cpu} or {@code
 * io.tfjni:tfjni-litert} with a platform's classifier, made by scripts/release/runtime-artifact.sh): a
 * {@link NativeRuntime}'s libraries for one platform under {@code io/tfjni/<runtime>/<platform>/},
 * with an index ({@value #INDEX_FILE}) giving the runtime's version, TensorFlow's variant (cpu,
 * gpu), the libraries in load order and each file's SHA-256.
 *
 * <p>An artifact for another platform, and two artifacts for this one (cpu and gpu, say), are
 * refused with the jars named: either would otherwise end in a linker message or a silent choice.
 *
 * <p>{@link #extract()} copies them once into a per-user cache directory named after their
 * content hash. Several JVMs may start at once: each takes a file lock, the first extracts into a
 * private temporary directory, checks every hash, and renames it into place, so a directory under
 * that name is always complete, and the others find it when they get the lock.
 */
final class RuntimeArtifact {
  static final String INDEX_FILE = "libraries.properties";
  static final String CACHE_DIR_PROPERTY = "tfjni.cache.dir";
  static final String CACHE_DIR_ENV = "TFJNI_CACHE_DIR";

  private final NativeRuntime runtime;
  private final ClassLoader loader;
  private final URL index;
  private final Platform platform;
  private final String version;
  private final String variant;
  private final List<String> libraries;
  private final String contentHash;
  private final Properties properties;

  private RuntimeArtifact(NativeRuntime runtime, ClassLoader loader, URL index, Platform platform,
      Properties properties) {
    this.runtime = runtime;
    this.loader = loader;
    this.index = index;
    this.platform = platform;
    this.version = properties.getProperty(runtime.versionKey(), "unknown");
    this.variant = properties.getProperty("variant", "cpu");
    String listed = properties.getProperty("libraries", "").trim();
    this.libraries = listed.isEmpty() ? runtime.defaultLibraries(platform)
        : List.of(listed.split("\\s*,\\s*"));
    StringBuilder hashes = new StringBuilder();
    for (String name : libraries) {
      hashes.append(name).append('=').append(expectedHash(properties, name));
    }
    this.contentHash = sha256(hashes.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 16);
    this.properties = properties;
  }

  /** TensorFlow's artifact: {@link #find(ClassLoader, Platform, NativeRuntime)}. */
  static RuntimeArtifact find(ClassLoader loader, Platform platform) {
    return find(loader, platform, NativeRuntime.TENSORFLOW);
  }

  /**
   * The artifact of {@code runtime} for {@code platform} visible to {@code loader}, or null if
   * there is none.
   *
   * @throws UnsatisfiedLinkError if the only artifacts of the runtime there are for other
   *     platforms, or if there are several for this one
   */
  static RuntimeArtifact find(ClassLoader loader, Platform platform, NativeRuntime runtime) {
    ClassLoader effective = loader != null ? loader : ClassLoader.getSystemClassLoader();
    List<URL> indexes = resources(effective, runtime.resourceDirectory(platform) + INDEX_FILE);
    if (indexes.size() > 1) {
      throw new UnsatisfiedLinkError("tfjni: " + indexes.size() + " " + runtime.displayName()
          + " runtime artifacts for " + platform.id() + " are on the class path: "
          + jarsOf(indexes) + ". Keep one (" + runtime.artifacts() + ")");
    }
    if (indexes.isEmpty()) {
      refuseOtherPlatforms(effective, platform, runtime);
      return null;
    }
    Properties properties = new Properties();
    try (InputStream in = indexes.get(0).openStream()) {
      properties.load(in);
    } catch (IOException e) {
      throw NativeLibrary.chained("tfjni: cannot read " + indexes.get(0) + ": " + e, e);
    }
    return new RuntimeArtifact(runtime, effective, indexes.get(0), platform, properties);
  }

  private static void refuseOtherPlatforms(ClassLoader loader, Platform platform,
      NativeRuntime runtime) {
    for (Platform other : Platform.values()) {
      if (other == platform) {
        continue;
      }
      List<URL> indexes = resources(loader, runtime.resourceDirectory(other) + INDEX_FILE);
      if (!indexes.isEmpty()) {
        throw new UnsatisfiedLinkError("tfjni: the " + runtime.displayName() + " runtime artifact"
            + " on the class path (" + jarsOf(indexes) + ") is for " + other.id()
            + ", but this JVM runs on "
            + platform.id() + ": use the artifact with classifier " + platform.id()
            + " (tfjni runs on " + Platform.supported() + ")");
      }
    }
  }

  private static List<URL> resources(ClassLoader loader, String name) {
    try {
      return Collections.list(loader.getResources(name));
    } catch (IOException e) {
      throw NativeLibrary.chained("tfjni: cannot look for " + name + " on the class path: " + e,
          e);
    }
  }

  private static String jarsOf(List<URL> indexes) {
    StringJoiner jars = new StringJoiner(", ");
    for (URL index : indexes) {
      jars.add(jarOf(index));
    }
    return jars.toString();
  }

  /** The jar (or directory) a resource URL points into. */
  private static String jarOf(URL resource) {
    String where = resource.toString();
    int bang = where.indexOf("!/");
    return bang > 0 ? where.substring(0, bang) : where;
  }

  /** For error messages and {@code TensorFlow.libraryPath()}'s readers. */
  String description() {
    return "the " + runtime.displayName() + " " + version + " " + variant + " runtime artifact "
        + jarOf(index);
  }

  /** The libraries to load, in order. */
  List<String> libraries() {
    return libraries;
  }

  /** The cache directory holding the libraries, extracted now if no JVM did it before. */
  Path extract() {
    Path cache = cacheDirectory().resolve(runtime.cacheDirectory());
    // The index is data from a jar: only plain characters make it into a path.
    Path target = cache.resolve((version + "-" + platform.id() + "-" + variant)
        .replaceAll("[^A-Za-z0-9._-]", "_") + "-" + contentHash);
    if (Files.isDirectory(target)) {
      return target;
    }
    try {
      Files.createDirectories(cache);
      try (FileChannel lockFile = FileChannel.open(cache.resolve(target.getFileName() + ".lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        FileLock lock = lockFile.lock();  // other JVMs wait here; closing the channel releases it
        if (!Files.isDirectory(target)) {
          deleteAbandonedStaging(cache, target);
          publish(cache, target);
        }
        lock.release();
      }
      return target;
    } catch (IOException e) {
      throw NativeLibrary.chained("tfjni: could not extract " + description() + " into " + target
          + ": " + e + ". Set " + CACHE_DIR_PROPERTY + " or " + CACHE_DIR_ENV
          + " to a writable directory, or " + runtime.setting(), e);
    }
  }

  /**
   * Deletes the staging directories of JVMs that were killed while extracting {@code target}:
   * a staging directory exists only while its JVM holds the lock, which this one now holds.
   */
  private static void deleteAbandonedStaging(Path cache, Path target) throws IOException {
    String prefix = target.getFileName() + ".tmp";
    try (Stream<Path> entries = Files.list(cache)) {
      for (Path entry : entries.filter(p -> p.getFileName().toString().startsWith(prefix))
          .toList()) {
        FileTrees.delete(entry);
      }
    }
  }

  /** Extracts into a private directory, checks each hash, then renames it to {@code target}. */
  private void publish(Path cache, Path target) throws IOException {
    Path staging = Files.createTempDirectory(cache, target.getFileName() + ".tmp");
    try {
      for (String name : libraries) {
        String expected = expectedHash(properties, name);
        String actual;
        try (InputStream resource = open(runtime.resourceDirectory(platform) + name);
            DigestInputStream in = new DigestInputStream(resource, digest());
            OutputStream out = Files.newOutputStream(staging.resolve(name))) {
          in.transferTo(out);
          actual = HexFormat.of().formatHex(in.getMessageDigest().digest());
        }
        if (!actual.equals(expected)) {
          String directory = runtime.resourceDirectory(platform);
          throw new IOException(directory + name + " has SHA-256 " + actual + ", but "
              + directory + INDEX_FILE + " says " + expected + ": the artifact is damaged");
        }
      }
      try {
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
        throw new IOException("cannot rename " + staging + " to " + target + ": " + e, e);
      }
    } finally {
      FileTrees.delete(staging);
    }
  }

  private InputStream open(String resource) throws IOException {
    InputStream in = loader.getResourceAsStream(resource);
    if (in == null) {
      throw new IOException(resource + " is listed in "
          + runtime.resourceDirectory(platform) + INDEX_FILE
          + " but not on the class path");
    }
    return in;
  }

  private String expectedHash(Properties properties, String name) {
    String hash = properties.getProperty("sha256." + name);
    if (hash == null || hash.length() != 64) {
      throw new UnsatisfiedLinkError("tfjni: " + index + " has no sha256." + name);
    }
    return hash;
  }

  /** {@value #CACHE_DIR_PROPERTY}, {@value #CACHE_DIR_ENV}, $XDG_CACHE_HOME/tfjni, ~/.cache/tfjni. */
  static Path cacheDirectory() {
    String property = System.getProperty(CACHE_DIR_PROPERTY);
    if (property != null && !property.isEmpty()) {
      return Path.of(property);
    }
    String env = System.getenv(CACHE_DIR_ENV);
    if (env != null && !env.isEmpty()) {
      return Path.of(env);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isEmpty()) {
      return Path.of(xdg, "tfjni");
    }
    return Path.of(System.getProperty("user.home"), ".cache", "tfjni");
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(digest().digest(bytes));
  }
}
