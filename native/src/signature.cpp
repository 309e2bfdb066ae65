#include "tfjni/signature.h"

#include <algorithm>
#include <cstdint>

#include "tfjni/dtype.h"
#include "tfjni/error.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

// Field numbers from meta_graph.proto and tensor_shape.proto.
constexpr uint32_t kMetaGraphSignatureDef = 5;
constexpr uint32_t kMapKey = 1;
constexpr uint32_t kMapValue = 2;
constexpr uint32_t kSignatureInputs = 1;
constexpr uint32_t kSignatureOutputs = 2;
constexpr uint32_t kSignatureMethod = 3;
constexpr uint32_t kTensorInfoName = 1;
constexpr uint32_t kTensorInfoDtype = 2;
constexpr uint32_t kTensorInfoShape = 3;
constexpr uint32_t kShapeDim = 2;
constexpr uint32_t kShapeUnknownRank = 3;
constexpr uint32_t kDimSize = 1;

// Entries of the signature map that are not functions to call: the ops TensorFlow's loader runs
// itself (saved_model/signature_constants.py), as TensorFlow Python's `signatures` leaves out.
bool is_loader_entry(std::string_view key) {
  return key == "__saved_model_init_op" || key == "__saved_model_train_op";
}

// proto3 enums are open: a TensorInfo may carry a code TF_DataType has no value
// for (a reference type such as DT_FLOAT_REF = 101, or a type newer than
// tfjni). Converting that to the enum is undefined behaviour, so it reads as 0,
// "no dtype", as for an op without outputs.
TF_DataType dtype_of(uint64_t code) {
  bool known = code <= static_cast<uint64_t>(INT32_MAX) && is_known_dtype(static_cast<int>(code));
  return static_cast<TF_DataType>(known ? code : 0);
}

void parse_shape(std::string_view bytes, TensorSpec& spec) {
  wire::Reader shape(bytes);
  while (shape.next()) {
    if (shape.field() == kShapeDim) {
      // proto3 leaves size 0 off the wire: a dim without a size has size 0.
      int64_t size = 0;
      wire::Reader dim(shape.bytes());
      while (dim.next()) {
        if (dim.field() == kDimSize) size = static_cast<int64_t>(dim.varint());
      }
      spec.shape.push_back(size < 0 ? -1 : size);
    } else if (shape.field() == kShapeUnknownRank) {
      spec.unknown_rank = shape.varint() != 0;
    }
  }
  if (spec.unknown_rank) spec.shape.clear();
}

TensorSpec parse_tensor_info(std::string key, std::string_view bytes) {
  TensorSpec spec;
  spec.key = std::move(key);
  wire::Reader info(bytes);
  while (info.next()) {
    switch (info.field()) {
      case kTensorInfoName: spec.tensor_name = info.bytes(); break;
      case kTensorInfoDtype: spec.dtype = dtype_of(info.varint()); break;
      case kTensorInfoShape: parse_shape(info.bytes(), spec); break;
      default: break;
    }
  }
  return spec;
}

// A map<string, V> entry: returns the key and the value's bytes.
std::pair<std::string, std::string_view> parse_map_entry(std::string_view bytes) {
  std::pair<std::string, std::string_view> entry;
  wire::Reader reader(bytes);
  while (reader.next()) {
    if (reader.field() == kMapKey) entry.first = reader.bytes();
    if (reader.field() == kMapValue) entry.second = reader.bytes();
  }
  return entry;
}

SignatureDef parse_signature(std::string key, std::string_view bytes) {
  SignatureDef def;
  def.key = std::move(key);
  wire::Reader reader(bytes);
  while (reader.next()) {
    switch (reader.field()) {
      case kSignatureInputs:
      case kSignatureOutputs: {
        auto [name, value] = parse_map_entry(reader.bytes());
        auto& specs = reader.field() == kSignatureInputs ? def.inputs : def.outputs;
        specs.push_back(parse_tensor_info(std::move(name), value));
        break;
      }
      case kSignatureMethod: def.method = reader.bytes(); break;
      default: break;
    }
  }
  auto by_key = [](const TensorSpec& a, const TensorSpec& b) { return a.key < b.key; };
  std::sort(def.inputs.begin(), def.inputs.end(), by_key);
  std::sort(def.outputs.begin(), def.outputs.end(), by_key);
  return def;
}

const TensorSpec* find_spec(const std::vector<TensorSpec>& specs, std::string_view key) noexcept {
  auto it = std::lower_bound(specs.begin(), specs.end(), key,
                             [](const TensorSpec& s, std::string_view k) { return s.key < k; });
  return it != specs.end() && it->key == key ? &*it : nullptr;
}

}  // namespace

const TensorSpec* SignatureDef::find_input(std::string_view input_key) const noexcept {
  return find_spec(inputs, input_key);
}

const TensorSpec* SignatureDef::find_output(std::string_view output_key) const noexcept {
  return find_spec(outputs, output_key);
}

std::vector<SignatureDef> parse_signature_defs(std::string_view meta_graph_def) {
  std::vector<SignatureDef> defs;
  wire::Reader reader(meta_graph_def);
  while (reader.next()) {
    if (reader.field() != kMetaGraphSignatureDef) continue;
    auto [key, value] = parse_map_entry(reader.bytes());
    if (is_loader_entry(key)) continue;
    defs.push_back(parse_signature(std::move(key), value));
  }
  std::sort(defs.begin(), defs.end(),
            [](const SignatureDef& a, const SignatureDef& b) { return a.key < b.key; });
  return defs;
}

std::string shape_string(const std::vector<int64_t>& shape, bool unknown_rank) {
  if (unknown_rank) return "<unknown rank>";
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

}  // namespace tfjni
