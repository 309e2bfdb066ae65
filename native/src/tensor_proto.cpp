#include "tfjni/tensor_proto.h"

#include <tensorflow/c/tf_tstring.h>

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tfjni/dtype.h"
#include "tfjni/error.h"
#include "tfjni/signature.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

// Field numbers from tensor.proto and tensor_shape.proto.
constexpr uint32_t kDtype = 1;
constexpr uint32_t kShape = 2;
constexpr uint32_t kContent = 4;
constexpr uint32_t kFloatVal = 5;
constexpr uint32_t kDoubleVal = 6;
constexpr uint32_t kIntVal = 7;
constexpr uint32_t kStringVal = 8;
constexpr uint32_t kScomplexVal = 9;
constexpr uint32_t kInt64Val = 10;
constexpr uint32_t kBoolVal = 11;
constexpr uint32_t kDcomplexVal = 12;
constexpr uint32_t kHalfVal = 13;
constexpr uint32_t kUint32Val = 16;
constexpr uint32_t kUint64Val = 17;
constexpr uint32_t kShapeDim = 2;
constexpr uint32_t kShapeUnknownRank = 3;
constexpr uint32_t kDimSize = 1;

enum class Encoding { kFixed32, kFixed64, kVarint, kBytes };

// The repeated field TensorFlow reads a dtype's values from (ProtoHelper in tensor.cc), and
// how many of its values make one element (two for a complex number).
struct ValueField {
  uint32_t number;
  const char* name;
  Encoding encoding;
  size_t per_element;
};

std::optional<ValueField> value_field(int dtype) {
  switch (dtype) {
    case TF_FLOAT: return ValueField{kFloatVal, "float_val", Encoding::kFixed32, 1};
    case TF_DOUBLE: return ValueField{kDoubleVal, "double_val", Encoding::kFixed64, 1};
    case TF_INT32:
    case TF_UINT8:
    case TF_INT16:
    case TF_INT8:
    case TF_UINT16:
    case TF_QINT8:
    case TF_QUINT8:
    case TF_QINT16:
    case TF_QUINT16:
    case TF_QINT32: return ValueField{kIntVal, "int_val", Encoding::kVarint, 1};
    case TF_STRING: return ValueField{kStringVal, "string_val", Encoding::kBytes, 1};
    case TF_COMPLEX64: return ValueField{kScomplexVal, "scomplex_val", Encoding::kFixed32, 2};
    case TF_INT64: return ValueField{kInt64Val, "int64_val", Encoding::kVarint, 1};
    case TF_BOOL: return ValueField{kBoolVal, "bool_val", Encoding::kVarint, 1};
    case TF_COMPLEX128: return ValueField{kDcomplexVal, "dcomplex_val", Encoding::kFixed64, 2};
    case TF_HALF:
    case TF_BFLOAT16: return ValueField{kHalfVal, "half_val", Encoding::kVarint, 1};
    case TF_UINT32: return ValueField{kUint32Val, "uint32_val", Encoding::kVarint, 1};
    case TF_UINT64: return ValueField{kUint64Val, "uint64_val", Encoding::kVarint, 1};
    default: return std::nullopt;
  }
}

std::vector<int64_t> parse_shape(std::string_view bytes) {
  std::vector<int64_t> dims;
  wire::Reader shape(bytes);
  while (shape.next()) {
    if (shape.field() == kShapeDim) {
      int64_t size = 0;  // proto3 leaves size 0 off the wire
      wire::Reader dim(shape.bytes());
      while (dim.next()) {
        if (dim.field() == kDimSize) size = static_cast<int64_t>(dim.varint());
      }
      if (size < 0) throw_invalid_argument("the shape has an unknown dimension (" + std::to_string(size) + ")");
      dims.push_back(size);
    } else if (shape.field() == kShapeUnknownRank && shape.varint() != 0) {
      throw_invalid_argument("the shape has an unknown rank");
    }
  }
  return dims;
}

// The values of one repeated numeric field, each stored as its element's low `component`
// bytes, little-endian: TensorFlow casts int_val to int8, uint16... and half_val to 16 bits the
// same way. `bool_val` values are 0 or 1 whatever the varint.
class NumericValues {
 public:
  NumericValues(const ValueField& field, size_t component, bool is_bool)
      : field_(field), component_(component), is_bool_(is_bool) {}

  void add(const wire::Reader& reader) {
    if (reader.type() == wire::WireType::kLengthDelimited) {
      add_packed(reader.bytes());
      return;
    }
    switch (field_.encoding) {
      case Encoding::kFixed32: put(reader.fixed32()); break;
      case Encoding::kFixed64: put(reader.fixed64()); break;
      default: put(reader.varint()); break;
    }
  }

  const std::string& bytes() const noexcept { return bytes_; }
  size_t count() const noexcept { return bytes_.size() / component_; }

 private:
  void add_packed(std::string_view packed) {
    if (field_.encoding == Encoding::kVarint) {
      while (!packed.empty()) put(wire::take_varint(packed));
      return;
    }
    size_t width = field_.encoding == Encoding::kFixed32 ? 4 : 8;
    if (packed.size() % width != 0) {
      throw_error(TF_DATA_LOSS, std::string("malformed protocol buffer: packed ") + field_.name + " of " +
                                    std::to_string(packed.size()) + " bytes");
    }
    for (size_t at = 0; at < packed.size(); at += width) {
      uint64_t value = 0;
      for (size_t i = 0; i < width; ++i) value |= static_cast<uint64_t>(static_cast<uint8_t>(packed[at + i])) << (8 * i);
      put(value);
    }
  }

