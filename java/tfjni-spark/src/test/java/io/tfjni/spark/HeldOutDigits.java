package io.tfjni.spark;

import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.numpy.Npy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The digits CNN's held-out images and TensorFlow Python's probabilities for them, written by
 * scripts/goldens/generate_models.py beside the test models, and the data frame the Spark tests score.
 *
 * @param images {@link #COUNT} rows of {@link #PIXELS} floats
 * @param probabilities {@link #COUNT} rows of 10 probabilities, TensorFlow Python's
 */
record HeldOutDigits(float[] images, float[] probabilities) {
  static final int COUNT = 360;
  static final int PIXELS = 64;

  static HeldOutDigits read() throws IOException {
    try (Tensor x = Npy.read(TestModels.dir().resolve("digits_holdout_images.npy"));
        Tensor p = Npy.read(TestModels.dir().resolve("digits_holdout_probs.npy"))) {
      return new HeldOutDigits(x.toFloatArray(), p.toFloatArray());
    }
  }

  /** Columns id (int) and pixels (array of 64 floats), one row per digit, in {@code partitions}. */
  Dataset<Row> frame(SparkSession spark, int partitions) {
    List<Row> rows = new ArrayList<>(COUNT);
    for (int i = 0; i < COUNT; i++) {
      List<Float> pixels = new ArrayList<>(PIXELS);
      for (int j = 0; j < PIXELS; j++) {
        pixels.add(images[i * PIXELS + j]);
      }
      rows.add(RowFactory.create(i, pixels));
    }
    StructType schema = new StructType().add("id", DataTypes.IntegerType)
        .add("pixels", DataTypes.createArrayType(DataTypes.FloatType, false));
    return spark.createDataFrame(rows, schema).repartition(partitions);
  }
}
