"""TensorFlow Serving's warm-up file for the dtypes test model, written by TensorFlow Python.

write_warmup_requests(out_dir, run_saved_model_case) writes
dtypes/assets.extra/tf_serving_warmup_requests with tf.io.TFRecordWriter: one PredictionLog
(predict_log) per record, its inputs in the encodings TensorFlow Serving clients send
(tensor_content from tf.make_tensor_proto, and the typed repeated fields, one value repeated to
fill the shape). The manifest entry records, per record, what TensorFlow Python decodes
(tf.make_ndarray) and the outputs the reloaded model gives for it.
"""
import numpy as np
import tensorflow as tf
from tensorflow.core.framework import tensor_pb2, tensor_shape_pb2, types_pb2
from tensorflow_serving.apis import model_pb2, predict_pb2, prediction_log_pb2

from golden import encode_tensor

WARMUP_FILE = "assets.extra/tf_serving_warmup_requests"


def typed_proto(dtype, shape, **values):
    """A TensorProto with its values in a typed repeated field (float_val=..., int_val=...)."""
    proto = tensor_pb2.TensorProto(dtype=dtype, tensor_shape=tensor_shape_pb2.TensorShapeProto(
        dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=d) for d in shape]))
    for field, items in values.items():
        getattr(proto, field).extend(items)
    return proto


def half_bits(values, dtype):
    """The 16-bit patterns of float16/bfloat16 values, as half_val holds them."""
    return [int(b) for b in np.asarray(tf.constant(values, dtype).numpy()).view(np.uint16)]


def records():
    """(signature, encoding, TensorProto of input "x", output_filter) for each record."""
    f32 = np.array([[1.5, -2.25, 0.0], [3.0, 1e-3, -7.5]], np.float32)
    return [
        ("float32", "tensor_content", tf.make_tensor_proto(f32), []),
        ("float32", "float_val repeated", typed_proto(types_pb2.DT_FLOAT, [2, 3], float_val=[0.5, -1.0]), []),
        ("string", "string_val", tf.make_tensor_proto(
            np.array([[b"warm", b"", "h\u00e9llo".encode()], [b"a string longer than twenty-two bytes",
                                                              b"\x00\xff", b"x"]], dtype=object)), ["same"]),
        ("int64", "int64_val", typed_proto(types_pb2.DT_INT64, [1, 3],
                                           int64_val=[-2**63, -1, 2**63 - 1]), []),
        ("bool", "bool_val", typed_proto(types_pb2.DT_BOOL, [2, 3], bool_val=[True, False, True, True]), []),
        ("float16", "half_val", typed_proto(types_pb2.DT_HALF, [1, 3],
                                            half_val=half_bits([1.0, -0.5, 65504.0], tf.float16)), []),
        ("bfloat16", "half_val one value", typed_proto(types_pb2.DT_BFLOAT16, [2, 3],
                                                       half_val=half_bits([-3.0], tf.bfloat16)), []),
        ("int8", "int_val", typed_proto(types_pb2.DT_INT8, [1, 3], int_val=[-128, 127, -1]), []),
        ("uint16", "int_val", typed_proto(types_pb2.DT_UINT16, [1, 3], int_val=[0, 65535, 7]), []),
        ("int32", "int_val", typed_proto(types_pb2.DT_INT32, [1, 3], int_val=[-2**31, 2**31 - 1, 0]), []),
        ("uint32", "uint32_val", typed_proto(types_pb2.DT_UINT32, [1, 3], uint32_val=[2**32 - 1, 0, 9]), []),
        ("uint64", "uint64_val", typed_proto(types_pb2.DT_UINT64, [1, 3], uint64_val=[2**64 - 1, 1, 0]), []),
        ("float64", "double_val", typed_proto(types_pb2.DT_DOUBLE, [1, 3], double_val=[-0.1, 1e300, 2.5]), []),
        ("complex64", "scomplex_val", typed_proto(types_pb2.DT_COMPLEX64, [1, 3],
                                                  scomplex_val=[1.0, -2.0, 0.5, 0.25]), ["reversed"]),
        ("int16", "no values: zeros", typed_proto(types_pb2.DT_INT16, [2, 3]), []),
        ("float32", "tensor_content, no rows", tf.make_tensor_proto(np.zeros((0, 3), np.float32)), []),
    ]


def write_warmup_requests(out_dir, run_saved_model_case):
    path = out_dir / "dtypes" / WARMUP_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    entries = []
    with tf.io.TFRecordWriter(str(path)) as writer:
        for index, (signature, encoding, proto, output_filter) in enumerate(records()):
            request = predict_pb2.PredictRequest(
                model_spec=model_pb2.ModelSpec(name="dtypes", signature_name=signature),
                output_filter=output_filter)
            request.inputs["x"].CopyFrom(proto)
            log = prediction_log_pb2.PredictionLog(predict_log=prediction_log_pb2.PredictLog(request=request))
            writer.write(log.SerializeToString())
            x = tf.make_ndarray(proto)
            case = run_saved_model_case(out_dir, "warmup_%d" % index, "dtypes",
                                        [(signature, {"x": tf.constant(x, tf.as_dtype(proto.dtype))})])
            call = case["calls"][0]
            outputs = {k: v for k, v in call["outputs"].items() if not output_filter or k in output_filter}
            entries.append({"record_index": index, "signature": signature, "encoding": encoding,
                            "output_filter": output_filter, "inputs": {"x": encode_tensor(
                                tf.constant(x, tf.as_dtype(proto.dtype)))}, "outputs": outputs})
    return {"model": "dtypes", "file": "dtypes/" + WARMUP_FILE, "records": entries}
