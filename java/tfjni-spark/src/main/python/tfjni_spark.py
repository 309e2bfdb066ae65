"""PySpark face of tfjni's Spark transformer (io.tfjni.spark.SavedModelTransformer).

Put tfjni-spark, tfjni and a TensorFlow runtime artifact (io.tfjni:tfjni-tensorflow-cpu) on
Spark's class path (spark.jars), and this file on the Python path; then:

    from tfjni_spark import SavedModelTransformer
    scored = SavedModelTransformer(modelPath="/models/digits", inputCols=["pixels"],
                                   inputKeys=["images"], outputKeys=["output_0"],
                                   outputCols=["probabilities"]).transform(df)

Every parameter is the Java transformer's (see its documentation); unset ones keep its defaults.
"""
from pyspark import keyword_only
from pyspark.ml.param import Param, Params, TypeConverters
from pyspark.ml.wrapper import JavaTransformer


def _param(name, doc, converter):
    return Param(Params._dummy(), name, doc, typeConverter=converter)


class SavedModelTransformer(JavaTransformer):
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
        self._java_obj = self._new_java_obj("io.tfjni.spark.SavedModelTransformer", self.uid)
        self._set(**self._input_kwargs)
