package io.tfjni.examples.spark;

import io.tfjni.spark.SavedModelTransformer;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Parquet in, predictions out: scores every row's 64 pixels with the digits CNN on Spark.
 * Usage: ScoreDigits INPUT.parquet MODEL_DIR OUTPUT.parquet (with a Spark master set, e.g.
 * {@code -Dspark.master=local[2]}, or through spark-submit).
 */
public final class ScoreDigits {
  private ScoreDigits() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().appName("tfjni digits").getOrCreate();
    Dataset<Row> images = spark.read().parquet(args[0]);       // id, label, pixels: array<float>
    Dataset<Row> scored = new SavedModelTransformer()
        .setModelPath(args[1])
        .setInputCols("pixels").setInputKeys("images")           // column -> signature input
        .setOutputKeys("output_0").setOutputCols("probabilities")
        .setBatchSize(64)
        .transform(images);
    scored.select("id", "label", "probabilities").write().mode("overwrite").parquet(args[2]);
    spark.stop();
  }
}
