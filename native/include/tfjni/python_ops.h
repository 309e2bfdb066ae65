// Models whose graph calls Python. tf.py_function and tf.numpy_function become ops (EagerPyFunc,
// PyFunc, PyFuncStateless) whose kernels call back into the Python interpreter that built the
// model. A process without Python cannot run them: libtensorflow for Linux and macOS registers the
// ops without kernels, so such a model loads and its first run fails; on Windows the C API lives in
// TensorFlow's Python module, which registers the kernels too, so the first run would call a
// Python that is not there and end the process. tfjni refuses such a model at load on every
// platform, with one message.
#pragma once

#include <string>
#include <string_view>

namespace tfjni {

// The first node of a serialized GraphDef, its function library included, whose op calls Python,
// described as "op 'EagerPyFunc' (node 'x' of function 'f')"; empty if there is none.
// Malformed bytes throw Error(DATA_LOSS).
std::string find_python_op(std::string_view graph_def);

// Throws Error(UNIMPLEMENTED) naming `model` and the op if the GraphDef has a node that calls
// Python.
void refuse_python_ops(std::string_view graph_def, const std::string& model);

}  // namespace tfjni
