"""PySpark face of tfjni's Spark transformer (io.tfjni.spark.SavedModelTransformer).

Put tfjni-spark, tfjni and a TensorFlow runtime artifact (io.tfjni:tfjni-tensorflow-cpu) on
Spark's class path (spark.jars), and this file on the Python path; then:

    from tfjni_spark import SavedModelTransformer
    scored = SavedModelTransformer(modelPath="/models/digits", inputCols=["pixels"],
                                   inputKeys=["images"], outputKeys=["output_0"],
                                   outputCols=["probabilities"]).transform(df)

Every parameter is the Java transformer's (see its documentation); unset ones keep its defaults.

It is saved and loaded as Spark ML stages are, alone (``transformer.write().save(path)``,
``SavedModelTransformer.load(path)``) or in a pipeline (``PipelineModel.load(path)``), and what
either language saved loads in the other. Import this module before loading a pipeline that holds
the transformer: PySpark finds a stage's Python class by its Java class name.

The same class works over Spark Connect (a session from ``SparkSession.builder.remote(url)``):
PySpark then sends the Java class's name and the params set to the server, which builds, runs,
saves and loads the Java transformer there. The server needs the jars on its class path
(``--jars`` or ``spark.jars`` when it starts); the client needs only this file and PySpark's
Connect client (``pyspark[connect]``).
"""
import sys

from pyspark import keyword_only
from pyspark.ml.param import Param, Params, TypeConverters
from pyspark.ml.util import JavaMLReadable, JavaMLWritable
from pyspark.ml.wrapper import JavaTransformer

_JAVA_CLASS = "io.tfjni.spark.SavedModelTransformer"


def _param(name, doc, converter):
    return Param(Params._dummy(), name, doc, typeConverter=converter)


class SavedModelTransformer(JavaTransformer, JavaMLReadable, JavaMLWritable):
    """Runs a TensorFlow SavedModel's signature over a DataFrame, one model per executor JVM."""

    # PySpark's readers, classic and Connect, name the Java class of a stage to load by the Python
    # class's module and name, and find the Python class of a loaded stage by its Java class's
    # name: so the class poses as living in the Java class's package (registered below).
    __module__ = _JAVA_CLASS.rsplit(".", 1)[0]

    modelPath = _param("modelPath", "the SavedModel directory, SparkFiles name or zip",
                       TypeConverters.toString)
    tags = _param("tags", "the MetaGraph's tags", TypeConverters.toListString)
    signatureKey = _param("signatureKey", "the signature to run", TypeConverters.toString)
    inputCols = _param("inputCols", "the columns fed to the model", TypeConverters.toListString)
    inputKeys = _param("inputKeys", "the signature inputs they feed", TypeConverters.toListString)
    outputKeys = _param("outputKeys", "the signature outputs to add", TypeConverters.toListString)
    outputCols = _param("outputCols", "the new columns' names", TypeConverters.toListString)
    batchSize = _param("batchSize", "rows per model call", TypeConverters.toInt)
    intraOpThreads = _param("intraOpThreads", "threads one op may use", TypeConverters.toInt)
    interOpThreads = _param("interOpThreads", "threads running ops at once", TypeConverters.toInt)
    preferLiteRt = _param("preferLiteRt", "threads of each converted LiteRT model (0: none)",
                          TypeConverters.toInt)
    handleInvalid = _param("handleInvalid", "error, skip or keep", TypeConverters.toString)
    stringsAsBinary = _param("stringsAsBinary", "string outputs as binary",
                             TypeConverters.toBoolean)

    @keyword_only
    def __init__(self, *, modelPath=None, tags=None, signatureKey=None, inputCols=None,
                 inputKeys=None, outputKeys=None, outputCols=None, batchSize=None,
                 intraOpThreads=None, interOpThreads=None, preferLiteRt=None,
                 handleInvalid=None, stringsAsBinary=None):
        super().__init__()
        self._java_obj = self._new_java_obj(_JAVA_CLASS, self.uid)
        self._set(**self._input_kwargs)


# Where PySpark looks for the Python class of the Java class's name (the pipelines' stages in
# JavaParams._from_java, a stage loaded over Connect): this module, under the Java package's name.
sys.modules[SavedModelTransformer.__module__] = sys.modules[__name__]
