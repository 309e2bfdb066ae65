// The attributes TensorFlow holds for an op, read back from TFE_OpAttrsSerialize
// with our wire reader, so a setter's effect can be checked even where no op
// would run with it. Shared by the eager tests and eager_attrs_fuzz: no
// GoogleTest here (the fuzz targets do not link it). A malformed message
// throws (std::runtime_error, or tfjni::Error from the wire reader).
#pragma once

#include <tensorflow/c/c_api.h>
#include <tensorflow/c/eager/c_api_experimental.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tfjni/eager.h"
#include "tfjni/error.h"
#include "tfjni/wire_format.h"

namespace tfjni::test {

struct ShapeValue {
  bool unknown_rank = false;
  std::vector<int64_t> dims;
  bool operator==(const ShapeValue&) const = default;
};

inline std::ostream& operator<<(std::ostream& out, const ShapeValue& shape) {
  if (shape.unknown_rank) return out << "<unknown rank>";
  out << "[";
  for (size_t i = 0; i < shape.dims.size(); ++i) out << (i ? "," : "") << shape.dims[i];
  return out << "]";
}

// A tensor attribute by its dtype and shape; its values are TensorFlow's business.
struct TensorValue {
  int64_t dtype = 0;
  ShapeValue shape;
  bool operator==(const TensorValue&) const = default;
};

// A decoded tensorflow.AttrValue: `which` names the oneof field that is set
// ("s", "i", "f", "b", "type", "shape", "tensor" or "list"). Floats are kept
// as their bits, so comparing two values tells NaN payloads and -0 from 0.
// Dtype codes stay 64-bit: a code outside int's range must not pass for another.
struct AttrValue {
  std::string_view which;  // always one of the literals above
  std::string s;
  int64_t i = 0;
  uint32_t f_bits = 0;
  bool b = false;
  int64_t type = 0;
  ShapeValue shape;
  TensorValue tensor;
  std::vector<std::string> list_s;
  std::vector<int64_t> list_i;
  std::vector<uint32_t> list_f_bits;
  std::vector<bool> list_b;
  std::vector<int64_t> list_type;
  std::vector<ShapeValue> list_shape;

