"""Parquet in, predictions out, from PySpark: the Python twin of ScoreDigits.java.

Usage: python score_digits.py INPUT.parquet MODEL_DIR OUTPUT.parquet JARS
(JARS: comma-separated tfjni-spark, tfjni and tfjni-tensorflow-cpu jars, e.g. from ~/.m2; put
java/tfjni-spark/src/main/python on PYTHONPATH for tfjni_spark).
"""
import sys

from pyspark.sql import SparkSession

from tfjni_spark import SavedModelTransformer

source, model, target, jars = sys.argv[1:5]
spark = (SparkSession.builder.master("local[2]").appName("tfjni digits (PySpark)")
         .config("spark.jars", jars).config("spark.ui.enabled", "false").getOrCreate())
images = spark.read.parquet(source)                      # id, label, pixels: array<float>
scored = SavedModelTransformer(modelPath=model,
                               inputCols=["pixels"], inputKeys=["images"],
                               outputKeys=["output_0"], outputCols=["probabilities"],
                               batchSize=64).transform(images)
scored.select("id", "label", "probabilities").write.mode("overwrite").parquet(target)
spark.stop()
