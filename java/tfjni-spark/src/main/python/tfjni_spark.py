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
"""
import sys

from pyspark import keyword_only
from pyspark.ml.param import Param, Params, TypeConverters
from pyspark.ml.util import JavaMLReadable, JavaMLReader, JavaMLWritable
from pyspark.ml.wrapper import JavaTransformer

_JAVA_CLASS = "io.tfjni.spark.SavedModelTransformer"


def _param(name, doc, converter):
    return Param(Params._dummy(), name, doc, typeConverter=converter)


class _Reader(JavaMLReader):
    """PySpark's reader of Java stages, pointed at the Java class (it guesses from the module)."""

    @classmethod
    def _java_loader_class(cls, clazz):
        return _JAVA_CLASS


class SavedModelTransformer(JavaTransformer, JavaMLReadable, JavaMLWritable):
    """Runs a TensorFlow SavedModel's signature over a DataFrame, one model per executor JVM."""

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
    handleInvalid = _param("handleInvalid", "error, skip or keep", TypeConverters.toString)
    stringsAsBinary = _param("stringsAsBinary", "string outputs as binary",
                             TypeConverters.toBoolean)

    @keyword_only
    def __init__(self, *, modelPath=None, tags=None, signatureKey=None, inputCols=None,
                 inputKeys=None, outputKeys=None, outputCols=None, batchSize=None,
                 intraOpThreads=None, interOpThreads=None, handleInvalid=None,
                 stringsAsBinary=None):
        super().__init__()
        self._java_obj = self._new_java_obj(_JAVA_CLASS, self.uid)
        self._set(**self._input_kwargs)

    @classmethod
    def read(cls):
        """A reader of transformers saved from Python, Java or Scala."""
        return _Reader(cls)


# PySpark loads a saved stage into the Python class named like its Java class (a pipeline's stages,
# JavaParams._from_java): under that name, this module is where it finds it.
sys.modules[_JAVA_CLASS.rsplit(".", 1)[0]] = sys.modules[__name__]
