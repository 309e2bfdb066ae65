// The compact attribute encoding that Java's OpBuilder sends (eager_attrs.h),
// applied to an op from arbitrary bytes: apply_encoded_attrs either sets the
// attributes or throws INVALID_ARGUMENT. When it succeeds, the bytes must be
// well-formed by the format's own description (read here independently and
// strictly), and TensorFlow must hold exactly those attributes with exactly
// those values (read back with TFE_OpAttrsSerialize).
//
// The op is NoOp: it has no attributes of its own, so TensorFlow stores any
// name and kind we set without checking them against a definition.
#include <tensorflow/c/c_api.h>
#include <tensorflow/c/eager/c_api_experimental.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "tfjni/dtype.h"
#include "tfjni/eager.h"
#include "tfjni/eager_attrs.h"
#include "tfjni/error.h"
#include "tfjni/tensor.h"
#include "tfjni/wire_format.h"

namespace {

using tfjni::AttrKind;
using tfjni::Tensor;
using tfjni::fuzz::check;
using tfjni::fuzz::fail;
using tfjni::fuzz::succeeds;
using tfjni::wire::Reader;
using tfjni::wire::WireType;

// An attribute value in the terms of tensorflow.AttrValue; `which` names the
// oneof field that is set. Floats are compared by their bits.
struct Shape {
  bool unknown_rank = false;
  std::vector<int64_t> dims;
  bool operator==(const Shape&) const = default;
};

struct Value {
  std::string which;
  std::string s;
  int64_t i = 0;
  uint32_t f = 0;
  bool b = false;
  int64_t type = 0;
  Shape shape;
  int64_t tensor_dtype = 0;  // of a tensor: its dtype and shape only
  Shape tensor_shape;
  std::vector<std::string> list_s;
  std::vector<int64_t> list_i;
  std::vector<uint32_t> list_f;
  std::vector<bool> list_b;
  std::vector<int64_t> list_type;
  std::vector<Shape> list_shape;
  bool operator==(const Value&) const = default;
};

// ---- The encoding, read strictly as eager_attrs.h describes it -----------------

class Encoding {
 public:
  explicit Encoding(std::string_view bytes) : rest_(bytes) {}

  template <typename T>
  T read() {
    if (rest_.size() < sizeof(T)) fail("accepted: a value runs past the end");
    T value;
    std::memcpy(&value, rest_.data(), sizeof(T));
    rest_.remove_prefix(sizeof(T));
    return value;
  }

  std::string read_string() {
    auto length = read<uint32_t>();
    if (length > rest_.size()) fail("accepted: a string runs past the end");
    std::string value(rest_.substr(0, length));
    rest_.remove_prefix(length);
    return value;
  }

  // The format says -1 for an unknown rank; the reader takes any negative rank so.
  Shape read_shape() {
    Shape shape;
    auto rank = read<int32_t>();
    shape.unknown_rank = rank < 0;
    for (int32_t d = 0; d < rank; ++d) shape.dims.push_back(read<int64_t>());
    return shape;
  }

  // A u32 count, then that many elements.
  template <typename T, typename ReadOne>
  std::vector<T> list(ReadOne read_one) {
    std::vector<T> values;
    for (auto count = read<uint32_t>(); count > 0; --count) values.push_back(read_one());
    return values;
  }

  // dtype.h's codes only: the format refuses others.
  int32_t read_dtype() {
    auto code = read<int32_t>();
    if (!tfjni::is_known_dtype(code)) fail("accepted: dtype code " + std::to_string(code));
    return code;
  }

