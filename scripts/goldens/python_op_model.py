"""A SavedModel whose serving signature calls Python (tf.py_function), for the test that tfjni
refuses it at load with its own message rather than running it.

usage: python_op_model.py OUT_DIR
"""
import sys

import tensorflow as tf


class CallsPython(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def serve(self, x):
        doubled = tf.py_function(lambda v: v * 2.0, [x], tf.float32)  # the EagerPyFunc op
        return {"y": doubled}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.strip())
    module = CallsPython()
    tf.saved_model.save(module, sys.argv[1], signatures={"serving_default": module.serve})
