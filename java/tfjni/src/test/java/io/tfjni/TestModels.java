package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.eager.EagerContext;
import io.tfjni.internal.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test support: where the generated models are, the manifest written by TensorFlow Python (the
 * oracle), conversions between the manifest's TENSOR encoding and {@link Tensor}, and a leak
 * check on tfjni's live native objects.
 */
public final class TestModels {
  /** System property naming the directory that scripts/goldens/generate_models.py wrote. */
  public static final String MODELS_PROPERTY = "tfjni.test.models";

  /** Relative and absolute tolerance for floats that come from real computation. */
  public static final double FLOAT_TOLERANCE = 1e-6;

  /** TensorFlow's switch between its oneDNN and Eigen CPU kernels. */
  private static final String ONEDNN_VARIABLE = "TF_ENABLE_ONEDNN_OPTS";

  private static final Map<String, DataType> DTYPES = Map.ofEntries(
      Map.entry("float16", DataType.HALF), Map.entry("bfloat16", DataType.BFLOAT16),
      Map.entry("float32", DataType.FLOAT), Map.entry("float64", DataType.DOUBLE),
      Map.entry("int8", DataType.INT8), Map.entry("int16", DataType.INT16),
      Map.entry("int32", DataType.INT32), Map.entry("int64", DataType.INT64),
      Map.entry("uint8", DataType.UINT8), Map.entry("uint16", DataType.UINT16),
      Map.entry("uint32", DataType.UINT32), Map.entry("uint64", DataType.UINT64),
      Map.entry("bool", DataType.BOOL), Map.entry("complex64", DataType.COMPLEX64),
      Map.entry("complex128", DataType.COMPLEX128), Map.entry("string", DataType.STRING),
      Map.entry("invalid", DataType.INVALID));

  /**
   * System property naming test models whose cases and signatures the suites that go through
   * every model leave out: entries "model=reason" separated by ";". The Maven build sets none;
   * scripts/platforms/test-windows.sh leaves out text_ops (its op libraries are Linux builds) and slow_loop
   * (slow by design), and {@link ConsoleTests} prints each entry with its reason.
   */
  public static final String LEFT_OUT_MODELS_PROPERTY = "tfjni.test.left_out_models";

  private static Path dir;
  private static JsonNode manifest;

  private TestModels() {}

  /** The models directory; fails the test clearly if it is not configured or not there. */
  public static synchronized Path dir() {
    if (dir == null) {
      String property = System.getProperty(MODELS_PROPERTY);
      if (property == null || property.isBlank()) {
        fail("system property " + MODELS_PROPERTY + " is not set: point it at the directory "
            + "scripts/goldens/generate_models.py wrote (scripts/build.sh generates it)");
      }
      Path candidate = Path.of(property).toAbsolutePath();
      if (!Files.isDirectory(candidate)) {
        fail(MODELS_PROPERTY + "=" + property + ": directory " + candidate + " does not exist");
      }
      if (!Files.isRegularFile(candidate.resolve("manifest.json"))) {
        fail(MODELS_PROPERTY + "=" + property + ": no manifest.json in " + candidate);
      }
      dir = candidate;
    }
    return dir;
  }

