package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.ChildJvm.Outcome;
import io.tfjni.TensorFlowException.Code;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Custom op libraries: TensorFlow Text's libraries load and report the ops TensorFlow Python saw
 * them register (the manifest), the text_ops model needs them, and bad files, including a
 * TensorFlow Text built for another TensorFlow version, end in clear exceptions. The text_ops
 * model's outputs are compared with Python's by {@link ManifestCasesTest}.
 */
@ExtendWith(TestModels.NoLeaks.class)
class OpLibraryTest {
  private static Path textPackage() {
    return TestModels.opLibraryDir("text_ops");
  }

  private static Path mismatchedPackage() {
    return TestModels.mismatchedOpLibraryPackage();
  }

  @Test
  void packageLibrariesReportTheOpsPythonSaw() throws Exception {
    JsonNode expected = TestModels.manifest().path("models").path("text_ops").path("op_libraries");
    List<OpLibrary> loaded = TensorFlow.loadLibraries(textPackage());
    List<String> relativePaths = TestModels.fieldNames(expected);
    assertEquals(relativePaths.size(), loaded.size());
    for (int i = 0; i < loaded.size(); i++) {
      String relative = relativePaths.get(i);
      assertEquals(textPackage().resolve(relative).toRealPath(), loaded.get(i).path());
      List<String> ops = new ArrayList<>();
      expected.path(relative).forEach(op -> ops.add(op.asText()));
      assertEquals(ops, loaded.get(i).opNames(), relative);
    }
  }

  @Test
  void loadingAgainReturnsTheFirstResult(@TempDir Path temp) throws Exception {
    Path file = textPackage().resolve("python/ops/_normalize_ops.so");
    OpLibrary first = TensorFlow.loadLibrary(file);
    assertTrue(first.opNames().contains("NormalizeUTF8"), first.toString());
    assertEquals(first, TensorFlow.loadLibrary(file));
    Path link = Files.createSymbolicLink(temp.resolve("link.so"), file);
    assertEquals(first, TensorFlow.loadLibrary(link));
    assertThrows(UnsupportedOperationException.class, () -> first.opNames().add("x"));
  }

