#include "tfjni/python_ops.h"

#include <array>

#include "tfjni/error.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

// Field numbers of graph.proto, node_def.proto, function.proto and op_def.proto.
constexpr uint32_t kGraphDefNode = 1;
constexpr uint32_t kGraphDefLibrary = 2;
constexpr uint32_t kLibraryFunction = 1;
constexpr uint32_t kFunctionSignature = 1;
constexpr uint32_t kFunctionNodeDef = 3;
constexpr uint32_t kOpDefName = 1;
constexpr uint32_t kNodeName = 1;
constexpr uint32_t kNodeOp = 2;

// The ops whose kernels call the Python interpreter (tensorflow/python/ops/script_ops.py).
constexpr std::array<std::string_view, 3> kPythonOps = {"EagerPyFunc", "PyFunc",
                                                        "PyFuncStateless"};

// "op 'X' (node 'n')" if the NodeDef's op calls Python, else empty.
std::string python_node(std::string_view node_def) {
  std::string_view name, op;
  wire::Reader node(node_def);
  while (node.next()) {
    if (node.field() == kNodeName) name = node.bytes();
    if (node.field() == kNodeOp) op = node.bytes();
  }
  for (std::string_view python : kPythonOps) {
    if (op == python) return "op '" + std::string(op) + "' (node '" + std::string(name) + "'";
  }
  return {};
}

std::string_view function_name(std::string_view function_def) {
  wire::Reader function(function_def);
  while (function.next()) {
    if (function.field() != kFunctionSignature) continue;
    wire::Reader signature(function.bytes());
    while (signature.next()) {
      if (signature.field() == kOpDefName) return signature.bytes();
    }
  }
  return {};
}

std::string find_in_library(std::string_view library_bytes) {
  wire::Reader library(library_bytes);
  while (library.next()) {
    if (library.field() != kLibraryFunction) continue;
    wire::Reader function(library.bytes());
    while (function.next()) {
      if (function.field() != kFunctionNodeDef) continue;
      std::string found = python_node(function.bytes());
      if (!found.empty()) {
        return found + " of function '" + std::string(function_name(library.bytes())) + "')";
      }
    }
  }
  return {};
}

}  // namespace

std::string find_python_op(std::string_view graph_def) {
  wire::Reader graph(graph_def);
  while (graph.next()) {
    std::string found;
    if (graph.field() == kGraphDefNode) {
      found = python_node(graph.bytes());
      if (!found.empty()) found += ")";
    } else if (graph.field() == kGraphDefLibrary) {
      found = find_in_library(graph.bytes());
    }
    if (!found.empty()) return found;
  }
  return {};
}

void refuse_python_ops(std::string_view graph_def, const std::string& model) {
  std::string found = find_python_op(graph_def);
  if (found.empty()) return;
  throw_error(TF_UNIMPLEMENTED,
              model + " calls Python at run time: " + found +
                  " is tf.py_function or tf.numpy_function, whose kernel runs Python code, and "
                  "tfjni runs models without Python. Export the model without it (its work in "
                  "TensorFlow ops, or done before or after the model)");
}

}  // namespace tfjni
