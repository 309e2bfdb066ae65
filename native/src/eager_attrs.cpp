#include "tfjni/eager_attrs.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "tfjni/dtype.h"
#include "tfjni/error.h"

namespace tfjni {
namespace {

class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : rest_(bytes) {}

  template <typename T>
  T read() {
    if (rest_.size() < sizeof(T)) malformed();
    T value;
    std::memcpy(&value, rest_.data(), sizeof(T));  // little-endian host, as Java writes
    rest_.remove_prefix(sizeof(T));
    return value;
  }

  std::string_view read_string() {
    auto length = read<uint32_t>();
    if (length > rest_.size()) malformed();
    std::string_view value = rest_.substr(0, length);
    rest_.remove_prefix(length);
    return value;
  }

  uint32_t read_count(size_t min_element_size) {
    auto count = read<uint32_t>();
    if (static_cast<uint64_t>(count) * min_element_size > rest_.size()) malformed();
    return count;
  }

  std::vector<int64_t> read_shape(bool& unknown_rank) {
    auto rank = read<int32_t>();
    unknown_rank = rank < 0;
    std::vector<int64_t> dims;
    if (rank > 0) {
      if (static_cast<uint64_t>(rank) * 8 > rest_.size()) malformed();
      for (int32_t i = 0; i < rank; ++i) dims.push_back(read<int64_t>());
    }
    return dims;
  }

  bool done() const { return rest_.empty(); }

  [[noreturn]] static void malformed() { throw_invalid_argument("malformed op attribute encoding"); }

 private:
  std::string_view rest_;
};

template <typename T>
std::vector<T> read_list(ByteReader& in) {
  uint32_t n = in.read_count(sizeof(T));
  std::vector<T> values(n);
  for (T& v : values) v = in.read<T>();
  return values;
}

// Converting a code outside TF_DataType's range to the enum is undefined
// behaviour, so codes are checked first (TensorFlow would reject them later).
TF_DataType checked_dtype(int32_t code, const std::string& name) {
  if (!is_known_dtype(code)) {
    throw_invalid_argument("attribute '" + name + "' has an unknown dtype code " + std::to_string(code));
  }
  return static_cast<TF_DataType>(code);
}

}  // namespace

void apply_encoded_attrs(Op& op, std::string_view encoded, std::span<const Tensor* const> tensors) {
  ByteReader in(encoded);
  uint32_t count = in.read_count(6);
  // TensorFlow keeps the first value of an attribute set twice and ignores the
  // rest, so a repeated name would silently drop a value: reject it.
  std::vector<std::string_view> names;
  names.reserve(count);
  for (uint32_t a = 0; a < count; ++a) {
    auto kind = static_cast<AttrKind>(in.read<uint8_t>());
    std::string_view raw_name = in.read_string();
    // TensorFlow takes names as C strings: a NUL would cut the name short.
    if (raw_name.find('\0') != std::string_view::npos) {
      throw_invalid_argument("attribute name contains a NUL byte");
    }
    names.push_back(raw_name);
    std::string name(raw_name);
    const char* n = name.c_str();
    switch (kind) {
      case AttrKind::kType: op.attr_type(n, checked_dtype(in.read<int32_t>(), name)); break;
      case AttrKind::kInt: op.attr_int(n, in.read<int64_t>()); break;
      case AttrKind::kFloat: op.attr_float(n, in.read<float>()); break;
      case AttrKind::kBool: op.attr_bool(n, in.read<uint8_t>() != 0); break;
      case AttrKind::kString: op.attr_string(n, in.read_string()); break;
      case AttrKind::kShape: {
        bool unknown = false;
        std::vector<int64_t> dims = in.read_shape(unknown);
        op.attr_shape(n, dims, unknown);
        break;
      }
      case AttrKind::kTensor: {
        auto index = in.read<int32_t>();
        if (index < 0 || static_cast<size_t>(index) >= tensors.size() || tensors[index] == nullptr) {
          throw_invalid_argument("attribute '" + name + "' refers to a missing tensor");
        }
        op.attr_tensor(n, *tensors[index]);
        break;
      }
      case AttrKind::kTypeList: {
        std::vector<int32_t> raw = read_list<int32_t>(in);
        std::vector<TF_DataType> types;
        types.reserve(raw.size());
        for (int32_t code : raw) types.push_back(checked_dtype(code, name));
        op.attr_type_list(n, types);
        break;
      }
      case AttrKind::kIntList: op.attr_int_list(n, read_list<int64_t>(in)); break;
      case AttrKind::kFloatList: op.attr_float_list(n, read_list<float>(in)); break;
      case AttrKind::kBoolList: op.attr_bool_list(n, read_list<uint8_t>(in)); break;
      case AttrKind::kStringList: {
        uint32_t items = in.read_count(4);
        std::vector<std::string_view> values;
        for (uint32_t i = 0; i < items; ++i) values.push_back(in.read_string());
        op.attr_string_list(n, values);
        break;
      }
      case AttrKind::kShapeList: {
        uint32_t items = in.read_count(4);
        std::vector<std::vector<int64_t>> shapes;
        std::vector<unsigned char> unknown_rank;
        for (uint32_t i = 0; i < items; ++i) {
          bool unknown = false;
          shapes.push_back(in.read_shape(unknown));
          unknown_rank.push_back(unknown ? 1 : 0);
        }
        op.attr_shape_list(n, shapes, unknown_rank);
        break;
      }
      default:
        throw_invalid_argument("unknown attribute kind " + std::to_string(static_cast<int>(kind)) +
                               " for '" + name + "'");
    }
  }
  if (!in.done()) ByteReader::malformed();
  std::sort(names.begin(), names.end());
  auto repeated = std::adjacent_find(names.begin(), names.end());
  if (repeated != names.end()) {
    throw_invalid_argument("attribute '" + std::string(*repeated) + "' is set more than once");
  }
}

}  // namespace tfjni