  @Test
  void concurrentLoadsAgree() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<OpLibrary>>> results = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        results.add(pool.submit(() -> TensorFlow.loadLibraries(textPackage())));
      }
      List<OpLibrary> first = results.get(0).get();
      for (Future<List<OpLibrary>> result : results) {
        assertEquals(first, result.get());
      }
    } finally {
      pool.shutdown();
    }
  }

  /**
   * In a fresh JVM (no op library loaded), text_ops does not load and TensorFlow's error names
   * one of the TensorFlow Text ops it uses; with the package's libraries loaded first, it loads.
   */
  @Test
  void textModelNeedsItsLibrariesAndTheErrorNamesTheMissingOp() throws Exception {
    String model = TestModels.dir().resolve("text_ops").toString();
    Outcome without = ChildJvm.run(List.of(), OpLibraryProbe.class, List.of(model), List.of(),
        Map.of());
    assertEquals(3, without.exitCode(), without.output());
    assertTrue(without.output().contains("thrown=" + TensorFlowException.class.getName()),
        without.output());
    assertTrue(without.output().contains("code=" + Code.NOT_FOUND), without.output());
    List<String> customOps = new ArrayList<>();
    TestModels.manifest().path("models").path("text_ops").path("custom_ops")
        .forEach(op -> customOps.add(op.asText()));
    assertTrue(customOps.stream().anyMatch(op -> without.output().contains("'" + op + "'")),
        "no op of " + customOps + " named in: " + without.output());
    assertTrue(without.output().contains("custom op library, such as TensorFlow Text's, load that"
        + " library first"), "no hint to load the op library in: " + without.output());

    Outcome with = ChildJvm.run(List.of(), OpLibraryProbe.class,
        List.of(model, textPackage().toString()), List.of(), Map.of());
    assertEquals(0, with.exitCode(), with.output());
    assertTrue(with.output().contains("loaded="), with.output());
  }

  @Test
  void nullArgumentsAreRefused() {
    NullPointerException library = assertThrows(NullPointerException.class,
        () -> TensorFlow.loadLibrary(null));
    assertEquals("library", library.getMessage());
    assertThrows(NullPointerException.class, () -> TensorFlow.loadLibrary(null));
    assertThrows(NullPointerException.class, () -> TensorFlow.loadLibraries(null));
  }

  @Test
  void pathsOfAnotherFileSystemAreRefused(@TempDir Path temp) throws Exception {
    Path zip = temp.resolve("libs.zip");
    try (FileSystem zipFs = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
      Path inside = zipFs.getPath("/lib.so");
      assertThrows(IllegalArgumentException.class, () -> TensorFlow.loadLibrary(inside));
      assertThrows(IllegalArgumentException.class, () -> TensorFlow.loadLibraries(inside));
    }
  }

  @Test
  void missingFileIsNotFound(@TempDir Path temp) {
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibrary(temp.resolve("missing.so")));
    assertEquals(Code.NOT_FOUND, e.code());
    assertTrue(e.getMessage().contains("missing.so"), e.getMessage());
  }

  @Test
  void textFileIsNotALibrary(@TempDir Path temp) throws Exception {
    Path text = Files.writeString(temp.resolve("notes.so"), "not a library\n");
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibrary(text));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().contains("notes.so") && e.getMessage().contains("not a shared"),
        e.getMessage());
  }

  @Test
  void directoryIsNotALibrary(@TempDir Path temp) {
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibrary(temp));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
  }

  @Test
  void pythonExtensionModuleIsNotAnOpLibrary() {
    Path extension = textPackage().resolve("core/pybinds/tflite_registrar.so");
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibrary(extension));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().contains("Python extension module"), e.getMessage());
  }

  @Test
  void directoryWithoutLibrariesIsNotFound(@TempDir Path temp) throws Exception {
    Files.writeString(temp.resolve("readme.txt"), "nothing to load\n");
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibraries(temp));
    assertEquals(Code.NOT_FOUND, e.code());
    assertTrue(e.getMessage().contains("no op library"), e.getMessage());
    TensorFlowException missing = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibraries(temp.resolve("missing")));
    assertEquals(Code.NOT_FOUND, missing.code());
  }

  /**
   * tensorflow-text for another TensorFlow: its _normalize_ops.so would load without any error
   * from the dynamic linker; the package's declared TensorFlow requirement refuses it first.
   */
  @Test
  void libraryForAnotherTensorFlowVersionIsRefused() {
    Path library = mismatchedPackage().resolve("python/ops/_normalize_ops.so");
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibrary(library));
    assertEquals(Code.FAILED_PRECONDITION, e.code());
    assertTrue(e.getMessage().contains("built for another TensorFlow version")
        && e.getMessage().contains(TensorFlow.version()), e.getMessage());
    TensorFlowException all = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibraries(mismatchedPackage()));
    assertEquals(Code.FAILED_PRECONDITION, all.code());
  }

  /** Outside its package, a library of the other version that misses a symbol: explained. */
  @Test
  void libraryMissingASymbolIsRefused(@TempDir Path temp) throws Exception {
    Path copy = Files.copy(mismatchedPackage().resolve("python/ops/_constrained_sequence_op.so"),
        temp.resolve("_constrained_sequence_op.so"));
    TensorFlowException e = assertThrows(TensorFlowException.class,
        () -> TensorFlow.loadLibrary(copy));
    assertEquals(Code.FAILED_PRECONDITION, e.code());
    assertTrue(e.getMessage().contains("undefined symbol")
        && e.getMessage().contains("another TensorFlow version"), e.getMessage());
    assertFalse(e.getMessage().isBlank());
  }
}
