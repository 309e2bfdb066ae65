package io.tfjni.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A slow sink holds the job back: it waits, in the task of the source and the async operator,
 * until the test releases it, so the task takes no more records. While it is held, the records
 * the function has taken and not yet passed on never number more than the operator's capacity,
 * every one of them has its prediction made, and tfjni's native memory is back where it was (the
 * predictions are copied out of the batch's tensors); once released, every record gets TensorFlow
 * Python's prediction.
 */
@ExtendWith(TestModels.NoLeaks.class)
class BackpressureTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = FlinkTests.twoSlotCluster();

  private static final int DIGITS = FlinkTests.DIGITS;
  private static final int RECORDS = 1000;
  private static final int CAPACITY = 16;
  private static final int BATCH = 4;

  private static float[] images;
  private static float[] pythonProbabilities;

  /** Records the function has read (handed to it by the async operator). */
  private static final AtomicLong TAKEN = new AtomicLong();
  /** Records the function has predicted. */
  private static final AtomicLong PREDICTED = new AtomicLong();
  /** Records the async operator has passed on. */
  private static final AtomicLong PASSED = new AtomicLong();
  /** The most records taken and not passed on, seen whenever one was taken. */
  private static final AtomicLong MOST_IN_FLIGHT = new AtomicLong();
  /** The most bytes of live native tensors, seen whenever a record was taken or predicted. */
  private static final AtomicLong MOST_TENSOR_BYTES = new AtomicLong();
  /** The slow sink waits on it. */
  private static volatile CountDownLatch release;
  /** Counted down when the slow sink starts waiting. */
  private static volatile CountDownLatch held;
  private static final ConcurrentHashMap<Integer, float[]> RECEIVED = new ConcurrentHashMap<>();

  @BeforeAll
  static void readGoldens() throws IOException {
    FlinkTests.Digits digits = FlinkTests.Digits.read();
    images = digits.images();
    pythonProbabilities = digits.probabilities();
  }

  private static void noteTensorBytes() {
    MOST_TENSOR_BYTES.accumulateAndGet(TensorFlow.liveObjects().tensorBytes(), Math::max);
  }

  private static float[] pixels(Tuple2<Integer, float[]> digit) {
    long taken = TAKEN.incrementAndGet();
    MOST_IN_FLIGHT.accumulateAndGet(taken - PASSED.get(), Math::max);
    noteTensorBytes();
    return digit.f1;
  }

  @Test
  void aHeldSinkBoundsTheRecordsInFlightAndEveryAnswerComesOnceReleased() throws Exception {
    TAKEN.set(0);
    PASSED.set(0);
    PREDICTED.set(0);
    MOST_IN_FLIGHT.set(0);
    RECEIVED.clear();
    release = new CountDownLatch(1);
    held = new CountDownLatch(1);
    long tensorBytesBefore = TensorFlow.liveObjects().tensorBytes();
    MOST_TENSOR_BYTES.set(tensorBytesBefore);
    float[] allImages = images;

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    DataStream<Tuple2<Integer, float[]>> digits = env.fromSequence(0, RECORDS - 1)
        .map(i -> {
          int image = (int) (i % DIGITS);
          float[] pixels = new float[64];
          System.arraycopy(allImages, image * 64, pixels, 0, 64);
          return Tuple2.of(i.intValue(), pixels);
        }).returns(Types.TUPLE(Types.INT, Types.PRIMITIVE_ARRAY(Types.FLOAT)));
    SavedModelAsyncFunction<Tuple2<Integer, float[]>, Tuple2<Integer, float[]>> function =
        SavedModelAsyncFunction.<Tuple2<Integer, float[]>>builder(
            TestModels.modelPath("digits").toString())
            .input("images", "pixels", BackpressureTest::pixels).maxBatchSize(BATCH)
            .build((digit, prediction) -> {
              PREDICTED.incrementAndGet();
              noteTensorBytes();
              return Tuple2.of(digit.f0, prediction.floats("output_0"));
            });
    AsyncDataStream.orderedWait(digits, function, 1, TimeUnit.MINUTES, CAPACITY)
        .returns(Types.TUPLE(Types.INT, Types.PRIMITIVE_ARRAY(Types.FLOAT)))
        // The slow sink, chained to the async operator: counts what the operator passes on,
        // and waits until the test releases it.
        .map(digit -> {
          PASSED.incrementAndGet();
          held.countDown();
          release.await();
          RECEIVED.put(digit.f0, digit.f1);
          return digit.f0;
        }).returns(Types.INT)
        .sinkTo(new DiscardingSink<>());
    JobClient job = env.executeAsync("a held sink");

    // Held: the task takes no more records; the batcher makes the predictions of those taken.
    held.await();
    while (PREDICTED.get() < TAKEN.get()) {
      Thread.onSpinWait();
    }
    long heldTaken = TAKEN.get();
    long heldPassed = PASSED.get();
    long tensorBytesHeld = TensorFlow.liveObjects().tensorBytes() - tensorBytesBefore;
    release.countDown();
    job.getJobExecutionResult().get();

    assertTrue(heldTaken - heldPassed <= CAPACITY, "held: " + heldTaken + " records taken, "
        + heldPassed + " passed on, beyond the capacity of " + CAPACITY);
    assertEquals(0, tensorBytesHeld, "held: native tensor bytes beyond those before the job");
    assertTrue(MOST_IN_FLIGHT.get() <= CAPACITY, "at most " + MOST_IN_FLIGHT.get()
        + " records taken and not passed on, beyond the capacity of " + CAPACITY);
    // A record's bytes in native tensors, at most: its rows of a batch's input and output
    // tensors (64 + 10 floats), and its own output row (10) until copied out (the queue holds
    // its input on the Java heap).
    long perRecord = (64 + 10 + 10) * Float.BYTES;
    long mostTensorBytes = MOST_TENSOR_BYTES.get() - tensorBytesBefore;
    assertTrue(mostTensorBytes <= CAPACITY * perRecord, "native tensor bytes "
        + mostTensorBytes + " beyond " + CAPACITY + " records' " + CAPACITY * perRecord);
    assertEquals(RECORDS, RECEIVED.size());
    for (int id = 0; id < RECORDS; id++) {
      float[] probabilities = RECEIVED.get(id);
      int image = id % DIGITS;
      for (int c = 0; c < 10; c++) {
        float expected = pythonProbabilities[image * 10 + c];
        assertEquals(expected, probabilities[c], 1e-6 + 1e-5 * Math.abs(expected),
            "record " + id + " class " + c);
      }
    }
    RECEIVED.clear();
  }
}
