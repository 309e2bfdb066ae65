// TensorFlow data types: names and element sizes, without loading TensorFlow.
#pragma once

#include <tensorflow/c/tf_datatype.h>

#include <cstddef>
#include <string>

namespace tfjni {

// Bytes per element for fixed-size types; 0 for strings and other
// variable-size types (resource, variant).
size_t dtype_size(TF_DataType dtype) noexcept;

// TensorFlow's enum name without the prefix, e.g. "FLOAT", "UINT16".
std::string dtype_name(TF_DataType dtype);

bool is_known_dtype(int code) noexcept;

}  // namespace tfjni
