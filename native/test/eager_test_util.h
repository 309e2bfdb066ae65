// Helpers of the eager tests: tensors from values and back, and the attributes
// TensorFlow holds for an op (TFE_OpAttrsSerialize, read with our wire reader),
// so a setter's effect can be checked even where no op would run with it.
#pragma once

#include <tensorflow/c/c_api.h>
#include <tensorflow/c/eager/c_api_experimental.h>

#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "test_data.h"
#include "tfjni/eager.h"
#include "tfjni/wire_format.h"

namespace tfjni::test {

// ---- Tensors and handles ----------------------------------------------------

template <typename T>
Tensor tensor_of(TF_DataType dtype, const std::vector<int64_t>& dims, const std::vector<T>& values) {
  return Tensor::copy_of(dtype, dims, values.data(), values.size() * sizeof(T));
}

inline Tensor strings_of(const std::vector<int64_t>& dims, const std::vector<std::string>& values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  return Tensor::strings(dims, views);
}

template <typename T>
TensorHandle handle_of(TF_DataType dtype, const std::vector<int64_t>& dims, const std::vector<T>& values) {
  return TensorHandle::from_tensor(tensor_of(dtype, dims, values));
}

inline TensorHandle scalar_i32(int32_t value) { return handle_of<int32_t>(TF_INT32, {}, {value}); }

// The elements of a fixed-size tensor (T must match the dtype's element size).
template <typename T>
std::vector<T> values_of(const Tensor& t) {
  auto count = static_cast<size_t>(t.num_elements());
  if (t.byte_size() != count * sizeof(T)) {
    throw std::logic_error("values_of: " + std::to_string(t.byte_size()) + " bytes are not " +
                           std::to_string(count) + " elements of " + std::to_string(sizeof(T)) + " bytes");
  }
  std::vector<T> values(count);
  if (count > 0) std::memcpy(values.data(), t.data(), t.byte_size());
  return values;
}

template <typename T>
std::vector<T> values_of(const TensorHandle& h) {
  return values_of<T>(h.resolve());
}

inline std::vector<std::string> strings_in(const Tensor& t) {
  std::vector<std::string> values;
  for (int64_t i = 0; i < t.num_elements(); ++i) values.emplace_back(t.string_at(i));
  return values;
}

// The context's CPU device, e.g. "/job:localhost/replica:0/task:0/device:CPU:0".
inline std::string cpu_device(const Context& context) {
  for (const std::string& name : context.devices()) {
    if (name.ends_with("/device:CPU:0")) return name;
  }
  throw std::runtime_error("the context lists no CPU:0 device");
}

// A serialized tensorflow.Example with features a: [1.5, 2.5, -3] and b: [7, -8].
// tensorflow.Example { Features features = 1; } Features { map<string, Feature> feature = 1; }
// Feature { FloatList float_list = 2; Int64List int64_list = 3; }, packed values.
inline std::string example_proto() {
  auto varint = [](std::string& out, uint64_t v) {
    for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    out.push_back(static_cast<char>(v));
  };
  std::string floats;
  for (float f : {1.5f, 2.5f, -3.0f}) floats.append(reinterpret_cast<const char*>(&f), 4);
  wire::Writer float_list;
  float_list.bytes(1, floats);
  std::string ints;
  varint(ints, 7);
  varint(ints, static_cast<uint64_t>(int64_t{-8}));
  wire::Writer int64_list;
  int64_list.bytes(1, ints);
  wire::Writer feature_a, feature_b;
  feature_a.bytes(2, float_list.data());
  feature_b.bytes(3, int64_list.data());
  wire::Writer entry_a, entry_b;
  entry_a.bytes(1, "a");
  entry_a.bytes(2, feature_a.data());
  entry_b.bytes(1, "b");
  entry_b.bytes(2, feature_b.data());
  wire::Writer features;
  features.bytes(1, entry_a.data());
  features.bytes(1, entry_b.data());
  wire::Writer example;
  example.bytes(1, features.data());
  return example.data();
}

// ---- Attributes as TensorFlow holds them ------------------------------------

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

// A decoded tensorflow.AttrValue: `which` names the oneof field that is set
// ("s", "i", "f", "b", "type", "shape", "tensor" or "list").
struct AttrValue {
  std::string_view which;  // always one of the literals below
  std::string s;
  int64_t i = 0;
  float f = 0;
  bool b = false;
  int type = 0;
  ShapeValue shape;
  std::string tensor;  // serialized TensorProto
  std::vector<std::string> list_s;
  std::vector<int64_t> list_i;
  std::vector<float> list_f;
  std::vector<bool> list_b;
  std::vector<int> list_type;
  std::vector<ShapeValue> list_shape;
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

inline std::vector<float> packed_floats(std::string_view bytes) {
  if (bytes.size() % 4 != 0) throw std::runtime_error("bad packed floats");
  std::vector<float> values(bytes.size() / 4);
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

}  // namespace detail

inline AttrValue decode_attr_value(std::string_view bytes) {
  AttrValue value;
  // A float is the one fixed32 field (f = 4): the message is then exactly its
  // tag 0x25 and four little-endian bytes (AttrValue's fields form a oneof).
  if (bytes.size() == 5 && static_cast<uint8_t>(bytes[0]) == 0x25) {
    value.which = "f";
    std::memcpy(&value.f, bytes.data() + 1, 4);
    return value;
  }
  wire::Reader r(bytes);
  while (r.next()) {
    switch (r.field()) {
      case 1: {
        value.which = "list";
        wire::Reader list(r.bytes());
        while (list.next()) {
          switch (list.field()) {
            case 2: value.list_s.emplace_back(list.bytes()); break;
            case 3:
              for (uint64_t v : detail::packed_varints(list.bytes())) value.list_i.push_back(static_cast<int64_t>(v));
              break;
            case 4:
              for (float v : detail::packed_floats(list.bytes())) value.list_f.push_back(v);
              break;
            case 5:
              for (uint64_t v : detail::packed_varints(list.bytes())) value.list_b.push_back(v != 0);
              break;
            case 6:
              for (uint64_t v : detail::packed_varints(list.bytes())) value.list_type.push_back(static_cast<int>(v));
              break;
            case 7: value.list_shape.push_back(detail::decode_shape(list.bytes())); break;
            default: throw std::runtime_error("unexpected ListValue field " + std::to_string(list.field()));
          }
        }
        break;
      }
      case 2: value.which = "s"; value.s = std::string(r.bytes()); break;
      case 3: value.which = "i"; value.i = static_cast<int64_t>(r.varint()); break;
      case 5: value.which = "b"; value.b = r.varint() != 0; break;
      case 6: value.which = "type"; value.type = static_cast<int>(r.varint()); break;
      case 7: value.which = "shape"; value.shape = detail::decode_shape(r.bytes()); break;
      case 8: value.which = "tensor"; value.tensor = std::string(r.bytes()); break;
      default: throw std::runtime_error("unexpected AttrValue field " + std::to_string(r.field()));
    }
  }
  return value;
}

// Every attribute TensorFlow holds for `op` (set, or inferred from inputs).
inline std::map<std::string, AttrValue> attrs_of(const Op& op) {
  std::unique_ptr<TF_Buffer, decltype(&TF_DeleteBuffer)> buffer(TF_NewBuffer(), TF_DeleteBuffer);
  Status status;
  TFE_OpAttrsSerialize(TFE_OpGetAttrs(op.get()), buffer.get(), status.get());
  status.check();
  // tensorflow.NameAttrList { string name = 1; map<string, AttrValue> attr = 2; }
  const std::string bytes(static_cast<const char*>(buffer->data), buffer->length);
  std::map<std::string, AttrValue> attrs;
  wire::Reader r(bytes);
  while (r.next()) {
    if (r.field() != 2) continue;
    std::string key;
    std::string_view value;
    wire::Reader entry(r.bytes());
    while (entry.next()) {
      if (entry.field() == 1) key = std::string(entry.bytes());
      if (entry.field() == 2) value = entry.bytes();
    }
    attrs[key] = decode_attr_value(value);
  }
  return attrs;
}

inline AttrValue attr_of(const Op& op, const std::string& name) {
  auto attrs = attrs_of(op);
  auto it = attrs.find(name);
  if (it == attrs.end()) throw std::runtime_error("the op holds no attribute '" + name + "'");
  return it->second;
}

}  // namespace tfjni::test
