package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.internal.Platform;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The library jar as Maven packaged it (an integration test: it runs after {@code package}): the
 * API and the JNI library, and nothing of the command line, NumPy I/O or the build machine.
 */
class LibraryJarIT {
  private static JarFile jar() throws IOException {
    Path path = Path.of(System.getProperty("tfjni.test.jar", ""));
    assertTrue(Files.isRegularFile(path), "no library jar at -Dtfjni.test.jar=" + path);
    return new JarFile(path.toFile());
  }

  /** The platforms whose natives the build put into the jar (tfjni.jar.platforms). */
  private static List<String> expectedPlatforms() {
    String platforms = System.getProperty("tfjni.test.jar.platforms", "");
    assertFalse(platforms.isBlank(), "set -Dtfjni.test.jar.platforms");
    return List.of(platforms.split(","));
  }

  private static List<String> names(JarFile jar) {
    List<String> names = new ArrayList<>();
    for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
      names.add(entries.nextElement().getName());
    }
    return names;
  }

  @Test
  void holdsTheApiAndTheJniLibraryOnly() throws IOException {
    try (JarFile jar = jar()) {
      List<String> names = names(jar);
      for (Platform platform : Platform.values()) {
        boolean expected = expectedPlatforms().contains(platform.id());
        for (String library : List.of("tfjni", "tfjni_loader")) {
          String entry = platform.nativeResourceDirectory() + platform.libraryFile(library);
          assertEquals(expected, names.contains(entry), entry + " in " + names);
        }
      }
      assertTrue(names.contains("io/tfjni/SavedModel.class"), names.toString());
      for (String name : names) {
        assertFalse(name.startsWith("io/tfjni/cli/"), "a CLI class: " + name);
        assertFalse(name.startsWith("io/tfjni/numpy/") || name.contains("/Npy"), "NumPy: " + name);
        assertFalse(name.startsWith("picocli/"), "picocli: " + name);
        assertFalse(name.startsWith("native/"), "natives outside io/tfjni/native/: " + name);
        assertFalse(name.startsWith("io/tfjni/") && name.contains("Test"), "a test: " + name);
      }
      assertNull(jar.getManifest().getMainAttributes().getValue("Main-Class"),
          "the library is not runnable");
    }
  }

  @Test
  void moduleExportsOnlyTheApiAndNeedsOnlyTheJdksOwnModules() throws IOException {
    try (JarFile jar = jar(); InputStream in = jar.getInputStream(jar.getEntry("module-info.class"))) {
      ModuleDescriptor module = ModuleDescriptor.read(in);
      assertEquals("io.tfjni", module.name());
      assertEquals(Set.of("io.tfjni", "io.tfjni.batching", "io.tfjni.eager", "io.tfjni.serving"),
          module.exports().stream().map(ModuleDescriptor.Exports::source)
              .collect(Collectors.toSet()));
      // jdk.jfr: the serving events (io.tfjni.serving.ServingEvents), in every standard JDK.
      assertEquals(Set.of("java.base", "jdk.jfr"), module.requires().stream()
          .map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()),
          "no java.desktop, no picocli");
      assertTrue(module.packages().contains("io.tfjni.internal"));
    }
  }

  @Test
  void recordsNoPathOfTheBuildMachine() throws IOException {
    List<String> machinePaths = new ArrayList<>();
    machinePaths.add(TestProcesses.repositoryRoot().toString());
    machinePaths.add(System.getProperty("user.home") + "/.cache");
    String tensorflowDir = System.getProperty("tfjni.test.tensorflow.dir", "");
    if (!tensorflowDir.isEmpty()) {
      machinePaths.add(tensorflowDir);
    }
    try (JarFile jar = jar()) {
      for (String name : names(jar)) {
        JarEntry entry = jar.getJarEntry(name);
        if (entry.isDirectory()) {
          continue;
        }
        String text;
        try (InputStream in = jar.getInputStream(entry)) {
          text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        for (String path : machinePaths) {
          assertFalse(text.contains(path), name + " records " + path);
        }
      }
      assertNotNull(jar.getEntry("io/tfjni/build.properties"));
    }
  }
}