  bool done() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

Shape shape_of(const Tensor& t) { return {false, t.shape()}; }

Value read_value(Encoding& in, AttrKind kind, const std::array<const Tensor*, 3>& tensors) {
  Value v;
  switch (kind) {
    case AttrKind::kType: v.which = "type"; v.type = in.read_dtype(); break;
    case AttrKind::kInt: v.which = "i"; v.i = in.read<int64_t>(); break;
    case AttrKind::kFloat: v.which = "f"; v.f = in.read<uint32_t>(); break;
    case AttrKind::kBool: v.which = "b"; v.b = in.read<uint8_t>() != 0; break;
    case AttrKind::kString: v.which = "s"; v.s = in.read_string(); break;
    case AttrKind::kShape: v.which = "shape"; v.shape = in.read_shape(); break;
    case AttrKind::kTensor: {
      auto index = in.read<int32_t>();
      if (index < 0 || index >= static_cast<int32_t>(tensors.size()) || tensors[index] == nullptr) {
        fail("accepted: a missing tensor");
      }
      v.which = "tensor";
      v.tensor_dtype = tensors[index]->dtype();
      v.tensor_shape = shape_of(*tensors[index]);
      break;
    }
    case AttrKind::kTypeList: v.list_type = in.list<int64_t>([&] { return in.read_dtype(); }); break;
    case AttrKind::kIntList: v.list_i = in.list<int64_t>([&] { return in.read<int64_t>(); }); break;
    case AttrKind::kFloatList: v.list_f = in.list<uint32_t>([&] { return in.read<uint32_t>(); }); break;
    case AttrKind::kBoolList: v.list_b = in.list<bool>([&] { return in.read<uint8_t>() != 0; }); break;
    case AttrKind::kStringList: v.list_s = in.list<std::string>([&] { return in.read_string(); }); break;
    case AttrKind::kShapeList: v.list_shape = in.list<Shape>([&] { return in.read_shape(); }); break;
    default: fail("accepted: unknown attribute kind " + std::to_string(static_cast<int>(kind)));
  }
  if (kind >= AttrKind::kTypeList) v.which = "list";
  return v;
}

std::map<std::string, Value> decode_encoding(std::string_view bytes,
                                             const std::array<const Tensor*, 3>& tensors) {
  std::map<std::string, Value> attrs;
  Encoding in(bytes);
  for (auto count = in.read<uint32_t>(); count > 0; --count) {
    auto kind = static_cast<AttrKind>(in.read<uint8_t>());
    std::string name = in.read_string();
    if (name.find('\0') != std::string::npos) fail("accepted: a name holding a NUL byte");
    Value value = read_value(in, kind, tensors);
    if (!attrs.emplace(name, std::move(value)).second) fail("accepted: a name given twice");
  }
  if (!in.done()) fail("accepted: bytes after the last attribute");
  return attrs;
}

// ---- What TensorFlow holds: a tensorflow.NameAttrList -------------------------

std::vector<uint64_t> packed_varints(std::string_view bytes) {
  std::vector<uint64_t> values;
  uint64_t value = 0;
  int shift = 0;
  for (char c : bytes) {
    check(shift < 64, "TensorFlow wrote an overlong packed varint");
    auto byte = static_cast<uint8_t>(c);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    shift += 7;
    if ((byte & 0x80) == 0) {
      values.push_back(value);
      value = 0;
      shift = 0;
    }
  }
  check(shift == 0, "TensorFlow wrote a truncated packed varint");
  return values;
}

std::vector<uint32_t> packed_fixed32(std::string_view bytes) {
  check(bytes.size() % 4 == 0, "TensorFlow wrote a truncated packed float");
  std::vector<uint32_t> values(bytes.size() / 4);
  for (size_t k = 0; k < values.size(); ++k) std::memcpy(&values[k], bytes.data() + 4 * k, 4);
  return values;
}

Shape decode_shape(std::string_view bytes) {
  Shape shape;
  Reader r(bytes);
  while (r.next()) {
    if (r.field() == 2) {  // Dim { int64 size = 1; string name = 2; }
      int64_t size = 0;
      Reader dim(r.bytes());
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
void decode_list(std::string_view bytes, Value& v) {
  Reader r(bytes);
  while (r.next()) {
    switch (r.field()) {
      case 2: v.list_s.emplace_back(r.bytes()); break;
      case 3:
        for (uint64_t x : packed_varints(r.bytes())) v.list_i.push_back(static_cast<int64_t>(x));
        break;
      case 4:
        for (uint32_t x : packed_fixed32(r.bytes())) v.list_f.push_back(x);
        break;
      case 5:
        for (uint64_t x : packed_varints(r.bytes())) v.list_b.push_back(x != 0);
        break;
      case 6:
        for (uint64_t x : packed_varints(r.bytes())) v.list_type.push_back(static_cast<int64_t>(x));
        break;
      case 7: v.list_shape.push_back(decode_shape(r.bytes())); break;
      default: fail("TensorFlow wrote ListValue field " + std::to_string(r.field()));
    }
  }
}

// tensorflow.TensorProto: dtype = 1, tensor_shape = 2 (the values are TensorFlow's business).
void decode_tensor(std::string_view bytes, Value& v) {
  Reader r(bytes);
  while (r.next()) {
    if (r.field() == 1) v.tensor_dtype = static_cast<int64_t>(r.varint());
    if (r.field() == 2) v.tensor_shape = decode_shape(r.bytes());
  }
}

// tensorflow.AttrValue: list = 1, s = 2, i = 3, f = 4, b = 5, type = 6, shape = 7, tensor = 8.
Value decode_attr_value(std::string_view bytes) {
  Value v;
  Reader r(bytes);
  while (r.next()) {
    switch (r.field()) {
      case 1: v.which = "list"; decode_list(r.bytes(), v); break;
      case 2: v.which = "s"; v.s = r.bytes(); break;
      case 3: v.which = "i"; v.i = static_cast<int64_t>(r.varint()); break;
      case 4: v.which = "f"; v.f = r.fixed32(); break;
      case 5: v.which = "b"; v.b = r.varint() != 0; break;
      case 6: v.which = "type"; v.type = static_cast<int64_t>(r.varint()); break;
      case 7: v.which = "shape"; v.shape = decode_shape(r.bytes()); break;
      case 8: v.which = "tensor"; decode_tensor(r.bytes(), v); break;
      default: fail("TensorFlow wrote AttrValue field " + std::to_string(r.field()));
    }
  }
  return v;
}

std::map<std::string, Value> attrs_held(const tfjni::Op& op) {
  std::unique_ptr<TF_Buffer, decltype(&TF_DeleteBuffer)> buffer(TF_NewBuffer(), TF_DeleteBuffer);
  tfjni::Status status;
  {
    // protobuf logs each name that is not UTF-8 (Java sends only UTF-8; the fuzzer does not).
    tfjni::fuzz::QuietStderr quiet;
    TFE_OpAttrsSerialize(TFE_OpGetAttrs(op.get()), buffer.get(), status.get());
  }
  status.check();
  const std::string bytes(static_cast<const char*>(buffer->data), buffer->length);
  std::map<std::string, Value> attrs;
  Reader r(bytes);
  while (r.next()) {
    if (r.field() != 2) continue;  // map<string, AttrValue> attr = 2
    std::string key;
    Value value;
    Reader entry(r.bytes());
    while (entry.next()) {
      if (entry.field() == 1) key = entry.bytes();
      if (entry.field() == 2) value = decode_attr_value(entry.bytes());
    }
    attrs[key] = std::move(value);
  }
  return attrs;
}

Tensor one() {
  const float value = 1;
  return Tensor::copy_of(TF_FLOAT, {}, &value, sizeof value);
}

Tensor two_words() {
  const std::vector<int64_t> dims{2};
  const std::vector<std::string_view> words{"short", "a string too long to live inside its TF_TString"};
  return Tensor::strings(dims, words);
}

// One context, op and pair of tensors for the whole run. Never destroyed: at
// exit TensorFlow's own statics may already be gone.
struct Fixture {
  tfjni::Context context;
  tfjni::Op op{context, "NoOp"};
  Tensor scalar = one();
  Tensor words = two_words();
  // Index 2 is a missing tensor, as Java passes null for a closed one.
  std::array<const Tensor*, 3> tensors{&scalar, &words, nullptr};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture& fixture = *new Fixture;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  fixture.op.reset("NoOp");
  auto apply = [&] { tfjni::apply_encoded_attrs(fixture.op, input, fixture.tensors); };
  if (!succeeds(TF_INVALID_ARGUMENT, apply)) return 0;
  const std::map<std::string, Value> expected = decode_encoding(input, fixture.tensors);
  const std::map<std::string, Value> held = attrs_held(fixture.op);
  if (held != expected) {
    std::string names;
    for (const auto& [name, value] : held) {
      auto it = expected.find(name);
      if (it == expected.end() || !(it->second == value)) names += " '" + name + "' (" + value.which + ")";
    }
    for (const auto& [name, value] : expected) {
      if (!held.contains(name)) names += " '" + name + "' missing";
    }
    fail("TensorFlow holds other attributes than the bytes describe:" + names);
  }
  return 0;
}
