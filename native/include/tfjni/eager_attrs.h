// A compact encoding of an op's attributes, so that a whole op crosses from
// Java in one call instead of one call per attribute. Little-endian:
//   u32 count, then per attribute: u8 kind, string name, value
//   string = u32 length + bytes; shape = i32 rank (-1: unknown) + i64 dims
//   kType i32 | kInt i64 | kFloat f32 | kBool u8 | kString string | kShape shape
//   kTensor i32 (index into the tensor attribute values passed beside it)
//   list kinds: u32 n + n values of the element kind
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "tfjni/eager.h"
#include "tfjni/tensor.h"

namespace tfjni {

enum class AttrKind : uint8_t {
  kType = 1,
  kInt,
  kFloat,
  kBool,
  kString,
  kShape,
  kTensor,
  kTypeList,
  kIntList,
  kFloatList,
  kBoolList,
  kStringList,
  kShapeList,
};

// Sets every encoded attribute on `op`; malformed bytes, a dtype code tfjni
// does not know (dtype.h), a name holding a NUL byte or a name given twice
// throw INVALID_ARGUMENT (the op may then hold some of the attributes).
void apply_encoded_attrs(Op& op, std::string_view encoded, std::span<const Tensor* const> tensors);

}  // namespace tfjni
