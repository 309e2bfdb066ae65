#include "tfjni/graph.h"

#include <string>

#include "tfjni/error.h"

namespace tfjni {
namespace {

struct ImportOptionsDeleter {
  void operator()(TF_ImportGraphDefOptions* o) const noexcept { TF_DeleteImportGraphDefOptions(o); }
};

}  // namespace

Graph::Graph() : graph_(TF_NewGraph()) {
  if (!graph_) throw std::bad_alloc();
}

void Graph::import_graph_def(std::string_view graph_def, const char* name_prefix) {
  std::unique_ptr<TF_ImportGraphDefOptions, ImportOptionsDeleter> options(
      TF_NewImportGraphDefOptions());
  TF_ImportGraphDefOptionsSetPrefix(options.get(), name_prefix);
  TF_Buffer buffer{graph_def.data(), graph_def.size(), nullptr};
  Status status;
  TF_GraphImportGraphDef(graph_.get(), &buffer, options.get(), status.get());
  status.check();
}

TF_Output Graph::output(std::string_view tensor_name) const {
  std::string op_name(tensor_name);
  int index = 0;
  size_t colon = tensor_name.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < tensor_name.size() &&
      tensor_name.size() - colon - 1 <= 9 &&
      tensor_name.find_first_not_of("0123456789", colon + 1) == std::string_view::npos) {
    op_name = std::string(tensor_name.substr(0, colon));
    index = std::stoi(std::string(tensor_name.substr(colon + 1)));
  }
  TF_Operation* op = TF_GraphOperationByName(graph_.get(), op_name.c_str());
  if (op == nullptr) {
    throw_invalid_argument("no operation '" + op_name + "' in the graph (tensor '" +
                           std::string(tensor_name) + "')");
  }
  int outputs = TF_OperationNumOutputs(op);
  if (index >= outputs) {
    throw_invalid_argument("operation '" + op_name + "' has " + std::to_string(outputs) +
                           " outputs, no output " + std::to_string(index));
  }
  return TF_Output{op, index};
}

}  // namespace tfjni
