// Models whose graph calls Python are found in the GraphDef, its functions included.
#include "tfjni/python_ops.h"

#include "test_data.h"
#include "tfjni/wire_format.h"

namespace tfjni::test {
namespace {

using PythonOpsTest = LeakCheckedTest;

// A NodeDef's bytes: name (field 1) and op (field 2), as node_def.proto numbers them.
std::string node(std::string_view name, std::string_view op) {
  wire::Writer node;
  node.bytes(1, name);
  node.bytes(2, op);
  return node.data();
}

// A FunctionDef: its signature (an OpDef, field 1, named by its field 1) and node_def (field 3).
std::string function(std::string_view name, std::initializer_list<std::string> nodes) {
  wire::Writer signature;
  signature.bytes(1, name);
  wire::Writer function;
  function.bytes(1, signature.data());
  for (const std::string& n : nodes) function.bytes(3, n);
  return function.data();
}

// A GraphDef of top-level nodes (field 1) and a library (field 2) of functions (its field 1).
std::string graph(std::initializer_list<std::string> nodes,
                  std::initializer_list<std::string> functions) {
  wire::Writer library;
  for (const std::string& f : functions) library.bytes(1, f);
  wire::Writer graph;
  for (const std::string& n : nodes) graph.bytes(1, n);
  if (functions.size() > 0) graph.bytes(2, library.data());
  return graph.data();
}

TEST_F(PythonOpsTest, AGraphOfTensorFlowOpsCallsNoPython) {
  std::string g = graph({node("x", "Placeholder"), node("call", "StatefulPartitionedCall")},
                        {function("f", {node("add", "AddV2"), node("py_name", "Identity")})});
  EXPECT_EQ(find_python_op(g), "");
  EXPECT_NO_THROW(refuse_python_ops(g, "model"));
  EXPECT_EQ(find_python_op(""), "");
}

TEST_F(PythonOpsTest, ATopLevelPythonOpIsNamedWithItsNode) {
  EXPECT_EQ(find_python_op(graph({node("x", "Placeholder"), node("p", "PyFunc")}, {})),
            "op 'PyFunc' (node 'p')");
}

TEST_F(PythonOpsTest, APythonOpInAFunctionIsNamedWithItsNodeAndFunction) {
  std::string g = graph({node("call", "StatefulPartitionedCall")},
                        {function("__inference_f_12", {node("add", "AddV2")}),
                         function("__inference_g_34", {node("EagerPyFunc", "EagerPyFunc")})});
  EXPECT_EQ(find_python_op(g), "op 'EagerPyFunc' (node 'EagerPyFunc' of function '__inference_g_34')");
  EXPECT_TRUE(throws_error([&] { refuse_python_ops(g, "SavedModel '/m'"); }, TF_UNIMPLEMENTED,
                           {"SavedModel '/m' calls Python", "op 'EagerPyFunc'",
                            "__inference_g_34", "tf.py_function"}));
}

TEST_F(PythonOpsTest, EachOpThatCallsPythonIsFound) {
  for (const char* op : {"EagerPyFunc", "PyFunc", "PyFuncStateless"}) {
    EXPECT_NE(find_python_op(graph({}, {function("f", {node("n", op)})})), "") << op;
  }
  // Names that only look alike are other ops.
  for (const char* op : {"PyFuncX", "EagerPy", "pyfunc"}) {
    EXPECT_EQ(find_python_op(graph({node("n", op)}, {})), "") << op;
  }
}

TEST_F(PythonOpsTest, MalformedBytesAreDataLoss) {
  EXPECT_TRUE(throws_error([] { find_python_op(std::string("\x0a\x05" "ab", 4)); }, TF_DATA_LOSS,
                           {"malformed"}));
}

}  // namespace
}  // namespace tfjni::test
