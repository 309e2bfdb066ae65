package io.tfjni.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.connect.proto.MlParams;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.FloatParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connect.common.LiteralValueProtoConverter;
import org.apache.spark.sql.connect.ml.MLUtils;
import org.apache.spark.sql.connect.service.SparkConnectService$;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transformer from a Spark Connect client: Spark's own Connect server, started in this JVM
 * (its driver plugin, on a free port) with tfjni on the class path, and the PySpark wrapper in a
 * Python process through PySpark's Connect client ({@code src/test/python/connect_check.py}),
 * its probabilities against TensorFlow Python's; and every param set by name through Connect ML's
 * own code, as the server sets a client's params.
 */
class SparkConnectTest {
  private static final int DIGITS = HeldOutDigits.COUNT;
  /** The longest a Python client may run before it counts as hung (not a timing check). */
  private static final long CLIENT_LIMIT_MINUTES = 10;

  @TempDir
  static Path work;
  private static SparkSession spark;
  private static int port;

  @BeforeAll
  static void startServer() {
    spark = SparkSession.builder().master("local[2]").appName("tfjni-spark-connect-test")
        .config("spark.ui.enabled", "false")
        .config("spark.plugins", "org.apache.spark.sql.connect.SparkConnectPlugin")
        .config("spark.connect.grpc.binding.address", "127.0.0.1")
        .config("spark.connect.grpc.binding.port", "0")
        .getOrCreate();
    assertTrue(SparkConnectService$.MODULE$.started(), "the Connect server started with the session");
    port = SparkConnectService$.MODULE$.localPort();
  }

  @AfterAll
  static void stopServer() {
    spark.stop();  // stops the Connect server too (the plugin's shutdown)
    ExecutorModels.CACHE.evictUnused();
  }

  @Test
  void aPythonConnectClientScoresSavesAndLoadsTheTransformerAsTensorFlowPythonDoes()
      throws Exception {
    HeldOutDigits heldOut = HeldOutDigits.read();
    float[] pythonProbabilities = heldOut.probabilities();
    Path input = work.resolve("digits.parquet");
    heldOut.frame(spark, 3).write().parquet(input.toString());
    long tensorsBefore = TensorFlow.liveObjects().tensors();
    String model = TestModels.modelPath("digits").toString();

    runClient("connect_check.py", "sc://127.0.0.1:" + port, input.toString(), model,
        work.toString());

    for (String scored : new String[] {"scored", "loaded", "pipeline"}) {
      assertPythonsProbabilities(pythonProbabilities, work.resolve(scored + ".json"));
    }
    // What the client saved through the server is the Java stage, every param set by its name.
    SavedModelTransformer stage = SavedModelTransformer.load(work.resolve("stage").toString());
    for (Param<?> param : stage.params()) {
      assertTrue(stage.isSet(param), param.name() + " was set by the client and saved");
    }
    assertEquals(model, stage.getModelPath());
    assertArrayEquals(new String[] {"serve"}, stage.getTags());
    assertEquals("serving_default", stage.getSignatureKey());
    assertArrayEquals(new String[] {"pixels"}, stage.getInputCols());
    assertArrayEquals(new String[] {"images"}, stage.getInputKeys());
    assertArrayEquals(new String[] {"output_0"}, stage.getOutputKeys());
    assertArrayEquals(new String[] {"probabilities"}, stage.getOutputCols());
    assertEquals(48, stage.getBatchSize());
    assertEquals(0, stage.getIntraOpThreads());
    assertEquals(-1, stage.getInterOpThreads());
    assertEquals("skip", stage.getHandleInvalid());
    assertTrue(stage.getStringsAsBinary());

    assertEquals(0, TensorFlow.liveObjects().runners(), "every partition closed its predictor");
    assertEquals(tensorsBefore, TensorFlow.liveObjects().tensors(),
        "every partition closed its batches' tensors");
  }

