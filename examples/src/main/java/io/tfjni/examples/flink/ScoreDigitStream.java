package io.tfjni.examples.flink;

import io.tfjni.flink.SavedModelAsyncFunction;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * A Flink job that scores the held-out digits with the digits CNN: (id, 64 pixels) records,
 * rebalanced to the async function's 2 subtasks, which share one model; then every probability
 * is compared with TensorFlow Python's. Usage: ScoreDigitStream MODELS_DIR (holding digits/ and
 * digits_holdout_{images,labels,probs}.npy). Run from {@code main}, the job runs in a local Flink
 * environment in this JVM; submitted to a cluster, on its TaskManagers. Exits 1 if any prediction
 * disagrees with Python's.
 */
public final class ScoreDigitStream {
  private static final TypeInformation<Tuple2<Integer, float[]>> ID_AND_FLOATS =
      Types.TUPLE(Types.INT, Types.PRIMITIVE_ARRAY(Types.FLOAT));

  private ScoreDigitStream() {}

  public static void main(String[] args) throws Exception {
    Path models = Path.of(args[0]);
    HeldOutDigits heldOut = HeldOutDigits.read(models);
    List<Tuple2<Integer, float[]>> digits = new ArrayList<>(heldOut.count());
    for (int i = 0; i < heldOut.count(); i++) {
      digits.add(Tuple2.of(i, heldOut.pixels(i)));
    }

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    DataStream<Tuple2<Integer, float[]>> records = env.fromData(digits, ID_AND_FLOATS).rebalance();
    DataStream<Tuple2<Integer, float[]>> predictions = AsyncDataStream.unorderedWait(records,
        SavedModelAsyncFunction.<Tuple2<Integer, float[]>>builder(
                models.resolve("digits").toString())
            .input("images", "pixels", digit -> digit.f1)   // signature input <- record field
            .maxBatchSize(32).maxDelay(Duration.ofMillis(5))
            .build((digit, prediction) -> Tuple2.of(digit.f0, prediction.floats("output_0"))),
        30, TimeUnit.SECONDS, 64)                           // per-record timeout, capacity
        .returns(ID_AND_FLOATS);
    // Runs the job; the iterator ends when the job has finished and closed its operators.
    int scored = 0;
    Map<Integer, float[]> byId = new HashMap<>();
    try (CloseableIterator<Tuple2<Integer, float[]>> results = predictions.executeAndCollect()) {
      while (results.hasNext()) {
        Tuple2<Integer, float[]> digit = results.next();
        byId.put(digit.f0, digit.f1);
        scored++;
      }
    }
    heldOut.checkAndExit("on Flink", scored, byId);
  }
}
