// Helpers of the eager tests: tensors from values and back, and (held_attrs.h)
// the attributes TensorFlow holds for an op.
#pragma once

#include <tensorflow/c/c_api.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "held_attrs.h"
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

}  // namespace tfjni::test