  void put(uint64_t value) {
    if (is_bool_) value = value != 0;
    for (size_t i = 0; i < component_; ++i) bytes_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }

  const ValueField& field_;
  size_t component_;
  bool is_bool_;
  std::string bytes_;
};

void check_size(uint64_t bytes, uint64_t max_bytes, int dtype, const std::vector<int64_t>& dims) {
  if (bytes > max_bytes) {
    throw_invalid_argument("a " + dtype_name(dtype) + " tensor of shape " + shape_string(dims, false) +
                           " takes more than the limit of " + std::to_string(max_bytes) + " bytes");
  }
}

// a * b + c, or UINT64_MAX where that overflows.
uint64_t saturating_mul_add(uint64_t a, uint64_t b, uint64_t c) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  if ((b != 0 && a > (kMax - c) / b)) return kMax;
  return a * b + c;
}

void check_value_count(size_t values, int64_t elements, const ValueField& field) {
  if (values > static_cast<uint64_t>(elements)) {
    throw_invalid_argument(std::string(field.name) + " holds " + std::to_string(values) +
                           " values for " + std::to_string(elements) + " elements");
  }
}

Tensor strings_tensor(const std::vector<int64_t>& dims, const std::vector<std::string_view>& values,
                      const ValueField& field, uint64_t max_bytes) {
  int64_t elements = checked_element_count(dims);
  check_value_count(values.size(), elements, field);
  auto count = static_cast<uint64_t>(elements);
  uint64_t given_bytes = 0;  // the input's size bounds this sum
  for (std::string_view v : values) given_bytes += v.size();
  // Each element's TF_TString, then its bytes: the given ones, and the last one repeated.
  uint64_t total = saturating_mul_add(count, sizeof(TF_TString), given_bytes);
  if (!values.empty()) total = saturating_mul_add(count - values.size(), values.back().size(), total);
  check_size(total, max_bytes, TF_STRING, dims);

  std::vector<std::string_view> elements_view(values);
  elements_view.resize(static_cast<size_t>(count), values.empty() ? std::string_view{} : values.back());
  return Tensor::strings(dims, elements_view);
}

}  // namespace

Tensor tensor_from_proto(std::string_view tensor_proto, uint64_t max_bytes) {
  uint64_t dtype_code = 0;
  std::string_view shape_bytes;
  std::string_view content;
  wire::Reader reader(tensor_proto);
  while (reader.next()) {
    switch (reader.field()) {
      case kDtype: dtype_code = reader.varint(); break;
      case kShape: shape_bytes = reader.bytes(); break;
      case kContent: content = reader.bytes(); break;
      default: break;
    }
  }
  if (dtype_code == 0 || dtype_code > static_cast<uint64_t>(std::numeric_limits<int>::max()) ||
      !is_known_dtype(static_cast<int>(dtype_code))) {
    throw_invalid_argument("unknown dtype " + std::to_string(dtype_code));
  }
  const int dtype = static_cast<int>(dtype_code);
  const std::vector<int64_t> dims = parse_shape(shape_bytes);
  const std::optional<ValueField> field = value_field(dtype);

  if (dtype == TF_STRING) {
    if (!content.empty()) throw_invalid_argument("a STRING tensor in tensor_content is not supported: use string_val");
    std::vector<std::string_view> values;
    wire::Reader strings(tensor_proto);
    while (strings.next()) {
      if (strings.field() == kStringVal) values.push_back(strings.bytes());
    }
    return strings_tensor(dims, values, *field, max_bytes);
  }
  if (dtype_size(dtype) == 0) throw_invalid_argument("a " + dtype_name(dtype) + " tensor cannot be read from a TensorProto");

  const auto tf_dtype = static_cast<TF_DataType>(dtype);
  const size_t byte_size = checked_byte_size(tf_dtype, dims);
  check_size(byte_size, max_bytes, dtype, dims);
  if (!content.empty()) return Tensor::copy_of(tf_dtype, dims, content.data(), content.size());

  const size_t element_size = dtype_size(dtype);
  const int64_t elements = static_cast<int64_t>(byte_size / element_size);
  if (!field) {
    if (elements == 0) return Tensor::allocate(tf_dtype, dims);
    throw_invalid_argument("a " + dtype_name(dtype) + " tensor must be given in tensor_content");
  }
  NumericValues values(*field, element_size / field->per_element, dtype == TF_BOOL);
  reader = wire::Reader(tensor_proto);
  while (reader.next()) {
    if (reader.field() == field->number) values.add(reader);
  }
  if (values.count() % field->per_element != 0) {
    throw_invalid_argument(std::string(field->name) + " holds " + std::to_string(values.count()) +
                           " values, not a whole number of complex elements");
  }
  const size_t given = values.count() / field->per_element;
  check_value_count(given, elements, *field);

  Tensor tensor = Tensor::allocate(tf_dtype, dims);  // zeros when no value is given
  if (given > 0) {
    auto* out = static_cast<char*>(tensor.data());
    std::memcpy(out, values.bytes().data(), values.bytes().size());
    // TensorFlow repeats the last value to fill the shape.
    const char* last = values.bytes().data() + values.bytes().size() - element_size;
    for (size_t i = given; i < static_cast<size_t>(elements); ++i) std::memcpy(out + i * element_size, last, element_size);
  }
  return tensor;
}

}  // namespace tfjni
