package io.tfjni.examples.spark;

import io.tfjni.Tensor;
import io.tfjni.numpy.Npy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark example's data, around {@link ScoreDigits}: {@code write MODELS_DIR OUT.parquet}
 * turns the held-out digits into Parquet (id, label, pixels); {@code check SCORED.parquet...
 * MODELS_DIR} compares every scored probability of each file with TensorFlow Python's and exits 1
 * on a difference.
 */
public final class DigitsParquet {
  private DigitsParquet() {}

  public static void main(String[] args) throws Exception {
    Path models = Path.of(args[0].equals("write") ? args[1] : args[args.length - 1]);
    SparkSession spark = SparkSession.builder().appName("tfjni digits data").getOrCreate();
    try (Tensor images = Npy.read(models.resolve("digits_holdout_images.npy"));
        Tensor labels = Npy.read(models.resolve("digits_holdout_labels.npy"));
        Tensor probabilities = Npy.read(models.resolve("digits_holdout_probs.npy"))) {
      if (args[0].equals("write")) {
        write(spark, images.toFloatArray(), labels.toLongArray(), args[2]);
      } else {
        boolean allAgree = true;
        for (String scored : Arrays.copyOfRange(args, 1, args.length - 1)) {
          allAgree &= check(spark, probabilities.toFloatArray(), scored);
        }
        if (!allAgree) {
          System.exit(1);
        }
      }
    } finally {
      spark.stop();
    }
  }

  private static void write(SparkSession spark, float[] pixels, long[] labels, String out) {
    int perImage = pixels.length / labels.length;
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < labels.length; i++) {
      List<Float> image = new ArrayList<>(perImage);
      for (int j = 0; j < perImage; j++) {
        image.add(pixels[i * perImage + j]);
      }
      rows.add(RowFactory.create(i, labels[i], image));
    }
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("label", DataTypes.LongType)
        .add("pixels", DataTypes.createArrayType(DataTypes.FloatType, false));
    spark.createDataFrame(rows, schema).repartition(4).write().mode("overwrite").parquet(out);
  }

  private static boolean check(SparkSession spark, float[] expected, String scored) {
    int correct = 0;
    int count = 0;
    double worst = 0;
    for (Row row : spark.read().parquet(scored).collectAsList()) {
      int id = row.getInt(row.fieldIndex("id"));
      List<Float> p = row.getList(row.fieldIndex("probabilities"));
      int best = 0;
      for (int c = 0; c < p.size(); c++) {
        worst = Math.max(worst, Math.abs(p.get(c) - expected[id * p.size() + c]));
        best = p.get(c) > p.get(best) ? c : best;
      }
      correct += best == row.getLong(row.fieldIndex("label")) ? 1 : 0;
      count++;
    }
    System.out.printf("%s: %d rows scored on Spark: accuracy %.2f%%, max |p - p_python| = %.2e%n",
        Path.of(scored).getFileName(), count, 100.0 * correct / count, worst);
    return count == expected.length / 10 && worst <= 1e-5;
  }
}
