// RAII over TF_Graph, with GraphDef import and tensor name lookup.
#pragma once

#include <tensorflow/c/c_api.h>

#include <memory>
#include <string_view>

#include "tfjni/live_objects.h"

namespace tfjni {

class Graph {
 public:
  Graph();
  // Imports a binary GraphDef; throws Error with TensorFlow's message.
  void import_graph_def(std::string_view graph_def, const char* name_prefix = "");
  // Resolves "op:index" (or "op", meaning index 0); throws INVALID_ARGUMENT
  // naming the tensor if the op or the index does not exist.
  TF_Output output(std::string_view tensor_name) const;

  TF_Graph* get() const noexcept { return graph_.get(); }

 private:
  struct Deleter {
    void operator()(TF_Graph* g) const noexcept { TF_DeleteGraph(g); }
  };
  std::unique_ptr<TF_Graph, Deleter> graph_;
  LiveToken token_{ObjectKind::kGraph};
};

}  // namespace tfjni
