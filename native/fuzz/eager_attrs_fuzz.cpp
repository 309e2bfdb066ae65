// The compact attribute encoding that Java's OpBuilder sends (eager_attrs.h),
// applied to an op from arbitrary bytes: apply_encoded_attrs either sets the
// attributes or throws INVALID_ARGUMENT. When it succeeds, the bytes must be
// well-formed by the format's own description (read here independently and
// strictly), and TensorFlow must hold exactly those attributes with exactly
// those values (read back with TFE_OpAttrsSerialize by the eager tests' reader,
// native/test/held_attrs.h).
//
// The op is NoOp: it has no attributes of its own, so TensorFlow stores any
// name and kind we set without checking them against a definition.
#include <tensorflow/c/c_api.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_support.h"
#include "held_attrs.h"
#include "tfjni/dtype.h"
#include "tfjni/eager.h"
#include "tfjni/eager_attrs.h"
#include "tfjni/error.h"
#include "tfjni/tensor.h"

namespace {

using tfjni::AttrKind;
using tfjni::Tensor;
using tfjni::fuzz::fail;
using tfjni::fuzz::succeeds;
using tfjni::test::AttrValue;
using tfjni::test::ShapeValue;
using tfjni::test::TensorValue;

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
  ShapeValue read_shape() {
    ShapeValue shape;
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

ShapeValue shape_of(const Tensor& t) { return {false, t.shape()}; }

AttrValue read_value(Encoding& in, AttrKind kind, const std::array<const Tensor*, 3>& tensors) {
  AttrValue v;
  switch (kind) {
    case AttrKind::kType: v.which = "type"; v.type = in.read_dtype(); break;
    case AttrKind::kInt: v.which = "i"; v.i = in.read<int64_t>(); break;
    case AttrKind::kFloat: v.which = "f"; v.f_bits = in.read<uint32_t>(); break;
    case AttrKind::kBool: v.which = "b"; v.b = in.read<uint8_t>() != 0; break;
    case AttrKind::kString: v.which = "s"; v.s = in.read_string(); break;
    case AttrKind::kShape: v.which = "shape"; v.shape = in.read_shape(); break;
    case AttrKind::kTensor: {
      auto index = in.read<int32_t>();
      if (index < 0 || index >= static_cast<int32_t>(tensors.size()) || tensors[index] == nullptr) {
        fail("accepted: a missing tensor");
      }
      v.which = "tensor";
      v.tensor = TensorValue{tensors[index]->dtype(), shape_of(*tensors[index])};
      break;
    }
    case AttrKind::kTypeList: v.list_type = in.list<int64_t>([&] { return in.read_dtype(); }); break;
    case AttrKind::kIntList: v.list_i = in.list<int64_t>([&] { return in.read<int64_t>(); }); break;
    case AttrKind::kFloatList: v.list_f_bits = in.list<uint32_t>([&] { return in.read<uint32_t>(); }); break;
    case AttrKind::kBoolList: v.list_b = in.list<bool>([&] { return in.read<uint8_t>() != 0; }); break;
    case AttrKind::kStringList: v.list_s = in.list<std::string>([&] { return in.read_string(); }); break;
    case AttrKind::kShapeList: v.list_shape = in.list<ShapeValue>([&] { return in.read_shape(); }); break;
    default: fail("accepted: unknown attribute kind " + std::to_string(static_cast<int>(kind)));
  }
  if (kind >= AttrKind::kTypeList) v.which = "list";
  return v;
}

std::map<std::string, AttrValue> decode_encoding(std::string_view bytes,
                                                 const std::array<const Tensor*, 3>& tensors) {
  std::map<std::string, AttrValue> attrs;
  Encoding in(bytes);
  for (auto count = in.read<uint32_t>(); count > 0; --count) {
    auto kind = static_cast<AttrKind>(in.read<uint8_t>());
    std::string name = in.read_string();
    if (name.find('\0') != std::string::npos) fail("accepted: a name holding a NUL byte");
    AttrValue value = read_value(in, kind, tensors);
    if (!attrs.emplace(name, std::move(value)).second) fail("accepted: a name given twice");
  }
  if (!in.done()) fail("accepted: bytes after the last attribute");
  return attrs;
}

// ---- What TensorFlow holds: a tensorflow.NameAttrList -------------------------

std::map<std::string, AttrValue> attrs_held(const tfjni::Op& op) {
  tfjni::Status status;
  std::string bytes;
  {
    // protobuf logs each name that is not UTF-8 (Java sends only UTF-8; the fuzzer does not).
    tfjni::fuzz::QuietStderr quiet;
    bytes = tfjni::test::serialized_attrs(op, status);
  }
  status.check();
  // A message the reader cannot take is a failed check, reported as such.
  try {
    return tfjni::test::decode_attrs(bytes);
  } catch (const std::exception& e) {
    fail(std::string("TensorFlow wrote attributes we cannot read: ") + e.what());
  }
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
  const std::map<std::string, AttrValue> expected = decode_encoding(input, fixture.tensors);
  const std::map<std::string, AttrValue> held = attrs_held(fixture.op);
  if (held != expected) {
    std::string names;
    for (const auto& [name, value] : held) {
      auto it = expected.find(name);
      if (it == expected.end() || !(it->second == value)) {
        names += " '" + name + "' (" + std::string(value.which) + ")";
      }
    }
    for (const auto& [name, value] : expected) {
      if (!held.contains(name)) names += " '" + name + "' missing";
    }
    fail("TensorFlow holds other attributes than the bytes describe:" + names);
  }
  return 0;
}
