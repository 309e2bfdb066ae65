package io.tfjni.examples.flink;

import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.flink.SavedModelAsyncFunction;
import io.tfjni.numpy.Npy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    float[] pixels;
    long[] labels;
    float[] python;
    try (Tensor images = Npy.read(models.resolve("digits_holdout_images.npy"));
        Tensor truth = Npy.read(models.resolve("digits_holdout_labels.npy"));
        Tensor probabilities = Npy.read(models.resolve("digits_holdout_probs.npy"))) {
      pixels = images.toFloatArray();
      labels = truth.toLongArray();
      python = probabilities.toFloatArray();
    }
    int perImage = pixels.length / labels.length;
    List<Tuple2<Integer, float[]>> digits = new ArrayList<>(labels.length);
    for (int i = 0; i < labels.length; i++) {
      float[] image = new float[perImage];
      System.arraycopy(pixels, i * perImage, image, 0, perImage);
      digits.add(Tuple2.of(i, image));
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
    List<Tuple2<Integer, float[]>> scored = new ArrayList<>();
    try (CloseableIterator<Tuple2<Integer, float[]>> results = predictions.executeAndCollect()) {
      results.forEachRemaining(scored::add);
    }

    int classes = python.length / labels.length;
    int correct = 0;
    double worst = 0;
    boolean[] seen = new boolean[labels.length];
    int distinct = 0;
    for (Tuple2<Integer, float[]> digit : scored) {
      int id = digit.f0;
      distinct += seen[id] ? 0 : 1;
      seen[id] = true;
      int best = 0;
      for (int c = 0; c < classes; c++) {
        worst = Math.max(worst, Math.abs(digit.f1[c] - python[id * classes + c]));
        best = digit.f1[c] > digit.f1[best] ? c : best;
      }
      correct += best == labels[id] ? 1 : 0;
    }
    System.out.printf("%d digits scored on Flink: accuracy %.2f%%, max |p - p_python| = %.2e%n",
        scored.size(), 100.0 * correct / scored.size(), worst);
    boolean everyDigitOnce = scored.size() == labels.length && distinct == labels.length;
    System.out.println("live native objects after the job: " + TensorFlow.liveObjects().total());
    if (!everyDigitOnce || worst > 1e-5) {
      System.out.println("disagrees with TensorFlow Python");
      System.exit(1);
    }
  }
}
