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
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A TensorFlow runtime artifact on the class path (such as {@code io.tfjni:tfjni-tensorflow-cpu},
 * made by scripts/runtime-artifact.sh): libtensorflow's two libraries under {@value #DIRECTORY},
 * with {@value #INDEX} giving the TensorFlow version and each file's SHA-256.
 *
 * <p>{@link #extract()} copies them once into a per-user cache directory named after their
 * content hash. Several JVMs may start at once: each takes a file lock, the first extracts into a
 * private temporary directory, checks every hash, and renames it into place, so a directory under
 * that name is always complete, and the others find it when they get the lock.
 */
final class RuntimeArtifact {
  static final String DIRECTORY = "tfjni-tensorflow/linux-x86_64/";
  static final String INDEX = DIRECTORY + "libraries.properties";
  static final String CACHE_DIR_PROPERTY = "tfjni.cache.dir";
  static final String CACHE_DIR_ENV = "TFJNI_CACHE_DIR";

  private final ClassLoader loader;
  private final URL index;
  private final String version;
  private final String contentHash;
  private final Properties properties;

  private RuntimeArtifact(ClassLoader loader, URL index, Properties properties) {
    this.loader = loader;
    this.index = index;
    this.version = properties.getProperty("tensorflow.version", "unknown");
    StringBuilder hashes = new StringBuilder();
    for (String name : NativeLibrary.TENSORFLOW_LIBRARIES) {
      hashes.append(expectedHash(properties, name));
    }
    this.contentHash = sha256(hashes.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 16);
    this.properties = properties;
  }

  /** The artifact visible to {@code loader}, or null if there is none. */
  static RuntimeArtifact find(ClassLoader loader) {
    ClassLoader effective = loader != null ? loader : ClassLoader.getSystemClassLoader();
    URL index = effective.getResource(INDEX);
    if (index == null) {
      return null;
    }
    Properties properties = new Properties();
    try (InputStream in = index.openStream()) {
      properties.load(in);
    } catch (IOException e) {
      throw NativeLibrary.chained("tfjni: cannot read " + index + ": " + e, e);
    }
    return new RuntimeArtifact(effective, index, properties);
  }

  /** For error messages and {@code TensorFlow.libraryPath()}'s readers. */
  String description() {
    String where = index.toString();
    int bang = where.indexOf("!/");
    return "the TensorFlow " + version + " runtime artifact "
        + (bang > 0 ? where.substring(0, bang) : where);
  }

  /** The cache directory holding both libraries, extracted now if no JVM did it before. */
  Path extract() {
    Path cache = cacheDirectory().resolve("libtensorflow");
    Path target = cache.resolve(version + "-" + contentHash);
    if (Files.isDirectory(target)) {
      return target;
    }
    try {
      Files.createDirectories(cache);
      try (FileChannel lockFile = FileChannel.open(cache.resolve(target.getFileName() + ".lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        FileLock lock = lockFile.lock();  // other JVMs wait here; closing the channel releases it
        if (!Files.isDirectory(target)) {
          publish(cache, target);
        }
        lock.release();
      }
      return target;
    } catch (IOException e) {
      throw NativeLibrary.chained("tfjni: could not extract " + description() + " into " + target
          + ": " + e + ". Set " + CACHE_DIR_PROPERTY + " or " + CACHE_DIR_ENV
          + " to a writable directory, or " + NativeLibrary.TENSORFLOW_DIR_PROPERTY
          + " to a directory holding the libraries", e);
    }
  }

  /** Extracts into a private directory, checks each hash, then renames it to {@code target}. */
  private void publish(Path cache, Path target) throws IOException {
    Path staging = Files.createTempDirectory(cache, target.getFileName() + ".tmp");
    try {
      for (String name : NativeLibrary.TENSORFLOW_LIBRARIES) {
        String expected = expectedHash(properties, name);
        String actual;
        try (InputStream resource = open(DIRECTORY + name);
            DigestInputStream in = new DigestInputStream(resource, digest());
            OutputStream out = Files.newOutputStream(staging.resolve(name))) {
          in.transferTo(out);
          actual = HexFormat.of().formatHex(in.getMessageDigest().digest());
        }
        if (!actual.equals(expected)) {
          throw new IOException(DIRECTORY + name + " has SHA-256 " + actual + ", but "
              + INDEX + " says " + expected + ": the artifact is damaged");
        }
      }
      try {
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
        throw new IOException("cannot rename " + staging + " to " + target + ": " + e, e);
      }
    } finally {
      deleteRecursively(staging);
    }
  }

  private InputStream open(String resource) throws IOException {
    InputStream in = loader.getResourceAsStream(resource);
    if (in == null) {
      throw new IOException(resource + " is listed in " + INDEX + " but not on the class path");
    }
    return in;
  }

  private static String expectedHash(Properties properties, String name) {
    String hash = properties.getProperty("sha256." + name);
    if (hash == null || hash.length() != 64) {
      throw new UnsatisfiedLinkError("tfjni: " + INDEX + " has no sha256." + name);
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

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