  float f() const { return std::bit_cast<float>(f_bits); }
  std::vector<float> list_f() const {
    std::vector<float> values;
    for (uint32_t bits : list_f_bits) values.push_back(std::bit_cast<float>(bits));
    return values;
  }
  bool operator==(const AttrValue&) const = default;
};

namespace detail {

inline std::vector<uint64_t> packed_varints(std::string_view bytes) {
  std::vector<uint64_t> values;
  while (!bytes.empty()) {
    uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      if (bytes.empty() || shift >= 64) throw std::runtime_error("bad packed varint");
      auto byte = static_cast<uint8_t>(bytes.front());
      bytes.remove_prefix(1);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    values.push_back(value);
  }
  return values;
}

// memcpy: the wire's little-endian order is this (x86-64) host's.
inline std::vector<uint32_t> packed_fixed32(std::string_view bytes) {
  if (bytes.size() % 4 != 0) throw std::runtime_error("bad packed fixed32");
  std::vector<uint32_t> values(bytes.size() / 4);
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

inline ShapeValue decode_shape(std::string_view bytes) {
  ShapeValue shape;
  wire::Reader r(bytes);
  while (r.next()) {
    if (r.field() == 2) {  // Dim { int64 size = 1; string name = 2; }
      int64_t size = 0;
      wire::Reader dim(r.bytes());
      while (dim.next()) {
        if (dim.field() == 1) size = static_cast<int64_t>(dim.varint());
      }
      shape.dims.push_back(size);
    } else if (r.field() == 3) {
      shape.unknown_rank = r.varint() != 0;
    }
  }
  return shape;
}

// tensorflow.ListValue: s = 2, i = 3, f = 4, b = 5, type = 6, shape = 7; numbers packed.
inline void decode_list(std::string_view bytes, AttrValue& value) {
  wire::Reader r(bytes);
  while (r.next()) {
    switch (r.field()) {
      case 2: value.list_s.emplace_back(r.bytes()); break;
      case 3:
        for (uint64_t v : packed_varints(r.bytes())) value.list_i.push_back(static_cast<int64_t>(v));
        break;
      case 4:
        for (uint32_t v : packed_fixed32(r.bytes())) value.list_f_bits.push_back(v);
        break;
      case 5:
        for (uint64_t v : packed_varints(r.bytes())) value.list_b.push_back(v != 0);
        break;
      case 6:
        for (uint64_t v : packed_varints(r.bytes())) value.list_type.push_back(static_cast<int64_t>(v));
        break;
      case 7: value.list_shape.push_back(decode_shape(r.bytes())); break;
      default: throw std::runtime_error("unexpected ListValue field " + std::to_string(r.field()));
    }
  }
}

// tensorflow.TensorProto: dtype = 1, tensor_shape = 2.
inline TensorValue decode_tensor(std::string_view bytes) {
  TensorValue tensor;
  wire::Reader r(bytes);
  while (r.next()) {
    if (r.field() == 1) tensor.dtype = static_cast<int64_t>(r.varint());
    if (r.field() == 2) tensor.shape = decode_shape(r.bytes());
  }
  return tensor;
}

}  // namespace detail

// tensorflow.AttrValue: list = 1, s = 2, i = 3, f = 4, b = 5, type = 6, shape = 7, tensor = 8.
inline AttrValue decode_attr_value(std::string_view bytes) {
  AttrValue value;
  wire::Reader r(bytes);
  while (r.next()) {
    switch (r.field()) {
      case 1: value.which = "list"; detail::decode_list(r.bytes(), value); break;
      case 2: value.which = "s"; value.s = std::string(r.bytes()); break;
      case 3: value.which = "i"; value.i = static_cast<int64_t>(r.varint()); break;
      case 4: value.which = "f"; value.f_bits = r.fixed32(); break;
      case 5: value.which = "b"; value.b = r.varint() != 0; break;
      case 6: value.which = "type"; value.type = static_cast<int64_t>(r.varint()); break;
      case 7: value.which = "shape"; value.shape = detail::decode_shape(r.bytes()); break;
      case 8: value.which = "tensor"; value.tensor = detail::decode_tensor(r.bytes()); break;
      default: throw std::runtime_error("unexpected AttrValue field " + std::to_string(r.field()));
    }
  }
  return value;
}

// What TFE_OpAttrsSerialize writes for `op`: a tensorflow.NameAttrList. The
// caller checks `status`, so it can silence TensorFlow's logging around this
// call alone (eager_attrs_fuzz does).
inline std::string serialized_attrs(const Op& op, Status& status) {
  std::unique_ptr<TF_Buffer, decltype(&TF_DeleteBuffer)> buffer(TF_NewBuffer(), TF_DeleteBuffer);
  TFE_OpAttrsSerialize(TFE_OpGetAttrs(op.get()), buffer.get(), status.get());
  return std::string(static_cast<const char*>(buffer->data), buffer->length);
}

// tensorflow.NameAttrList { string name = 1; map<string, AttrValue> attr = 2; }
inline std::map<std::string, AttrValue> decode_attrs(std::string_view bytes) {
  std::map<std::string, AttrValue> attrs;
  wire::Reader r(bytes);
  while (r.next()) {
    if (r.field() != 2) continue;
    std::string key;
    AttrValue value;
    wire::Reader entry(r.bytes());
    while (entry.next()) {
      if (entry.field() == 1) key = std::string(entry.bytes());
      if (entry.field() == 2) value = decode_attr_value(entry.bytes());
    }
    attrs[key] = std::move(value);
  }
  return attrs;
}

// Every attribute TensorFlow holds for `op` (set, or inferred from inputs).
inline std::map<std::string, AttrValue> attrs_of(const Op& op) {
  Status status;
  const std::string bytes = serialized_attrs(op, status);
  status.check();
  return decode_attrs(bytes);
}

inline AttrValue attr_of(const Op& op, const std::string& name) {
  auto attrs = attrs_of(op);
  auto it = attrs.find(name);
  if (it == attrs.end()) throw std::runtime_error("the op holds no attribute '" + name + "'");
  return it->second;
}

}  // namespace tfjni::test