  @Test
  void everyParamIsSetByItsNameAsConnectMlSetsIt() {
    SavedModelTransformer transformer = new SavedModelTransformer("connect-params");
    MlParams.Builder sent = MlParams.newBuilder();
    for (Param<?> param : transformer.params()) {
      sent.putParams(param.name(), LiteralValueProtoConverter.toLiteralProto(
          asPythonSendsIt(transformer, param)));
    }
    // What the server does with a client's params: each looked up by name and converted to the
    // param's type (a param whose type it cannot tell fails here).
    MLUtils.setInstanceParams(transformer, sent.build());
    for (Param<?> param : transformer.params()) {
      assertTrue(transformer.isSet(param), param.name());
      Object expected = asPythonSendsIt(transformer, param);
      Object set = transformer.getOrDefault(param);
      if (expected instanceof String[] strings) {
        assertArrayEquals(strings, (String[]) set, param.name());
      } else if (expected instanceof Integer number) {
        assertEquals(number.longValue(), ((Number) set).longValue(), param.name());
      } else {
        assertEquals(expected, set, param.name());
      }
    }
  }

  /** A valid value for the param, typed as PySpark's Connect client sends a Python value. */
  private static Object asPythonSendsIt(SavedModelTransformer transformer, Param<?> param) {
    if (param instanceof IntParam || param instanceof LongParam) {
      return 1;  // a Python int within 32 bits travels as an integer literal
    } else if (param instanceof DoubleParam || param instanceof FloatParam) {
      return 1.0;
    } else if (param instanceof BooleanParam) {
      return true;
    } else if (param instanceof StringArrayParam) {
      return new String[] {"x"};
    } else if (param.getClass() == Param.class) {
      return transformer.hasDefault(param) ? transformer.getDefault(param).get() : "x";
    }
    throw new AssertionError("no value for param " + param.name() + " of "
        + param.getClass().getName() + ": add one as PySpark would send it");
  }

  /** Runs a script of src/test/python with the PySpark venv's Python; fails with its output. */
  private static void runClient(String script, String... args) throws Exception {
    String python = System.getProperty("tfjni.test.pyspark.python", "");
    assertFalse(python.isBlank(), "set tfjni.test.pyspark.python to the PySpark venv's python"
        + " (scripts/common.sh's maven_settings does)");
    List<String> command = new ArrayList<>(List.of(python,
        Path.of("src/test/python", script).toAbsolutePath().toString()));
    command.addAll(List.of(args));
    Path log = work.resolve(script + ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().put("PYTHONPATH", Path.of("src/main/python").toAbsolutePath()
        .toString());
    Process client = builder.start();
    if (!client.waitFor(CLIENT_LIMIT_MINUTES, TimeUnit.MINUTES)) {
      client.destroyForcibly().waitFor();
      fail(script + " still ran after " + CLIENT_LIMIT_MINUTES + " minutes; its output:\n"
          + Files.readString(log));
    }
    if (client.exitValue() != 0) {
      fail(script + " failed (exit " + client.exitValue() + "); its output:\n"
          + Files.readString(log));
    }
  }

  /** A client's rows ([id, [probabilities]]) against TensorFlow Python's, every digit once. */
  private static void assertPythonsProbabilities(float[] python, Path json) throws IOException {
    JsonNode rows = new ObjectMapper().readTree(json.toFile());
    assertEquals(DIGITS, rows.size(), json + ": one row per digit");
    boolean[] seen = new boolean[DIGITS];
    for (JsonNode row : rows) {
      int id = row.get(0).asInt();
      assertFalse(seen[id], json + ": digit " + id + " twice");
      seen[id] = true;
      JsonNode probabilities = row.get(1);
      assertEquals(10, probabilities.size(), json + ": digit " + id);
      for (int c = 0; c < 10; c++) {
        float expected = python[id * 10 + c];
        assertEquals(expected, (float) probabilities.get(c).asDouble(),
            1e-6 + 1e-5 * Math.abs(expected), json + ": digit " + id + " class " + c);
      }
    }
  }
}
