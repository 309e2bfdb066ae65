// TensorFlow data types: names and element sizes, without loading TensorFlow.
// The table knows every TF_DataType code up to TensorFlow 2.21's (FLOAT4_E2M1FN = 33), also
// when the TensorFlow tfjni is built against predates some of them: a newer libtensorflow
// loaded at run time hands out tensors of those types.
#pragma once

#include <tensorflow/c/tf_datatype.h>

#include <cstddef>
#include <string>

namespace tfjni {

// The functions take the code as an int: a TF_DataType enum of an older header cannot hold
// every newer code (2.18's ends at TF_UINT4 = 30, so 32 and 33 lie outside its range).

// Bytes per element for fixed-size types; 0 for strings and other
// variable-size types (resource, variant) and unknown codes.
size_t dtype_size(int dtype) noexcept;

// TensorFlow's enum name without the prefix, e.g. "FLOAT", "UINT16"; "DTYPE_<code>" for a
// code the table does not know.
std::string dtype_name(int dtype);

bool is_known_dtype(int code) noexcept;

}  // namespace tfjni
