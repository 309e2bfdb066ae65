"""The PySpark wrapper as a Spark Connect client: builds the transformer with every param set,
scores the held-out digits on the server, saves and loads the transformer and a pipeline holding
it through the server, and writes what it got to JSON files whose probabilities the caller
(SparkConnectTest) compares with TensorFlow Python's:

  scored.json            the transformer built here
  loaded.json            the transformer saved through the server and loaded back
  pipeline.json          a pipeline model holding it, saved and loaded back
  (each a list of [id, [probability, ...]])

and the saved transformer in WORK_DIR/stage, whose params the caller reads with the JVM's reader.

Usage: python connect_check.py sc://HOST:PORT INPUT.parquet MODEL_DIR WORK_DIR
Fails (an AssertionError or the server's exception) if a check does not hold.
"""
import json
import sys

from pyspark.ml import PipelineModel
from pyspark.sql import SparkSession

from tfjni_spark import SavedModelTransformer

url, source, model, work = sys.argv[1:5]
spark = SparkSession.builder.remote(url).getOrCreate()
assert type(spark).__module__ == "pyspark.sql.connect.session", type(spark)
images = spark.read.parquet(source)                      # id, pixels: array<float>

# Every param, each set by its name: values other than the defaults where the model allows, so
# that a param the server drops or misreads shows in the saved stage (the caller checks it).
settings = dict(modelPath=model, tags=["serve"], signatureKey="serving_default",
                inputCols=["pixels"], inputKeys=["images"], outputKeys=["output_0"],
                outputCols=["probabilities"], batchSize=48, intraOpThreads=0, interOpThreads=-1,
                preferLiteRt=0, handleInvalid="skip", stringsAsBinary=True)
assert set(settings) == {p.name for p in SavedModelTransformer().params}, "a param is left out"


def write_scored(scored, name):
    assert scored.schema["probabilities"].dataType.simpleString() == "array<float>", scored.schema
    rows = [[row.id, list(row.probabilities)] for row in scored.select("id", "probabilities")
            .collect()]
    with open(f"{work}/{name}.json", "w") as out:
        json.dump(rows, out)


def expect_failure(run, *parts):
    try:
        run()
    except Exception as error:  # the server's exception, as the Connect client raises it
        message = str(error)
        assert all(part in message for part in parts), (parts, message)
        return
    raise AssertionError(f"no exception naming {parts}")


original = SavedModelTransformer(**settings)
write_scored(original.transform(images), "scored")

original.write().overwrite().save(f"{work}/stage")
loaded = SavedModelTransformer.load(f"{work}/stage")
assert type(loaded) is SavedModelTransformer, type(loaded)
assert loaded.uid == original.uid, (loaded.uid, original.uid)
for name, value in settings.items():
    assert loaded.isSet(name) and loaded.getOrDefault(name) == value, (name, value,
                                                                         loaded.getOrDefault(name))
write_scored(loaded.transform(images), "loaded")

PipelineModel(stages=[loaded]).write().overwrite().save(f"{work}/pipeline")
pipeline = PipelineModel.load(f"{work}/pipeline")
assert [type(s) for s in pipeline.stages] == [SavedModelTransformer], pipeline.stages
write_scored(pipeline.transform(images), "pipeline")

# Mistakes reach the client as the server's messages, naming what is wrong.
expect_failure(lambda: SavedModelTransformer(modelPath=model, inputCols=["pixels"],
                                             inputKeys=["nope"]).transform(images).collect(),
               "no input 'nope'", "images")
expect_failure(lambda: SavedModelTransformer(modelPath=model, inputCols=["pixels"],
                                             handleInvalid="sometimes").transform(images)
               .collect(), "handleInvalid", "sometimes")
spark.stop()
