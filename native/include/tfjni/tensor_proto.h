// tensorflow.TensorProto (tensor.proto) read into a Tensor, as TensorFlow's Tensor::FromProto
// reads it: tensor_content when present, else the typed repeated field of the dtype (packed or
// not), with the last value repeated to fill the shape (no value: zeros).
#pragma once

#include <cstdint>
#include <string_view>

#include "tfjni/tensor.h"

namespace tfjni {

// Throws DATA_LOSS for malformed wire format, INVALID_ARGUMENT for a TensorProto that holds no
// tensor: an unknown or unsupported dtype, an unknown shape, tensor_content whose size does not
// match the shape, more values than elements, or a tensor over `max_bytes` (its element bytes,
// with a string's bytes counted per element).
Tensor tensor_from_proto(std::string_view tensor_proto, uint64_t max_bytes);

}  // namespace tfjni
