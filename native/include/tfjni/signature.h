// SignatureDefs of a SavedModel, parsed from a serialized MetaGraphDef.
#pragma once

#include <tensorflow/c/tf_datatype.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfjni {

struct TensorSpec {
  std::string key;          // the signature's name for it
  std::string tensor_name;  // graph tensor, "op:index"; empty if not dense
  TF_DataType dtype = static_cast<TF_DataType>(0);  // 0: none, or a code tfjni does not know
  std::vector<int64_t> shape;  // -1 for an unknown dimension
  bool unknown_rank = false;
};

struct SignatureDef {
  std::string key;
  std::string method;
  std::vector<TensorSpec> inputs;   // sorted by key
  std::vector<TensorSpec> outputs;  // sorted by key

  const TensorSpec* find_input(std::string_view input_key) const noexcept;
  const TensorSpec* find_output(std::string_view output_key) const noexcept;
};

// All SignatureDefs of a MetaGraphDef, sorted by key, less the entries the
// loader runs itself (__saved_model_init_op, __saved_model_train_op). Throws
// DATA_LOSS for malformed bytes.
std::vector<SignatureDef> parse_signature_defs(std::string_view meta_graph_def);

// "[-1,4]", or "<unknown rank>".
std::string shape_string(const std::vector<int64_t>& shape, bool unknown_rank = false);

}  // namespace tfjni