  /**
   * The parsed manifest.json. Its expected values hold only under the oneDNN setting they were
   * computed with (oneDNN's and Eigen's kernels differ in the last bits), so a JVM whose
   * TF_ENABLE_ONEDNN_OPTS differs from the generator's fails here, naming both.
   */
  public static synchronized JsonNode manifest() {
    if (manifest == null) {
      JsonNode parsed;
      try {
        parsed = new ObjectMapper().readTree(dir().resolve("manifest.json").toFile());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + dir().resolve("manifest.json"), e);
      }
      JsonNode made = parsed.path("onednn").path(ONEDNN_VARIABLE);
      String madeWith = made.isTextual() ? made.asText() : null;
      String runWith = System.getenv(ONEDNN_VARIABLE);
      if (!Objects.equals(madeWith, runWith)) {
        fail("the test models in " + dir() + " were made with " + ONEDNN_VARIABLE + "="
            + (madeWith == null ? "(unset)" : madeWith) + ", this JVM runs with "
            + (runWith == null ? "(unset)" : runWith) + ": run the tests under the models'"
            + " setting (scripts/common.sh exports it) or generate models for this one");
      }
      manifest = parsed;
    }
    return manifest;
  }

  /**
   * Where a model of the manifest lives (a SavedModel directory or a .pb file). A model whose ops
   * live in op libraries (text_ops: TensorFlow Text) gets them loaded first, so every test can
   * load it; loading is idempotent. {@link OpLibraryTest} checks, in a fresh JVM, that it does
   * not load without them.
   */
  public static Path modelPath(String model) {
    JsonNode entry = manifest().path("models").path(model);
    if (entry.isMissingNode()) {
      fail("no model '" + model + "' in the manifest");
    }
    if (entry.has("op_library_dir")) {
      TensorFlow.loadLibraries(Path.of(entry.path("op_library_dir").asText()));
    }
    return dir().resolve(entry.path("path").asText());
  }

  /** System property: tensorflow-text unpacked for another TensorFlow (scripts/common.sh). */
  public static final String MISMATCHED_OP_LIBRARIES_PROPERTY =
      "tfjni.test.mismatched_op_libraries";

  /**
   * The tensorflow_text package of a TensorFlow Text wheel built for another TensorFlow version,
   * unpacked with its .dist-info (scripts/setup.sh fetches it): libraries tfjni must refuse.
   */
  public static Path mismatchedOpLibraryPackage() {
    String property = System.getProperty(MISMATCHED_OP_LIBRARIES_PROPERTY, "");
    if (property.isBlank()) {
      fail(MISMATCHED_OP_LIBRARIES_PROPERTY + " is not set: scripts/common.sh's maven_settings"
          + " sets it");
    }
    Path dir = Path.of(property, "tensorflow_text");
    if (!Files.isDirectory(dir)) {
      fail("no " + dir + ": scripts/setup.sh fetches it");
    }
    return dir;
  }

  /** The directory of the op libraries a model needs (text_ops: the tensorflow_text package). */
  public static Path opLibraryDir(String model) {
    JsonNode dir = manifest().path("models").path(model).path("op_library_dir");
    if (dir.isMissingNode()) {
      fail("model '" + model + "' names no op library directory");
    }
    return Path.of(dir.asText());
  }

  /**
   * The {@code multi} model with the map API's predictors for "add" and "scale" prepared: they
   * live as long as the model, so a per-test leak check then sees only what a test leaves.
   */
  public static SavedModel loadMultiWithMapApiPrepared() {
    SavedModel multi = SavedModel.load(modelPath("multi"));
    try (Tensor a = Tensor.of(new float[] {1}, 1);
        Tensor x = Tensor.of(new float[] {1, 2, 3}, 1, 3);
        RunResult add = multi.run("add", Map.of("a", a, "b", a));
        RunResult scale = multi.run("scale", Map.of("x", x))) {
      assertArrayEquals(new float[] {2}, add.get("sum").toFloatArray());
      assertArrayEquals(new float[] {2, 4, 6}, scale.get("scaled").toFloatArray());
      assertArrayEquals(new float[] {6}, scale.get("total").toFloatArray());
    } catch (RuntimeException | AssertionError e) {
      multi.close();
      throw e;
    }
    return multi;
  }

  public static String modelKind(String model) {
    return manifest().path("models").path(model).path("kind").asText();
  }

  /** Every case of the manifest, in order, but those of {@link #leftOutModels()}. */
  public static List<JsonNode> cases() {
    List<JsonNode> cases = new ArrayList<>();
    manifest().path("cases").forEach(c -> {
      if (!isLeftOut(c.path("model").asText())) {
        cases.add(c);
      }
    });
    if (cases.isEmpty()) {
      fail("the manifest has no cases");
    }
    return cases;
  }

  /**
   * The models {@link #LEFT_OUT_MODELS_PROPERTY} names, each with its reason, in its order. Fails
   * on an entry without a reason or naming no model of the manifest.
   */
  public static Map<String, String> leftOutModels() {
    Map<String, String> models = new LinkedHashMap<>();
    for (String entry : System.getProperty(LEFT_OUT_MODELS_PROPERTY, "").split(";")) {
      if (entry.isBlank()) {
        continue;
      }
      int equals = entry.indexOf('=');
      String model = equals < 0 ? entry.strip() : entry.substring(0, equals).strip();
      String reason = equals < 0 ? "" : entry.substring(equals + 1).strip();
      if (reason.isEmpty()) {
        fail(LEFT_OUT_MODELS_PROPERTY + ": '" + entry + "' gives no reason (model=reason)");
      }
      if (manifest().path("models").path(model).isMissingNode()) {
        fail(LEFT_OUT_MODELS_PROPERTY + ": no model '" + model + "' in the manifest");
      }
      models.put(model, reason);
    }
    return models;
  }

  /** Whether {@link #LEFT_OUT_MODELS_PROPERTY} names this model. */
  public static boolean isLeftOut(String model) {
    return leftOutModels().containsKey(model);
  }

  /** The case with this name, whether or not its model is left out of {@link #cases()}. */
  public static JsonNode testCase(String name) {
    for (JsonNode c : manifest().path("cases")) {
      if (c.path("name").asText().equals(name)) {
        return c;
      }
    }
    return fail("no case '" + name + "' in the manifest");
  }

  /** The case of the manifest's {@code litert} section with this name. */
  public static JsonNode liteRtCase(String name) {
    for (JsonNode c : manifest().path("litert").path("cases")) {
      if (c.path("name").asText().equals(name)) {
        return c;
      }
    }
    return fail("manifest.json has no LiteRT case " + name);
  }

  /** The manifest's dtype name (numpy style, e.g. "float16") as a DataType. */
  public static DataType dataType(String manifestName) {
    DataType type = DTYPES.get(manifestName);
    if (type == null) {
      fail("unknown dtype name '" + manifestName + "' in the manifest");
    }
    return type;
  }

  public static long[] shape(JsonNode tensor) {
    JsonNode shape = tensor.path("shape");
    long[] dims = new long[shape.size()];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = shape.get(i).asLong();
    }
    return dims;
  }

  /** The raw little-endian bytes of a fixed-size TENSOR. */
  public static byte[] data(JsonNode tensor) {
    return Base64.getDecoder().decode(tensor.path("data").asText());
  }

  /** The elements of a string TENSOR. */
  public static byte[][] strings(JsonNode tensor) {
    JsonNode strings = tensor.path("strings");
    byte[][] values = new byte[strings.size()][];
    for (int i = 0; i < values.length; i++) {
      values[i] = Base64.getDecoder().decode(strings.get(i).asText());
    }
    return values;
  }

  /** How a test tensor is made from a manifest TENSOR (strings always use ofBytes). */
  public enum Creation {
    /** {@link Tensor#of(DataType, ByteBuffer, long...)} over a direct native-order buffer. */
    DIRECT_BUFFER,
    /** The same over a 64-byte aligned buffer: zero-copy. */
    ALIGNED_BUFFER,
    /** {@link Tensor#of(DataType, Object, long...)} from a primitive array. */
    ARRAY
  }

  /** A new tensor (close it) holding a manifest TENSOR, through a native-order buffer. */
  public static Tensor tensor(JsonNode json) {
    return tensor(json, Creation.DIRECT_BUFFER);
  }

  /** A new tensor (close it) holding a manifest TENSOR, made the given way. */
  public static Tensor tensor(JsonNode json, Creation creation) {
    DataType type = dataType(json.path("dtype").asText());
    long[] shape = shape(json);
    if (type == DataType.STRING) {
      return Tensor.ofBytes(strings(json), shape);
    }
    byte[] bytes = littleEndianToNative(data(json), type.byteSize() / type.componentsPerElement());
    switch (creation) {
      case ARRAY:
        return Tensor.of(type, toArray(type, bytes), shape);
      case ALIGNED_BUFFER: {
        ByteBuffer buffer = Tensor.allocateAlignedBuffer(bytes.length);
        buffer.put(bytes).flip();
        if (!Tensor.isZeroCopyCandidate(buffer)) {
          fail("an aligned buffer is not a zero-copy candidate");
        }
        return Tensor.of(type, buffer, shape);
      }
      default: {
        ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length).order(ByteOrder.nativeOrder());
        buffer.put(bytes).flip();
        return Tensor.of(type, buffer, shape);
      }
    }
  }

  /** Native-order element bytes as the primitive array the dtype reads into. */
  static Object toArray(DataType type, byte[] nativeBytes) {
    ByteBuffer in = ByteBuffer.wrap(nativeBytes).order(ByteOrder.nativeOrder());
    Class<?> component = type.javaComponent();
    int width = type.byteSize() / type.componentsPerElement();
    int n = nativeBytes.length / width;
    if (component == boolean.class) {
      boolean[] values = new boolean[n];
      for (int i = 0; i < n; i++) {
        values[i] = in.get() != 0;
      }
      return values;
    } else if (component == byte.class) {
      return nativeBytes.clone();
    } else if (component == short.class) {
      short[] values = new short[n];
      in.asShortBuffer().get(values);
      return values;
    } else if (component == int.class) {
      int[] values = new int[n];
      in.asIntBuffer().get(values);
      return values;
    } else if (component == long.class) {
      long[] values = new long[n];
      in.asLongBuffer().get(values);
      return values;
    } else if (component == float.class) {
      float[] values = new float[n];
      in.asFloatBuffer().get(values);
      return values;
    } else if (component == double.class) {
      double[] values = new double[n];
      in.asDoubleBuffer().get(values);
      return values;
    }
    return fail("no Java array for " + type);
  }

  /** The inputs of a manifest call as new tensors by key (close them). */
  public static Map<String, Tensor> tensors(JsonNode namedTensors) {
    return tensors(namedTensors, Creation.DIRECT_BUFFER);
  }

  /** The inputs of a manifest call as new tensors by key, made the given way (close them). */
  public static Map<String, Tensor> tensors(JsonNode namedTensors, Creation creation) {
    Map<String, Tensor> tensors = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, JsonNode> entry : namedTensors.properties()) {
        tensors.put(entry.getKey(), tensor(entry.getValue(), creation));
      }
      return tensors;
    } catch (RuntimeException | Error e) {
      tensors.values().forEach(Tensor::close);
      throw e;
    }
  }

  public static List<String> fieldNames(JsonNode object) {
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : object.properties()) {
      names.add(entry.getKey());
    }
    return names;
  }

  /** The tensor's memory as little-endian bytes, read through {@link Tensor#buffer()}. */
  public static byte[] bufferBytes(Tensor tensor) {
    ByteBuffer buffer = tensor.buffer();
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    DataType type = tensor.dataType();
    return littleEndianToNative(bytes, type.byteSize() / type.componentsPerElement());
  }

  /**
   * Asserts that {@code actual} holds the manifest TENSOR {@code expected}: same dtype and shape,
   * and the same bytes, bit for bit unless {@code exact} is false, in which case float and double
   * (and complex) components may differ by {@link #FLOAT_TOLERANCE} absolute plus relative.
   */
  public static void assertTensor(JsonNode expected, Tensor actual, boolean exact, String what) {
    DataType type = dataType(expected.path("dtype").asText());
    assertEquals(type, actual.dataType(), what + ": dtype");
    assertArrayEquals(shape(expected), actual.shape(), what + ": shape");
    if (type == DataType.STRING) {
      assertBytesArrays(strings(expected), actual.toBytesArray(), what);
    } else {
      assertData(type, data(expected), bufferBytes(actual), exact, what + " (buffer())");
    }
  }

  /** Compares little-endian element bytes of a fixed-size dtype. */
  public static void assertData(DataType type, byte[] expected, byte[] actual, boolean exact,
      String what) {
    assertEquals(expected.length, actual.length, what + ": byte length");
    boolean floating = type == DataType.FLOAT || type == DataType.DOUBLE
        || type == DataType.COMPLEX64 || type == DataType.COMPLEX128;
    if (exact || !floating) {
      if (!Arrays.equals(expected, actual)) {
        fail(what + ": bytes differ; expected " + describe(type, expected) + " but was "
            + describe(type, actual));
      }
      return;
    }
    double[] e = components(type, expected);
    double[] a = components(type, actual);
    for (int i = 0; i < e.length; i++) {
      // Equal infinities are close too (their difference is NaN).
      boolean close = Double.isNaN(e[i]) ? Double.isNaN(a[i])
          : a[i] == e[i]
              || Math.abs(a[i] - e[i]) <= FLOAT_TOLERANCE + FLOAT_TOLERANCE * Math.abs(e[i]);
      if (!close) {
        fail(what + ": component " + i + " expected " + e[i] + " but was " + a[i]
            + " (tolerance " + FLOAT_TOLERANCE + " abs + rel)");
      }
    }
  }

  /**
   * Fails unless {@code actual} has {@code expected}'s length and each element is within {@code
   * tolerance} of TensorFlow Python's.
   */
  public static void assertClose(float[] expected, float[] actual, double tolerance,
      String what) {
    assertEquals(expected.length, actual.length, what);
    for (int i = 0; i < expected.length; i++) {
      if (!(Math.abs((double) expected[i] - actual[i]) <= tolerance)) {
        fail(what + "[" + i + "] = " + actual[i] + ", TensorFlow Python gave " + expected[i]
            + " (tolerance " + tolerance + ")");
      }
    }
  }

  public static void assertBytesArrays(byte[][] expected, byte[][] actual, String what) {
    assertEquals(expected.length, actual.length, what + ": number of strings");
    for (int i = 0; i < expected.length; i++) {
      assertArrayEquals(expected[i], actual[i], what + ": string " + i);
    }
  }

  private static double[] components(DataType type, byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    boolean single = type == DataType.FLOAT || type == DataType.COMPLEX64;
    double[] values = new double[bytes.length / (single ? 4 : 8)];
    for (int i = 0; i < values.length; i++) {
      values[i] = single ? in.getFloat() : in.getDouble();
    }
    return values;
  }

  private static String describe(DataType type, byte[] bytes) {
    if (type == DataType.FLOAT || type == DataType.DOUBLE || type == DataType.COMPLEX64
        || type == DataType.COMPLEX128) {
      return Arrays.toString(components(type, bytes));
    }
    return Arrays.toString(bytes);
  }

  /** Swaps each component's bytes if the machine is big-endian (a no-op on x86 and ARM). */
  static byte[] littleEndianToNative(byte[] bytes, int componentSize) {
    if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN || componentSize <= 1) {
      return bytes;
    }
    byte[] swapped = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i += componentSize) {
      for (int j = 0; j < componentSize; j++) {
        swapped[i + j] = bytes[i + componentSize - 1 - j];
      }
    }
    return swapped;
  }

  /** Fails unless the exception's message holds every one of {@code words}. */
  public static void assertMentions(Throwable e, String... words) {
    for (String word : words) {
      assertTrue(e.getMessage().contains(word), "'" + word + "' not in: " + e.getMessage());
    }
  }

  /** Copies a model directory, less the top-level entries named in {@code skipTopLevel}. */
  public static void copyTree(Path from, Path to, Set<String> skipTopLevel) {
    try {
      FileTrees.copy(from, to, skipTopLevel);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code body} and asserts tfjni's live native objects are back where they were. */
  public static void assertNoLeak(String what, Runnable body) {
    LiveObjects before = TensorFlow.liveObjects();
    body.run();
    assertEquals(before, TensorFlow.liveObjects(), what + ": native objects leaked");
  }

  /**
   * The leak check every test class uses ({@code @ExtendWith(TestModels.NoLeaks.class)}): records
   * {@link TensorFlow#liveObjects()} before each test (and before the class's {@code @BeforeAll})
   * and asserts it is the same after (and after {@code @AfterAll}). It creates {@link
   * EagerContext#shared()} before the first record, since that context lives for the process.
   */
  public static final class NoLeaks
      implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(NoLeaks.class);

    @Override
    public void beforeAll(ExtensionContext context) {
      // The process-wide eager context is made on first use and never closed: not a leak.
      EagerContext.shared();
      context.getStore(NAMESPACE).put("class", TensorFlow.liveObjects());
    }

    @Override
    public void afterAll(ExtensionContext context) {
      check(context, "class");
    }

    @Override
    public void beforeEach(ExtensionContext context) {
      context.getStore(NAMESPACE).put("test", TensorFlow.liveObjects());
    }

    @Override
    public void afterEach(ExtensionContext context) {
      check(context, "test");
    }

    private static void check(ExtensionContext context, String key) {
      LiveObjects before = context.getStore(NAMESPACE).remove(key, LiveObjects.class);
      LiveObjects after = TensorFlow.liveObjects();
      if (before != null && !before.equals(after)) {
        fail(context.getDisplayName() + " leaked native objects: before " + before + ", after "
            + after);
      }
    }
  }
}
