// A SavedModel loaded through TensorFlow's C API alone (no tfjni code): the
// floor that no binding over the same C API can beat.
#pragma once

#include <tensorflow/c/c_api.h>

#include <memory>
#include <string>

#include "bench_manifest.h"

namespace floor_bench {

struct TensorDeleter {
  void operator()(TF_Tensor* t) const { TF_DeleteTensor(t); }
};
using TensorPtr = std::unique_ptr<TF_Tensor, TensorDeleter>;

struct StatusDeleter {
  void operator()(TF_Status* s) const { TF_DeleteStatus(s); }
};
using StatusPtr = std::unique_ptr<TF_Status, StatusDeleter>;

struct GraphDeleter {
  void operator()(TF_Graph* g) const { TF_DeleteGraph(g); }
};
struct SessionDeleter {
  void operator()(TF_Session* s) const;  // closes, then deletes
};

// A serialized ConfigProto setting TensorFlow's two thread pools.
std::string thread_config(int intra_op_threads, int inter_op_threads);

// The graph output named like "op:index" (or "op", index 0); throws if absent.
TF_Output find_tensor(TF_Graph* graph, const std::string& name);

class CApiModel {
 public:
  // Loads the case's model (tag "serve") with the given thread pools and
  // resolves its input and output tensors. Throws std::runtime_error.
  CApiModel(const BenchCase& bench_case, int intra_op_threads, int inter_op_threads);

  TF_Session* session() const { return session_.get(); }
  TF_Graph* graph() const { return graph_.get(); }
  const TF_Output& input() const { return input_; }
  const TF_Output& output() const { return output_; }

  // A new input tensor holding the case's input data.
  TensorPtr make_input() const;
  // One TF_SessionRun; throws on failure.
  TensorPtr run(TF_Tensor* input) const;
  // Runs once and compares with TensorFlow Python's output; throws on a mismatch.
  void check_output() const;

 private:
  const BenchCase& case_;
  // Declared in this order so that the session goes before its graph.
  std::unique_ptr<TF_Graph, GraphDeleter> graph_;
  std::unique_ptr<TF_Session, SessionDeleter> session_;
  TF_Output input_{}, output_{};
};

}  // namespace floor_bench
