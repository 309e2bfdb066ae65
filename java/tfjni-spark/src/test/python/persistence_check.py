"""The PySpark wrapper's persistence, across languages: writes three scored Parquet files whose
probabilities the caller compares with TensorFlow Python's (DigitsParquet check):

  stage-python.parquet     a transformer saved and loaded from Python
  pipeline-java.parquet    a pipeline saved from Python, loaded and run by Spark's JVM reader
  pipeline-python.parquet  a pipeline built and saved by the JVM, loaded and run from Python

Usage: python persistence_check.py INPUT.parquet MODEL_DIR WORK_DIR JARS (as score_digits.py).
Fails (an AssertionError or Spark's exception) if a load does not give back the saved params.
"""
import sys

from pyspark.ml import Pipeline, PipelineModel
from pyspark.sql import DataFrame, SparkSession

from tfjni_spark import SavedModelTransformer

source, model, work, jars = sys.argv[1:5]
spark = (SparkSession.builder.master("local[2]").appName("tfjni persistence (PySpark)")
         .config("spark.jars", jars).config("spark.ui.enabled", "false").getOrCreate())
jvm = spark.sparkContext._jvm
gateway = spark.sparkContext._gateway
images = spark.read.parquet(source)                      # id, label, pixels: array<float>


def write_scored(scored, name):
    scored.select("id", "label", "probabilities").write.mode("overwrite").parquet(
        f"{work}/{name}.parquet")


def java_array(java_class, values):
    array = gateway.new_array(java_class, len(values))
    for i, value in enumerate(values):
        array[i] = value
    return array


# A batch size other than the default, so that a load that drops a set param shows.
settings = dict(modelPath=model, inputCols=["pixels"], inputKeys=["images"],
                outputKeys=["output_0"], outputCols=["probabilities"], batchSize=48)

original = SavedModelTransformer(**settings)
original.write().overwrite().save(f"{work}/stage")
loaded = SavedModelTransformer.load(f"{work}/stage")
assert type(loaded) is SavedModelTransformer, type(loaded)
assert loaded.uid == original.uid, (loaded.uid, original.uid)
for name, value in settings.items():
    assert loaded.isSet(name) and loaded.getOrDefault(name) == value, (name, value)
assert not loaded.isSet("signatureKey") and loaded.getOrDefault("signatureKey") == "serving_default"
write_scored(loaded.transform(images), "stage-python")

Pipeline(stages=[loaded]).fit(images).write().overwrite().save(f"{work}/pipeline-from-python")
in_jvm = jvm.org.apache.spark.ml.PipelineModel.load(f"{work}/pipeline-from-python")
assert in_jvm.stages()[0].getBatchSize() == 48
write_scored(DataFrame(in_jvm.transform(images._jdf), spark), "pipeline-java")

strings = jvm.java.lang.String
stage = (jvm.io.tfjni.spark.SavedModelTransformer().setModelPath(model)
         .setInputCols(java_array(strings, ["pixels"]))
         .setInputKeys(java_array(strings, ["images"]))
         .setOutputKeys(java_array(strings, ["output_0"]))
         .setOutputCols(java_array(strings, ["probabilities"])).setBatchSize(48))
(jvm.org.apache.spark.ml.Pipeline()
 .setStages(java_array(jvm.org.apache.spark.ml.PipelineStage, [stage])).fit(images._jdf)
 .write().overwrite().save(f"{work}/pipeline-from-jvm"))
from_jvm = PipelineModel.load(f"{work}/pipeline-from-jvm")
assert [type(s) for s in from_jvm.stages] == [SavedModelTransformer], from_jvm.stages
assert from_jvm.stages[0].uid == stage.uid()
assert from_jvm.stages[0].getOrDefault("batchSize") == 48
write_scored(from_jvm.transform(images), "pipeline-python")
spark.stop()
