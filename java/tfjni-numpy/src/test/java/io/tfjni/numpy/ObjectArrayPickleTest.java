package io.tfjni.numpy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.TestProcesses;
import io.tfjni.TestProcesses.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Object arrays of bytes or str in .npy/.npz files (NumPy's pickle of them). The vectors in
 * src/test/resources/io/tfjni/numpy/pickles were written by NumPy 1.26.4 (np1) and 2.0.2 (np2)
 * with make_vectors.py, which also recorded in expected.json what NumPy loads from each file.
 */
@ExtendWith(TestModels.NoLeaks.class)
class ObjectArrayPickleTest {
  @TempDir
  Path tmp;

  private static Path vectors(String numpy) {
    try {
      return Path.of(ObjectArrayPickleTest.class.getResource("pickles/" + numpy).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static NpyArray read(Path dir, String file) throws IOException {
    int bracket = file.indexOf('[');
    return bracket < 0 ? Npy.readArray(dir.resolve(file))
        : Npz.read(dir.resolve(file.substring(0, bracket)),
            file.substring(bracket + 1, file.length() - 1));
  }

  @ParameterizedTest
  @ValueSource(strings = {"np1", "np2"})
  void everyVectorReadsAsNumpyLoadsIt(String numpy) throws IOException {
    Path dir = vectors(numpy);
    JsonNode expected = new ObjectMapper().readTree(dir.resolve("expected.json").toFile());
    int files = 0;
    for (Map.Entry<String, JsonNode> entry : expected.properties()) {
      if (entry.getKey().equals("numpy")) {
        continue;
      }
      String file = entry.getKey();
      NpyArray array = read(dir, file);
      long[] shape = new long[entry.getValue().path("shape").size()];
      for (int i = 0; i < shape.length; i++) {
        shape[i] = entry.getValue().path("shape").get(i).asLong();
      }
      assertArrayEquals(shape, array.shape(), file);
      assertEquals(DataType.STRING, array.dataType(), file);
      List<byte[]> elements = new ArrayList<>();
      entry.getValue().path("elements")
          .forEach(e -> elements.add(Base64.getDecoder().decode(e.asText())));
      assertArrayEquals(elements.toArray(new byte[0][]), array.strings(), file);
      try (Tensor tensor = array.toTensor()) {
        assertArrayEquals(shape, tensor.shape(), file);
        assertArrayEquals(elements.toArray(new byte[0][]), tensor.toBytesArray(), file);
      }
      files++;
    }
    // 12 arrays, each from np.save and from protocols 2 to 5, and 2 from an .npz.
    assertEquals(12 * 5 + 2, files, numpy);
    String version = expected.path("numpy").asText();
    assertTrue(version.startsWith(numpy.equals("np1") ? "1." : "2."), version);
  }

  /** The venv's NumPy writes, here and now, what TensorFlow Python's string outputs become. */
  @Test
  void whatThisNumpyWritesToday() throws IOException {
    String script = String.join("\n",
        "import numpy as np, sys",
        "d = sys.argv[1]",
        "a = np.empty(3000, dtype=object)",
        "for i in range(3000): a[i] = (b'%d-' % i) * (i % 50)",
        "np.save(f'{d}/many.npy', a.reshape(30, 100))",  // several pickle frames
        "np.save(f'{d}/text.npy', np.array(['\\u00e9t\\u00e9', '', 'x' * 300], dtype=object))",
        "np.savez(f'{d}/both.npz', s=np.array([b'a', b'b'], dtype=object), n=np.arange(2))");
    Outcome outcome = TestProcesses.runPython(script, tmp, 120);
    assertEquals(0, outcome.exitCode(), outcome.toString());
    NpyArray many = Npy.readArray(tmp.resolve("many.npy"));
    assertArrayEquals(new long[] {30, 100}, many.shape());
    byte[][] strings = many.strings();
    for (int i = 0; i < 3000; i++) {
      assertEquals((i + "-").repeat(i % 50), new String(strings[i], StandardCharsets.UTF_8));
    }
    assertArrayEquals(new byte[][] {"été".getBytes(StandardCharsets.UTF_8), new byte[0],
        "x".repeat(300).getBytes(StandardCharsets.UTF_8)},
        Npy.readArray(tmp.resolve("text.npy")).strings());
    assertArrayEquals(new byte[][] {{'a'}, {'b'}}, Npz.read(tmp.resolve("both.npz"), "s")
        .strings());
  }

  @Test
  void tfjnisOwnOutputReadsBack() throws IOException {
    byte[][] values = {"tfjni".getBytes(StandardCharsets.UTF_8), new byte[0],
        "x".repeat(5000).getBytes(StandardCharsets.UTF_8), {(byte) 0xff, 0}};
    try (Tensor t = Tensor.ofBytes(values, 2, 2)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      NpyWriter.write(t, out);
      NpyArray back = Npy.parse(out.toByteArray(), "out.npy");
      assertArrayEquals(new long[] {2, 2}, back.shape());
      assertArrayEquals(values, back.strings());
    }
  }

  // ------------------------------------------------------------------ refused

  /** The bytes of a .npy file: a '|O' header of {@code shape}, then {@code pickle}. */
  private static byte[] npy(String shape, byte[] pickle) {
    return NpyFiles.npy("|O", shape, pickle);
  }

  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object part : parts) {
      if (part instanceof String s) {
        out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
      } else if (part instanceof Integer b) {
        out.write(b);
      } else {
        out.writeBytes((byte[]) part);
      }
    }
    return out.toByteArray();
  }

  private static IllegalArgumentException refused(byte[] file, String... words) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Npy.parse(file, "f.npy"));
    assertTrue(e.getMessage().startsWith("unsupported .npy file f.npy: ")
        || e.getMessage().startsWith("malformed .npy file f.npy: "), e.getMessage());
    for (String word : words) {
      assertTrue(e.getMessage().contains(word), "'" + word + "' in " + e.getMessage());
    }
    return e;
  }

  /** A minimal valid pickle (protocol 2, GLOBAL opcodes), elements spliced in as given. */
  private static byte[] protocol2(String shapeTuple, byte[] elements) {
    return bytes(0x80, 2,
        "cnumpy.core.multiarray\n_reconstruct\n", "cnumpy\nndarray\n", "K", 0, 0x85,
        "C", 1, "b", 0x87, "R",
        "(", "K", 1, shapeTuple, "cnumpy\ndtype\n", "X", 2, 0, 0, 0, "O8", 0x89, 0x88, 0x87, "R",
        "(", "K", 3, "X", 1, 0, 0, 0, "|", "NNN", "J", 255, 255, 255, 255, "J", 255, 255, 255,
        255, "K", 63, "t", "b", 0x89, "]", elements, "t", "b", ".");
  }

  @Test
  void theHandMadeMinimalPickleIsRead() {
    // The refusals below change one thing of this, so they fail for that reason alone.
    NpyArray ok = Npy.parse(npy("(2,)", protocol2("K\u0002\u0085",
        bytes("(", "C", 1, "a", "C", 0, "e"))), "f.npy");
    assertArrayEquals(new byte[][] {{'a'}, {}}, ok.strings());
  }

  @Test
  void hostilePicklesAreRefused() throws IOException {
    Path marker = tmp.resolve("executed");
    // os.system('touch marker'): refused at the global, and nothing runs.
    byte[] system = bytes(0x80, 2, "cos\nsystem\n", "X", bytes(le32(("touch " + marker).length())),
        "touch " + marker, 0x85, "R", ".");
    refused(npy("()", system), "os.system");
    assertTrue(Files.notExists(marker));
    refused(npy("()", bytes(0x80, 4, 0x8c, 8, "builtins", 0x8c, 4, "eval", 0x93, ".")),
        "builtins.eval");
    refused(npy("()", bytes(0x80, 2, "cnumpy\nfrombuffer\n", ".")), "numpy.frombuffer");
    // A known global called with other arguments.
    refused(npy("()", bytes(0x80, 2, "c_codecs\nencode\n", "X", 1, 0, 0, 0, "a", "X", 5, 0, 0, 0,
        "utf_8", 0x86, "R", ".")), "_codecs.encode");
    // A nested object (a list) and a number as elements; bytes and str mixed.
    refused(npy("(1,)", protocol2("K\u0001\u0085", bytes("]", "a"))), "element 0", "a list");
    refused(npy("(1,)", protocol2("K\u0001\u0085", bytes("K", 7, "a"))), "element 0");
    refused(npy("(2,)", protocol2("K\u0002\u0085", bytes("(", "C", 1, "a", "X", 1, 0, 0, 0, "b",
        "e"))), "mixes bytes and str");
    // Shapes that do not match the elements or the header.
    refused(npy("(3,)", protocol2("K\u0003\u0085", bytes("C", 1, "a", "a"))), "does not match");
    refused(npy("(2,)", protocol2("K\u0001\u0085", bytes("C", 1, "a", "a"))), "shape");
    // Huge declared lengths: nothing is allocated for them.
    refused(npy("(1,)", protocol2("K\u0001\u0085", bytes("X", 255, 255, 255, 255, "a"))),
        "declares 4294967295 bytes");
    refused(npy("(1,)", protocol2("K\u0001\u0085", bytes(0x8e, 0, 0, 0, 0, 0, 0, 0, 64, "a"))),
        "declares 4611686018427387904 bytes");
    refused(npy("(1,)", bytes(0x80, 4, 0x95, 255, 255, 255, 255, 255, 255, 255, 127, ".")),
        "frame");
    // Other opcodes (a protocol 0 string, an object build, an extension code).
    refused(npy("()", bytes(0x80, 2, "S'a'\n.")), "opcode 0x53");
    refused(npy("()", bytes(0x80, 2, 0x82, 1, ".")), "opcode 0x82");
    refused(npy("()", bytes(0x80, 1, ".")), "protocol 1");
    refused(npy("()", bytes("K", 1, ".")), "pickle protocol");
    // Bytes after STOP, values left on the stack, memo entries never stored.
    refused(npy("()", bytes(0x80, 2, "N", ".", "x")), "after the pickle's end");
    refused(npy("()", bytes(0x80, 2, "NN", ".")), "left on the pickle's stack");
    refused(npy("()", bytes(0x80, 2, "h", 9, ".")), "memo entry 9");
  }

  private static byte[] le32(int value) {
    return new byte[] {(byte) value, (byte) (value >> 8), (byte) (value >> 16),
        (byte) (value >> 24)};
  }

  @Test
  void everyTruncationOfARealFileIsRefused() throws IOException {
    byte[] file = Files.readAllBytes(vectors("np2").resolve("str_matrix.npy"));
    int headerEnd = 10 + (file[8] & 0xff) + ((file[9] & 0xff) << 8);
    for (int length = headerEnd; length < file.length; length++) {
      byte[] cut = java.util.Arrays.copyOf(file, length);
      refused(cut);
    }
  }

  // ------------------------------------------------------------------ fuzzing

  /**
   * Mutations of real files (bytes flipped, set to opcodes, inserted, removed, spliced, cut):
   * each must read, or be refused with IllegalArgumentException; nothing else may escape. Seeded,
   * so a failure names the seed and iteration that reproduce it.
   */
  @Test
  void mutatedPicklesReadOrAreRefusedWithIllegalArgumentException() throws IOException {
    List<byte[]> seeds = new ArrayList<>();
    for (String numpy : List.of("np1", "np2")) {
      for (String name : List.of("matrix.npy", "p2_str_vector.npy", "p5_repeated.npy",
          "scalar.npy", "p3_non_ascii_bytes.npy", "fortran.npy", "empty_2d.npy")) {
        seeds.add(Files.readAllBytes(vectors(numpy).resolve(name)));
      }
    }
    byte[] interesting = {'.', '(', ')', 't', 'R', 'b', 'a', 'e', ']', 'h', 'q', 'K', 'J', 'X',
        'C', 'N', (byte) 0x80, (byte) 0x85, (byte) 0x86, (byte) 0x87, (byte) 0x88, (byte) 0x89,
        (byte) 0x8a, (byte) 0x8c, (byte) 0x8d, (byte) 0x8e, (byte) 0x93, (byte) 0x94,
        (byte) 0x95, 0, (byte) 0xff, 127};
    long seed = 20240613L;
    Random random = new Random(seed);
    int read = 0;
    int refused = 0;
    for (int iteration = 0; iteration < 4000; iteration++) {
      byte[] base = seeds.get(random.nextInt(seeds.size()));
      int headerEnd = 10 + (base[8] & 0xff) + ((base[9] & 0xff) << 8);
      byte[] mutated = mutate(base, headerEnd, random, interesting, seeds);
      try {
        NpyArray array = Npy.parse(mutated, "fuzz.npy");
        assertEquals(array.elementCount(), array.strings().length);
        read++;
      } catch (IllegalArgumentException expected) {
        refused++;
      } catch (Throwable other) {
        fail("seed " + seed + " iteration " + iteration + ": " + other, other);
      }
    }
    // Both outcomes happen, so the mutations reach deep into the reader.
    assertTrue(read > 50 && refused > 1000, "read " + read + ", refused " + refused);
  }

  private static byte[] mutate(byte[] base, int headerEnd, Random random, byte[] interesting,
      List<byte[]> seeds) {
    byte[] out = base.clone();
    int edits = 1 + random.nextInt(4);
    for (int e = 0; e < edits; e++) {
      int body = out.length - headerEnd;
      if (body <= 0) {
        return out;
      }
      int at = headerEnd + random.nextInt(body);
      switch (random.nextInt(6)) {
        case 0 -> out[at] ^= (byte) (1 << random.nextInt(8));
        case 1 -> out[at] = interesting[random.nextInt(interesting.length)];
        case 2 -> { // insert a byte
          byte[] grown = new byte[out.length + 1];
          System.arraycopy(out, 0, grown, 0, at);
          grown[at] = interesting[random.nextInt(interesting.length)];
          System.arraycopy(out, at, grown, at + 1, out.length - at);
          out = grown;
        }
        case 3 -> { // remove a byte
          byte[] shrunk = new byte[out.length - 1];
          System.arraycopy(out, 0, shrunk, 0, at);
          System.arraycopy(out, at + 1, shrunk, at, out.length - at - 1);
          out = shrunk;
        }
        case 4 -> { // splice the tail of another file's pickle
          byte[] other = seeds.get(random.nextInt(seeds.size()));
          int otherHeader = 10 + (other[8] & 0xff) + ((other[9] & 0xff) << 8);
          int from = otherHeader + random.nextInt(other.length - otherHeader);
          byte[] spliced = new byte[at + other.length - from];
          System.arraycopy(out, 0, spliced, 0, at);
          System.arraycopy(other, from, spliced, at, other.length - from);
          out = spliced;
        }
        default -> out = java.util.Arrays.copyOf(out, at); // cut
      }
    }
    return out;
  }
}
