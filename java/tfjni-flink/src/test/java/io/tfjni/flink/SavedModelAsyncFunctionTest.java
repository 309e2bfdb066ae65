package io.tfjni.flink;

import static io.tfjni.flink.FlinkTests.causes;
import static io.tfjni.flink.FlinkTests.messageNaming;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The async function on a MiniCluster of one TaskManager with 2 slots, against TensorFlow
 * Python's outputs: the digits CNN's held-out probabilities and the wide model's 20 outputs.
 * Every test ends with tfjni's live native objects where they were: the last operator closed the
 * model.
 */
@ExtendWith(TestModels.NoLeaks.class)
class SavedModelAsyncFunctionTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = FlinkTests.twoSlotCluster();

  private static final int DIGITS = FlinkTests.DIGITS;
  private static final TypeInformation<Tuple2<Integer, float[]>> ID_AND_FLOATS =
      Types.TUPLE(Types.INT, Types.PRIMITIVE_ARRAY(Types.FLOAT));

  private static float[] images;
  private static float[] pythonProbabilities;

  /** The most models live in this JVM while a job's predictions were made. */
  private static final AtomicLong MOST_LIVE_MODELS = new AtomicLong();

  @BeforeAll
  static void readGoldens() throws IOException {
    FlinkTests.Digits digits = FlinkTests.Digits.read();
    images = digits.images();
    pythonProbabilities = digits.probabilities();
  }

  private static List<Tuple2<Integer, float[]>> digitRecords() {
    List<Tuple2<Integer, float[]>> records = new ArrayList<>();
    for (int i = 0; i < DIGITS; i++) {
      float[] pixels = new float[64];
      System.arraycopy(images, i * 64, pixels, 0, 64);
      records.add(Tuple2.of(i, pixels));
    }
    return records;
  }

  private static SavedModelAsyncFunction.Builder<Tuple2<Integer, float[]>> digitsFunction(
      FieldReader<Tuple2<Integer, float[]>> pixels) {
    return SavedModelAsyncFunction.<Tuple2<Integer, float[]>>builder(
        TestModels.modelPath("digits").toString()).input("images", "pixels", pixels)
        .maxBatchSize(16);
  }

  private static DataStream<Tuple2<Integer, float[]>> scoreDigits(StreamExecutionEnvironment env,
      DataStream<Tuple2<Integer, float[]>> digits,
      SavedModelAsyncFunction.Builder<Tuple2<Integer, float[]>> function) {
    return AsyncDataStream.unorderedWait(digits, function.build((digit, prediction) -> {
      MOST_LIVE_MODELS.accumulateAndGet(TensorFlow.liveObjects().savedModels(), Math::max);
      return Tuple2.of(digit.f0, prediction.floats("output_0"));
    }), 1, TimeUnit.MINUTES, 64).returns(ID_AND_FLOATS);
  }

  private static void assertPythonsProbabilities(List<Tuple2<Integer, float[]>> scored,
      int expectedCount) {
    assertEquals(expectedCount, scored.size());
    boolean[] seen = new boolean[DIGITS];
    for (Tuple2<Integer, float[]> digit : scored) {
      int id = digit.f0;
      assertTrue(!seen[id], "digit " + id + " came out twice");
      seen[id] = true;
      assertEquals(10, digit.f1.length);
      for (int c = 0; c < 10; c++) {
        float expected = pythonProbabilities[id * 10 + c];
        assertEquals(expected, digit.f1[c], 1e-6 + 1e-5 * Math.abs(expected),
            "digit " + id + " class " + c);
      }
    }
  }

  @Test
  void digitsAtParallelismTwoGiveTensorFlowPythonsProbabilitiesFromOneModel() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    long modelsBefore = TensorFlow.liveObjects().savedModels();
    MOST_LIVE_MODELS.set(0);
    DataStream<Tuple2<Integer, float[]>> digits = env.fromData(digitRecords(), ID_AND_FLOATS)
        .rebalance();
    List<Tuple2<Integer, float[]>> scored =
        scoreDigits(env, digits, digitsFunction(digit -> digit.f1)).executeAndCollect(DIGITS + 1);
    assertPythonsProbabilities(scored, DIGITS);
    assertEquals(modelsBefore + 1, MOST_LIVE_MODELS.get(), "the two subtasks share one model");
    assertEquals(modelsBefore, TensorFlow.liveObjects().savedModels(),
        "the last operator closed the model");
  }

  /**
   * Thread counts under the core's rule: inter-op -1 (every op on the batcher's thread) and 2 (a
   * pool of the model's own) give Python's probabilities; an intra-op count other than the one
   * the process's pool was sized with fails the operator's open, saying why.
   */
  @Test
  void threadCountsTakeEffectOrFailTheJob() throws Exception {
    // The process's intra-op pool is sized by its first model: load one with the default.
    SavedModel.load(TestModels.modelPath("digits")).close();
    for (int interOp : new int[] {-1, 2}) {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(2);
      List<Tuple2<Integer, float[]>> scored = scoreDigits(env,
          env.fromData(digitRecords(), ID_AND_FLOATS).rebalance(),
          digitsFunction(digit -> digit.f1).interOpThreads(interOp))
          .executeAndCollect(DIGITS + 1);
      assertPythonsProbabilities(scored, DIGITS);
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    Exception refused = assertThrows(Exception.class, () -> scoreDigits(env,
        env.fromData(digitRecords(), ID_AND_FLOATS).rebalance(),
        digitsFunction(digit -> digit.f1).intraOpThreads(1)).executeAndCollect(DIGITS + 1));
    assertNotNull(messageNaming(refused, "intra-op threads 1 cannot take effect"),
        () -> causes(refused));
  }

  /**
   * preferLiteRt: digits was converted to LiteRT at batch 1 and 4 (scripts/goldens/litert_convert.py,
   * what {@code tfjni convert} runs). With batches of one row every run is LiteRT's (each
   * subtask logs its LiteRT predictor); with batches of up to 16, those of 1 or 4 rows run on
   * LiteRT and the others on TensorFlow. Either way every digit gets TensorFlow Python's
   * probabilities, within the manifest's LiteRT tolerance. Without it no LiteRT predictor is made.
   */
  @Test
  void preferLiteRtRunsConvertedBatchSizesOnLiteRt() throws Exception {
    FlinkTests.Digits digits = FlinkTests.Digits.read();
    for (int maxBatch : new int[] {1, 16}) {
      for (int threads : new int[] {0, 1}) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        List<Tuple2<Integer, float[]>> scored;
        List<String> lines;
        try (FlinkTests.LiteRtLog log = new FlinkTests.LiteRtLog()) {
          scored = scoreDigits(env, env.fromData(digitRecords(), ID_AND_FLOATS).rebalance(),
              digitsFunction(digit -> digit.f1).maxBatchSize(maxBatch).preferLiteRt(threads))
              .executeAndCollect(DIGITS + 1);
          lines = log.lines();
        }
        String what = "batches of up to " + maxBatch + ", preferLiteRt(" + threads + ")";
        assertEquals(DIGITS, scored.size(), what);
        for (Tuple2<Integer, float[]> digit : scored) {
          digits.assertPythonsOnLiteRt(digit.f0, digit.f1, what + ", digit " + digit.f0);
        }
        if (threads == 0) {
          assertEquals(List.of(), lines, what);
        } else {
          assertTrue(lines.stream().anyMatch(l -> l.contains("at batch 1 runs on LiteRT")),
              what + ": " + lines);
        }
      }
    }
    assertThrows(IllegalArgumentException.class,
        () -> digitsFunction(digit -> digit.f1).preferLiteRt(-1));
  }

  /**
   * Each batch's runtime, from its DEBUG line: with batches of up to 16, the first 20 digits run
   * as a batch of 16 (full at once, so it never waits for the delay) on TensorFlow, as digits was
   * not converted at 16, then, once the delay has passed, the other 4 on LiteRT, converted at 4.
   */
  @Test
  void aBatchOfAConvertedSizeRunsOnLiteRtAndAnotherSizeOnTensorFlow() throws Exception {
    assertEquals(List.of("a batch of 16 rows runs on TensorFlow",
        "a batch of 4 rows runs on LiteRT"), batchesOfDigits(20));
  }

  /**
   * A batch smaller than a converted size runs on LiteRT, padded up to it: the first 19 digits
   * run as a batch of 16 on TensorFlow, then a batch of 3 padded to 4 on LiteRT.
   */
  @Test
  void aBatchSmallerThanAConvertedSizeRunsOnLiteRtPaddedUpToIt() throws Exception {
    assertEquals(List.of("a batch of 16 rows runs on TensorFlow",
        "a batch of 3 rows, padded to 4, runs on LiteRT"), batchesOfDigits(19));
  }

  /**
   * The batches in which the first {@code count} digits run, on one subtask preferring LiteRT,
   * in batches of up to 16 that wait up to 5 s for more records: each batch's DEBUG line, in
   * order. Every digit must get TensorFlow Python's probabilities, within the manifest's LiteRT
   * tolerance.
   */
  private static List<String> batchesOfDigits(int count) throws Exception {
    FlinkTests.Digits digits = FlinkTests.Digits.read();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    List<Tuple2<Integer, float[]>> scored;
    try (FlinkTests.BatchLog log = new FlinkTests.BatchLog()) {
      scored = scoreDigits(env, env.fromData(digitRecords().subList(0, count), ID_AND_FLOATS),
          digitsFunction(digit -> digit.f1).maxBatchSize(16).maxDelay(Duration.ofSeconds(5))
              .preferLiteRt(1)).executeAndCollect(count + 1);
      assertEquals(count, scored.size());
      for (Tuple2<Integer, float[]> digit : scored) {
        digits.assertPythonsOnLiteRt(digit.f0, digit.f1, "digit " + digit.f0);
      }
      return log.lines();
    }
  }

  /** The wide model: 20 inputs of one float per record, 20 outputs, as Python computed them. */
  @Test
  void everyOutputOfAMultiOutputSignatureMatchesPython() throws Exception {
    JsonNode call = TestModels.testCase("wide_scale_each").get("calls").get(0);
    List<String> keys = TestModels.fieldNames(call.get("inputs"));
    List<String> outputKeys = TestModels.fieldNames(call.get("outputs"));
    float[][] inputs = new float[keys.size()][];
    float[][] outputs = new float[outputKeys.size()][];
    for (int k = 0; k < keys.size(); k++) {
      try (Tensor x = TestModels.tensor(call.get("inputs").get(keys.get(k)));
          Tensor y = TestModels.tensor(call.get("outputs").get(outputKeys.get(k)))) {
        inputs[k] = x.toFloatArray();
        outputs[k] = y.toFloatArray();
      }
    }
    int rows = inputs[0].length;
    List<Tuple2<Integer, float[]>> records = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      float[] values = new float[keys.size()];
      for (int k = 0; k < keys.size(); k++) {
        values[k] = inputs[k][r];
      }
      records.add(Tuple2.of(r, values));
    }
    SavedModelAsyncFunction.Builder<Tuple2<Integer, float[]>> builder =
        SavedModelAsyncFunction.<Tuple2<Integer, float[]>>builder(
            TestModels.modelPath("wide").toString()).signatureKey("scale_each");
    for (int k = 0; k < keys.size(); k++) {
      int field = k;
      builder.input(keys.get(k), "values[" + k + "]", record -> new float[] {record.f1[field]});
    }
    builder.outputs(outputKeys.toArray(new String[0]));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<Tuple2<Integer, float[]>> scored = AsyncDataStream.unorderedWait(
        env.fromData(records, ID_AND_FLOATS).rebalance(),
        builder.build((record, prediction) -> {
          float[] values = new float[outputKeys.size()];
          for (int k = 0; k < values.length; k++) {
            float[] row = prediction.floats(outputKeys.get(k));
            assertEquals(1, row.length);
            values[k] = row[0];
          }
          return Tuple2.of(record.f0, values);
        }), 1, TimeUnit.MINUTES, 8).returns(ID_AND_FLOATS).executeAndCollect(rows + 1);
    assertEquals(rows, scored.size());
    for (Tuple2<Integer, float[]> record : scored) {
      for (int k = 0; k < outputKeys.size(); k++) {
        assertEquals(outputs[k][record.f0], record.f1[k], TestModels.FLOAT_TOLERANCE,
            "row " + record.f0 + " output " + outputKeys.get(k));
      }
    }
  }

  /** Digit 5 has 63 pixels, digit 7 doubles, digit 9 none: each fails the job, naming itself. */
  private static Object badPixels(Tuple2<Integer, float[]> digit) {
    return switch (digit.f0) {
      case 5 -> java.util.Arrays.copyOf(digit.f1, 63);
      case 7 -> new double[64];
      case 9 -> null;
      default -> digit.f1;
    };
  }

  @Test
  void aBadRecordFailsTheJobNamingTheFieldAndTheRecord() throws Exception {
    String[][] cases = {{"5", "has 63 elements"}, {"7", "is a double[]"}, {"9", "is null"}};
    for (String[] c : cases) {
      int bad = Integer.parseInt(c[0]);
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(1);
      // Five good records, then the bad one: record 5 of the only subtask.
      List<Tuple2<Integer, float[]>> records = new ArrayList<>(digitRecords().subList(0, 5));
      records.add(digitRecords().get(bad));
      // The source in a task of its own: a failure in the source's task can be reported as a
      // lost split event instead of the record's exception.
      Exception failure = assertThrows(Exception.class, () -> scoreDigits(env,
          env.fromData(records, ID_AND_FLOATS).rebalance(),
          digitsFunction(SavedModelAsyncFunctionTest::badPixels)).executeAndCollect(DIGITS));
      String message = messageNaming(failure, "tfjni-flink:");
      assertNotNull(message, () -> "no cause names the record: " + causes(failure));
      assertTrue(message.contains("field 'pixels' (input 'images') of record 5 of subtask 0 (("
          + bad + ",") && message.contains(c[1])
          && message.contains("expected float[] of 64 elements (FLOAT [8, 8, 1] per record)"),
          message);
    }
  }

  @Test
  void badRecordsAreSkippedWhenAsked() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<Tuple2<Integer, float[]>> scored = scoreDigits(env,
        env.fromData(digitRecords(), ID_AND_FLOATS).rebalance(),
        digitsFunction(SavedModelAsyncFunctionTest::badPixels)
            .invalidRecords(InvalidRecords.SKIP)).executeAndCollect(DIGITS + 1);
    assertPythonsProbabilities(scored, DIGITS - 3);
    assertTrue(scored.stream().noneMatch(d -> d.f0 == 5 || d.f0 == 7 || d.f0 == 9));
  }

  /**
   * Settings the model cannot take fail the operator's open, naming what is wrong: an input left
   * unfed and an output without a batch dimension (the core library's words), a signature the
   * model lacks.
   */
  @Test
  void settingsTheModelCannotTakeFailTheJobSayingWhy() {
    String multi = TestModels.modelPath("multi").toString();
    List<SavedModelAsyncFunction.Builder<Tuple2<Integer, float[]>>> builders = List.of(
        SavedModelAsyncFunction.<Tuple2<Integer, float[]>>builder(multi).signatureKey("add")
            .input("a", "values", record -> record.f1),
        SavedModelAsyncFunction.<Tuple2<Integer, float[]>>builder(multi).signatureKey("scale")
            .input("x", "values", record -> record.f1),
        SavedModelAsyncFunction.<Tuple2<Integer, float[]>>builder(multi).signatureKey("nosuch")
            .input("x", "values", record -> record.f1));
    String[] expected = {"signature 'add' was not given input 'b'",
        "output 'total' has shape [], which is not batch-major",
        "nosuch"};
    for (int i = 0; i < expected.length; i++) {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(1);
      DataStream<Tuple2<Integer, float[]>> records =
          env.fromData(List.of(Tuple2.of(0, new float[3])), ID_AND_FLOATS).rebalance();
      SavedModelAsyncFunction<Tuple2<Integer, float[]>, Integer> function =
          builders.get(i).build((record, prediction) -> record.f0);
      Exception failure = assertThrows(Exception.class, () -> AsyncDataStream.unorderedWait(
          records, function, 1, TimeUnit.MINUTES, 8).returns(Types.INT).executeAndCollect(2));
      String words = expected[i];
      assertNotNull(messageNaming(failure, words), () -> words + " in: " + causes(failure));
    }
  }

  private static void awaitTermination(JobClient job) throws Exception {
    while (!job.getJobStatus().get().isTerminalState()) {
      Thread.onSpinWait();
    }
  }

  /** Counts down as predictions reach the sink of the cancel test. */
  private static volatile CountDownLatch predictionsSeen;

  @Test
  void cancellingAnEndlessJobClosesEveryModel() throws Exception {
    long modelsBefore = TensorFlow.liveObjects().savedModels();
    predictionsSeen = new CountDownLatch(100);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    float[] pixels = java.util.Arrays.copyOf(images, 64);
    DataStream<Tuple2<Integer, float[]>> endless = env.fromSequence(0, Long.MAX_VALUE)
        .map(i -> Tuple2.of((int) (i % DIGITS), pixels)).returns(ID_AND_FLOATS);
    scoreDigits(env, endless, digitsFunction(digit -> digit.f1))
        .map(digit -> {
          predictionsSeen.countDown();
          return digit.f0;
        }).returns(Types.INT)
        .sinkTo(new DiscardingSink<>());
    JobClient job = env.executeAsync("endless digits");
    predictionsSeen.await();
    assertEquals(modelsBefore + 1, TensorFlow.liveObjects().savedModels(), "running: one model");
    job.cancel().get();
    awaitTermination(job);
    assertEquals(modelsBefore, TensorFlow.liveObjects().savedModels(),
        "cancelled: the last operator closed the model");
    assertEquals(0, TensorFlow.liveObjects().runners(), "cancelled: every predictor closed");
  }

  private static final AtomicBoolean CHECKPOINT_COMPLETED = new AtomicBoolean();
  private static final AtomicBoolean FAILURE_INJECTED = new AtomicBoolean();

  /** Passes records on, and throws once: at the first record after a completed checkpoint. */
  private static final class FailOnceAfterACheckpoint
      implements MapFunction<Tuple2<Integer, float[]>, Tuple2<Integer, float[]>>,
      CheckpointListener {
    private static final long serialVersionUID = 1;

    @Override
    public Tuple2<Integer, float[]> map(Tuple2<Integer, float[]> digit) {
      if (CHECKPOINT_COMPLETED.get() && FAILURE_INJECTED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure");
      }
      return digit;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      CHECKPOINT_COMPLETED.set(true);
    }
  }

  /**
   * With checkpoints every 10 ms, an operator after the model fails once, at the first record
   * after a completed checkpoint, and the job restarts from that checkpoint. The source is
   * endless, so the failure comes however fast the machine is; the test reads the collecting
   * sink (which delivers only checkpointed results, so exactly once) until the failure has
   * happened and 3,600 predictions came. In order (one ordered subtask), they are records 0, 1,
   * 2, ...: none lost, none repeated, each TensorFlow Python's.
   */
  @Test
  void afterAFailureTheJobRestartsFromTheCheckpointAndLosesOrRepeatsNothing() throws Exception {
    CHECKPOINT_COMPLETED.set(false);
    FAILURE_INJECTED.set(false);
    float[][] byImage = new float[DIGITS][];
    for (Tuple2<Integer, float[]> digit : digitRecords()) {
      byImage[digit.f0] = digit.f1;
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.enableCheckpointing(10);
    DataStream<Tuple2<Integer, float[]>> endless = env.fromSequence(0, Integer.MAX_VALUE)
        .map(i -> Tuple2.of(i.intValue(), byImage[(int) (i % DIGITS)])).returns(ID_AND_FLOATS);
    DataStream<Tuple2<Integer, float[]>> scored = AsyncDataStream.orderedWait(endless,
        digitsFunction(digit -> digit.f1).build(
            (digit, prediction) -> Tuple2.of(digit.f0, prediction.floats("output_0"))),
        1, TimeUnit.MINUTES, 64).returns(ID_AND_FLOATS)
        .map(new FailOnceAfterACheckpoint()).returns(ID_AND_FLOATS);
    List<Tuple2<Integer, float[]>> received = new ArrayList<>();
    CloseableIterator<Tuple2<Integer, float[]>> results = scored.collectAsync();
    JobClient job = env.executeAsync("endless digits, one failure");
    try {
      while (received.size() < 10 * DIGITS || !FAILURE_INJECTED.get()) {
        received.add(results.next());
      }
    } finally {
      results.close();
      job.cancel().get();
      awaitTermination(job);
    }
    for (int i = 0; i < received.size(); i++) {
      Tuple2<Integer, float[]> digit = received.get(i);
      assertEquals(i, digit.f0, "the " + i + "th prediction");
      int image = i % DIGITS;
      for (int c = 0; c < 10; c++) {
        float expected = pythonProbabilities[image * 10 + c];
        assertEquals(expected, digit.f1[c], 1e-6 + 1e-5 * Math.abs(expected),
            "record " + i + " class " + c);
      }
    }
  }
}
