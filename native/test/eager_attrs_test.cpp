// apply_encoded_attrs: the compact attribute encoding of eager_attrs.h, applied
// to real ops and run, read back as TensorFlow stores it, and malformed in every
// way we can think of (each must throw INVALID_ARGUMENT, never crash).
#include "tfjni/eager_attrs.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>

#include "eager_test_util.h"
#include "test_data.h"

namespace tfjni::test {
namespace {

// Writes the encoding byte by byte, little-endian, as eager_attrs.h documents
// it (independent of the host's byte order).
class Encoding {
 public:
  struct Shape {
    std::vector<int64_t> dims;
    bool unknown_rank = false;
  };

  Encoding& type(std::string_view name, int32_t v) { return head(AttrKind::kType, name).i32(v); }
  Encoding& int64(std::string_view name, int64_t v) { return head(AttrKind::kInt, name).i64(v); }
  Encoding& f32(std::string_view name, float v) { return head(AttrKind::kFloat, name).f32(v); }
  Encoding& boolean(std::string_view name, uint8_t v) { return head(AttrKind::kBool, name).u8(v); }
  Encoding& string(std::string_view name, std::string_view v) { return head(AttrKind::kString, name).str(v); }
  Encoding& shape(std::string_view name, const Shape& v) { return head(AttrKind::kShape, name).shp(v); }
  Encoding& tensor(std::string_view name, int32_t index) { return head(AttrKind::kTensor, name).i32(index); }
  Encoding& type_list(std::string_view name, const std::vector<int32_t>& v) {
    head(AttrKind::kTypeList, name).u32(static_cast<uint32_t>(v.size()));
    for (int32_t x : v) i32(x);
    return *this;
  }
  Encoding& int_list(std::string_view name, const std::vector<int64_t>& v) {
    head(AttrKind::kIntList, name).u32(static_cast<uint32_t>(v.size()));
    for (int64_t x : v) i64(x);
    return *this;
  }
  Encoding& float_list(std::string_view name, const std::vector<float>& v) {
    head(AttrKind::kFloatList, name).u32(static_cast<uint32_t>(v.size()));
    for (float x : v) f32(x);
    return *this;
  }
  Encoding& bool_list(std::string_view name, const std::vector<uint8_t>& v) {
    head(AttrKind::kBoolList, name).u32(static_cast<uint32_t>(v.size()));
    for (uint8_t x : v) u8(x);
    return *this;
  }
  Encoding& string_list(std::string_view name, const std::vector<std::string>& v) {
    head(AttrKind::kStringList, name).u32(static_cast<uint32_t>(v.size()));
    for (const std::string& x : v) str(x);
    return *this;
  }
  Encoding& shape_list(std::string_view name, const std::vector<Shape>& v) {
    head(AttrKind::kShapeList, name).u32(static_cast<uint32_t>(v.size()));
    for (const Shape& x : v) shp(x);
    return *this;
  }

  // Raw pieces, for malformed encodings.
  Encoding& head(AttrKind kind, std::string_view name) { return head(static_cast<uint8_t>(kind), name); }
  Encoding& head(uint8_t kind, std::string_view name) {
    ++count_;
    return u8(kind).str(name);
  }
  Encoding& u8(uint8_t v) {
    body_.push_back(static_cast<char>(v));
    return *this;
  }
  Encoding& u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Encoding& i32(int32_t v) { return u32(static_cast<uint32_t>(v)); }
  Encoding& i64(int64_t v) {
    for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
    return *this;
  }
  Encoding& f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return u32(bits);
  }
  Encoding& str(std::string_view v) {
    u32(static_cast<uint32_t>(v.size()));
    body_.append(v);
    return *this;
  }
  Encoding& shp(const Shape& v) {
    if (v.unknown_rank) return i32(-1);
    i32(static_cast<int32_t>(v.dims.size()));
    for (int64_t d : v.dims) i64(d);
    return *this;
  }

  // The count, then the attributes; count_override replaces the real count.
  std::string bytes(std::optional<uint32_t> count_override = std::nullopt) const {
    Encoding out;
    out.u32(count_override.value_or(count_));
    return out.body_ + body_;
  }

 private:
  uint32_t count_ = 0;
  std::string body_;
};

class EagerAttrsTest : public LeakCheckedTest {
 protected:
  // Made before SetUp records the live objects, so it is part of the baseline.
  Context context_;
};

::testing::AssertionResult is_malformed(Op& op, std::string_view bytes, std::span<const Tensor* const> tensors,
                                        std::initializer_list<std::string_view> fragments = {"malformed"}) {
  return throws_error([&] { apply_encoded_attrs(op, bytes, tensors); }, TF_INVALID_ARGUMENT, fragments);
}

// ---- Well-formed encodings on real ops --------------------------------------

TEST_F(EagerAttrsTest, EmptyEncodingSetsNothing) {
  Op op(context_, "Identity");
  apply_encoded_attrs(op, Encoding().bytes(), {});
  EXPECT_TRUE(attrs_of(op).empty());
  TensorHandle x = handle_of<int32_t>(TF_INT32, {2}, {4, 5});
  op.input(x);
  EXPECT_EQ(values_of<int32_t>(op.execute().at(0)), (std::vector<int32_t>{4, 5}));
}

TEST_F(EagerAttrsTest, TypeIntFloatAndBoolOnRealOps) {
  // kType: Cast truncates [1.5, -2.5, 3] to [1, -2, 3]
  TensorHandle x = handle_of<float>(TF_FLOAT, {3}, {1.5f, -2.5f, 3.0f});
  Op cast(context_, "Cast");
  apply_encoded_attrs(cast, Encoding().type("DstT", TF_INT32).bytes(), {});
  cast.input(x);
  std::vector<TensorHandle> out = cast.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].dtype(), TF_INT32);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, -2, 3}));

  // kInt: Split [1,2,3,4] in two.
  TensorHandle dim = scalar_i32(0);
  TensorHandle four = handle_of<int32_t>(TF_INT32, {4}, {1, 2, 3, 4});
  Op split(context_, "Split");
  apply_encoded_attrs(split, Encoding().int64("num_split", 2).bytes(), {});
  split.input(dim).input(four);
  out = split.execute();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(values_of<int32_t>(out[1]), (std::vector<int32_t>{3, 4}));

  // kFloat: LeakyRelu with alpha 0.5: [-4, 2] -> [-2, 2]
  TensorHandle y = handle_of<float>(TF_FLOAT, {2}, {-4, 2});
  Op leaky(context_, "LeakyRelu");
  apply_encoded_attrs(leaky, Encoding().f32("alpha", 0.5f).bytes(), {});
  leaky.input(y);
  EXPECT_EQ(values_of<float>(leaky.execute().at(0)), (std::vector<float>{-2, 2}));

  // kBool: A x B^T with A = [[1,2],[3,4]], B = [[5,6],[7,8]]:
  // [[1*5+2*6, 1*7+2*8], [3*5+4*6, 3*7+4*8]]
  TensorHandle a = handle_of<float>(TF_FLOAT, {2, 2}, {1, 2, 3, 4});
  TensorHandle b = handle_of<float>(TF_FLOAT, {2, 2}, {5, 6, 7, 8});
  Op matmul(context_, "MatMul");
  apply_encoded_attrs(matmul, Encoding().boolean("transpose_a", 0).boolean("transpose_b", 1).bytes(), {});
  matmul.input(a).input(b);
  EXPECT_EQ(values_of<float>(matmul.execute().at(0)), (std::vector<float>{17, 23, 39, 53}));
}

TEST_F(EagerAttrsTest, StringAndShapeOnRealOps) {
  // kString: StringJoin with a separator holding a NUL.
  TensorHandle a = TensorHandle::from_tensor(strings_of({}, {"a"}));
  TensorHandle bc = TensorHandle::from_tensor(strings_of({}, {"bc"}));
  const TensorHandle* list[] = {&a, &bc};
  const std::string separator(", \0", 3);
  Op join(context_, "StringJoin");
  apply_encoded_attrs(join, Encoding().string("separator", separator).bytes(), {});
  join.input_list(list);
  EXPECT_EQ(strings_in(join.execute().at(0).resolve()), std::vector<std::string>{"a" + separator + "bc"});

  // kShape: EnsureShape of a [2,3] tensor.
  TensorHandle x = handle_of<float>(TF_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  for (const Encoding::Shape& ok : {Encoding::Shape{{-1, 3}}, Encoding::Shape{{2, -1}},
                                    Encoding::Shape{{}, true}, Encoding::Shape{{2, 3}}}) {
    Op op(context_, "EnsureShape");
    apply_encoded_attrs(op, Encoding().shape("shape", ok).bytes(), {});
    op.input(x);
    EXPECT_EQ(values_of<float>(op.execute().at(0)), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  }
  for (const Encoding::Shape& bad : {Encoding::Shape{{3}}, Encoding::Shape{{}}, Encoding::Shape{{2, 4}}}) {
    Op op(context_, "EnsureShape");
    apply_encoded_attrs(op, Encoding().shape("shape", bad).bytes(), {});
    op.input(x);
    EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT, {"is not compatible"}));
  }
}

TEST_F(EagerAttrsTest, TensorAttrMakesAConst) {
  Tensor other = tensor_of<float>(TF_FLOAT, {1}, {9});
  Tensor value = tensor_of<int64_t>(TF_INT64, {3}, {5, -6, 1LL << 60});
  const Tensor* tensors[] = {&other, &value};
  Op op(context_, "Const");
  apply_encoded_attrs(op, Encoding().tensor("value", 1).type("dtype", TF_INT64).bytes(), tensors);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(tensors_equal(out[0].resolve(), value));

  std::vector<std::string> words{"short", std::string(64, 'w'), std::string("\0\xff", 2)};
  Tensor strings = strings_of({3}, words);
  const Tensor* only[] = {&strings};
  Op text(context_, "Const");
  apply_encoded_attrs(text, Encoding().type("dtype", TF_STRING).tensor("value", 0).bytes(), only);
  EXPECT_EQ(strings_in(text.execute().at(0).resolve()), words);
}

TEST_F(EagerAttrsTest, ListsOnRealOps) {
  // kTypeList: IdentityN checks its inputs against T.
  TensorHandle f = handle_of<float>(TF_FLOAT, {1}, {0.5f});
  TensorHandle i = handle_of<int32_t>(TF_INT32, {1}, {-3});
  const TensorHandle* pair[] = {&f, &i};
  Op identity(context_, "IdentityN");
  apply_encoded_attrs(identity, Encoding().type_list("T", {TF_FLOAT, TF_INT32}).bytes(), {});
  identity.input_list(pair);
  std::vector<TensorHandle> out = identity.execute();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(values_of<float>(out[0]), std::vector<float>{0.5f});
  EXPECT_EQ(values_of<int32_t>(out[1]), std::vector<int32_t>{-3});
  Op wrong(context_, "IdentityN");
  apply_encoded_attrs(wrong, Encoding().type_list("T", {TF_FLOAT, TF_FLOAT}).bytes(), {});
  wrong.input_list(pair);
  EXPECT_TRUE(throws_error([&] { wrong.execute(); }, TF_INVALID_ARGUMENT, {"input #1", "float", "int32"}));

  // kIntList: Squeeze [1,2,1,3] at dims 0 and 2 -> [2,3]
  TensorHandle x = handle_of<int32_t>(TF_INT32, {1, 2, 1, 3}, {0, 1, 2, 3, 4, 5});
  Op squeeze(context_, "Squeeze");
  apply_encoded_attrs(squeeze, Encoding().int_list("squeeze_dims", {0, 2}).bytes(), {});
  squeeze.input(x);
  out = squeeze.execute();
  EXPECT_EQ(out.at(0).shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));

  // kFloatList: Bucketize with boundaries [-1, 0.5, 2]: bucket i holds
  // boundaries[i-1] <= x < boundaries[i].
  TensorHandle v = handle_of<float>(TF_FLOAT, {6}, {-2, -1, 0, 0.5f, 1.5f, 2});
  Op bucketize(context_, "Bucketize");
  apply_encoded_attrs(bucketize, Encoding().float_list("boundaries", {-1, 0.5f, 2}).bytes(), {});
  bucketize.input(v);
  EXPECT_EQ(values_of<int32_t>(bucketize.execute().at(0)), (std::vector<int32_t>{0, 1, 1, 2, 2, 3}));

  // kBoolList: no TensorFlow op takes one (only its test ops); TensorFlow
  // reports the type against an int list.
  Op flags(context_, "Squeeze");
  apply_encoded_attrs(flags, Encoding().bool_list("squeeze_dims", {1, 0}).bytes(), {});
  flags.input(x);
  EXPECT_TRUE(throws_error([&] { flags.execute(); }, TF_INVALID_ARGUMENT,
                           {"'list(bool)' when 'list(int)' expected"}));
}

// kStringList, kShapeList, kTypeList and kInt together, on ParseSingleExample.
TEST_F(EagerAttrsTest, StringListAndShapeListOnParseSingleExample) {
  TensorHandle serialized = TensorHandle::from_tensor(strings_of({}, {example_proto()}));
  TensorHandle default_a = handle_of<float>(TF_FLOAT, {0}, {});
  TensorHandle default_b = handle_of<int64_t>(TF_INT64, {0}, {});
  const TensorHandle* defaults[] = {&default_a, &default_b};
  auto parse = [&](const std::vector<Encoding::Shape>& shapes) {
    Op op(context_, "ParseSingleExample");
    apply_encoded_attrs(op,
                        Encoding()
                            .int64("num_sparse", 0)
                            .string_list("sparse_keys", {})
                            .type_list("sparse_types", {})
                            .string_list("dense_keys", {"a", "b"})
                            .type_list("Tdense", {TF_FLOAT, TF_INT64})
                            .shape_list("dense_shapes", shapes)
                            .bytes(),
                        {});
    op.input(serialized).input_list(defaults);
    return op.execute();
  };
  std::vector<TensorHandle> out = parse({{{3}}, {{2, 1}}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1.5f, 2.5f, -3.0f}));
  EXPECT_EQ(out[1].shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{7, -8}));
  EXPECT_TRUE(throws_error([&] { parse({{{2}}, {{2}}}); }, TF_INVALID_ARGUMENT, {"Key: a"}));
}

// One encoding of every kind (edge values included), read back as TensorFlow
// stores it. Attributes the op does not declare are stored all the same.
TEST_F(EagerAttrsTest, EveryKindReadsBackAsTensorFlowStoresIt) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::string odd("\0\xff\xfe odd", 7);
  Tensor value = tensor_of<int32_t>(TF_INT32, {2}, {1, 2});
  const Tensor* tensors[] = {&value};
  Op op(context_, "Identity");
  apply_encoded_attrs(op,
                      Encoding()
                          .type("type", TF_BFLOAT16)
                          .int64("int_min", std::numeric_limits<int64_t>::min())
                          .int64("int_minus_one", -1)
                          .f32("float_tiny", 1e-30f)
                          .f32("float_inf", -inf)
                          .boolean("bool_true", 0x80)  // any non-zero byte
                          .boolean("bool_false", 0)
                          .string("string_odd", odd)
                          .string("string_empty", "")
                          .shape("shape_dims", {{2, -1, 0}})
                          .shape("shape_unknown", {{}, true})
                          .shape("shape_scalar", {{}})
                          .tensor("tensor", 0)
                          .type_list("types", {TF_FLOAT, TF_STRING, TF_INT64})
                          .type_list("types_empty", {})
                          .int_list("ints", {std::numeric_limits<int64_t>::max(), -1, 0})
                          .float_list("floats", {0.5f, -2, inf})
                          .bool_list("bools", {1, 0, 7})
                          .string_list("strings", {"", std::string(40, 's'), odd})
                          .shape_list("shapes", {{{1, 2}}, {{}, true}, {{}}, {{-1}}})
                          .bytes(),
                      tensors);
  auto attrs = attrs_of(op);
  EXPECT_EQ(attrs.size(), 20u);
  EXPECT_EQ(attrs.at("type").type, TF_BFLOAT16);
  EXPECT_EQ(attrs.at("int_min").i, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(attrs.at("int_minus_one").i, -1);
  EXPECT_EQ(attrs.at("float_tiny").f(), 1e-30f);
  EXPECT_EQ(attrs.at("float_inf").f(), -inf);
  EXPECT_EQ(attrs.at("bool_true").which, "b");
  EXPECT_TRUE(attrs.at("bool_true").b);
  EXPECT_FALSE(attrs.at("bool_false").b);
  EXPECT_EQ(attrs.at("string_odd").s, odd);
  EXPECT_EQ(attrs.at("string_empty").which, "s");
  EXPECT_EQ(attrs.at("string_empty").s, "");
  EXPECT_EQ(attrs.at("shape_dims").shape, (ShapeValue{false, {2, -1, 0}}));
  EXPECT_EQ(attrs.at("shape_unknown").shape, (ShapeValue{true, {}}));
  EXPECT_EQ(attrs.at("shape_scalar").which, "shape");
  EXPECT_EQ(attrs.at("shape_scalar").shape, (ShapeValue{false, {}}));
  EXPECT_EQ(attrs.at("tensor").which, "tensor");
  EXPECT_EQ(attrs.at("types").list_type, (std::vector<int64_t>{TF_FLOAT, TF_STRING, TF_INT64}));
  EXPECT_EQ(attrs.at("types_empty").which, "list");
  EXPECT_TRUE(attrs.at("types_empty").list_type.empty());
  EXPECT_EQ(attrs.at("ints").list_i, (std::vector<int64_t>{std::numeric_limits<int64_t>::max(), -1, 0}));
  EXPECT_EQ(attrs.at("floats").list_f(), (std::vector<float>{0.5f, -2, inf}));
  EXPECT_EQ(attrs.at("bools").list_b, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(attrs.at("strings").list_s, (std::vector<std::string>{"", std::string(40, 's'), odd}));
  const std::vector<ShapeValue> shapes{{false, {1, 2}}, {true, {}}, {false, {}}, {false, {-1}}};
  EXPECT_EQ(attrs.at("shapes").list_shape, shapes);
}

// A shape list entry of unknown rank (rank -1) stays unknown: it is not a scalar.
TEST_F(EagerAttrsTest, ShapeListEntryOfUnknownRankStaysUnknown) {
  Op op(context_, "PaddingFIFOQueueV2");
  apply_encoded_attrs(op, Encoding().shape_list("shapes", {{{}, true}, {{}}}).bytes(), {});
  const std::vector<ShapeValue> expected{{true, {}}, {false, {}}};
  EXPECT_EQ(attr_of(op, "shapes").list_shape, expected);
}

// ---- Malformed encodings ----------------------------------------------------

// Every kind once; a tensor attribute refers to tensors[0].
std::string every_kind() {
  return Encoding()
      .type("a", TF_FLOAT)
      .int64("b", -5)
      .f32("c", 2.5f)
      .boolean("d", 1)
      .string("e", "text")
      .shape("f", {{3, -1}})
      .tensor("g", 0)
      .type_list("h", {TF_INT32, TF_INT64})
      .int_list("i", {1, 2, 3})
      .float_list("j", {1.5f})
      .bool_list("k", {1, 0})
      .string_list("l", {"x", "yz"})
      .shape_list("m", {{{1}}, {{}, true}})
      .bytes();
}

TEST_F(EagerAttrsTest, EveryKindEncodingIsValid) {
  Tensor t = tensor_of<float>(TF_FLOAT, {}, {1});
  const Tensor* tensors[] = {&t};
  Op op(context_, "Identity");
  apply_encoded_attrs(op, every_kind(), tensors);
  EXPECT_EQ(attrs_of(op).size(), 13u);
}

TEST_F(EagerAttrsTest, TruncatedAtEveryByteIsInvalidArgument) {
  Tensor t = tensor_of<float>(TF_FLOAT, {}, {1});
  const Tensor* tensors[] = {&t};
  const std::string valid = every_kind();
  for (size_t cut = 0; cut < valid.size(); ++cut) {
    SCOPED_TRACE("cut at " + std::to_string(cut) + " of " + std::to_string(valid.size()));
    Op op(context_, "Identity");
    EXPECT_TRUE(is_malformed(op, std::string_view(valid).substr(0, cut), tensors));
  }
}

TEST_F(EagerAttrsTest, TrailingBytesAreInvalidArgument) {
  Tensor t = tensor_of<float>(TF_FLOAT, {}, {1});
  const Tensor* tensors[] = {&t};
  for (const std::string& extra : {std::string(1, '\0'), std::string("\x01"), std::string(8, '\xff')}) {
    Op op(context_, "Identity");
    EXPECT_TRUE(is_malformed(op, every_kind() + extra, tensors));
    Op empty(context_, "Identity");
    EXPECT_TRUE(is_malformed(empty, Encoding().bytes() + extra, {}));
  }
}

TEST_F(EagerAttrsTest, UnknownKindsAreInvalidArgument) {
  for (int kind : {0, 14, 15, 100, 255}) {
    SCOPED_TRACE(kind);
    Op op(context_, "Identity");
    Encoding e;
    e.head(static_cast<uint8_t>(kind), "attr").i64(0);
    EXPECT_TRUE(is_malformed(op, e.bytes(), {}, {"unknown attribute kind " + std::to_string(kind), "attr"}));
  }
}

TEST_F(EagerAttrsTest, CountsLargerThanTheBytesAreInvalidArgument) {
  for (uint32_t count : {2u, 1000u, 0x7fffffffu, 0xffffffffu}) {
    SCOPED_TRACE(count);
    Op op(context_, "Identity");
    EXPECT_TRUE(is_malformed(op, Encoding().int64("n", 1).bytes(count), {}));
    Op bare(context_, "Identity");
    EXPECT_TRUE(is_malformed(bare, Encoding().bytes(count), {}));
  }
  // List lengths beyond the bytes, for each list kind (and lengths whose byte
  // size overflows 32 bits).
  for (uint32_t n : {1u, 3u, 0x20000000u, 0x40000001u, 0xffffffffu}) {
    for (AttrKind kind : {AttrKind::kTypeList, AttrKind::kIntList, AttrKind::kFloatList, AttrKind::kBoolList,
                          AttrKind::kStringList, AttrKind::kShapeList}) {
      SCOPED_TRACE("kind " + std::to_string(static_cast<int>(kind)) + ", n " + std::to_string(n));
      Encoding e;
      e.head(kind, "list").u32(n);
      Op op(context_, "Identity");
      EXPECT_TRUE(is_malformed(op, e.bytes(), {}));
    }
  }
}

TEST_F(EagerAttrsTest, HugeStringLengthsAreInvalidArgument) {
  for (uint32_t length : {5u, 0x7fffffffu, 0x80000000u, 0xfffffffcu, 0xffffffffu}) {
    SCOPED_TRACE(length);
    // The name's length.
    Encoding name;
    name.u8(static_cast<uint8_t>(AttrKind::kInt)).u32(length).u32(0);
    Op a(context_, "Identity");
    EXPECT_TRUE(is_malformed(a, name.bytes(1), {}));
    // A string value's length.
    Encoding value;
    value.head(AttrKind::kString, "s").u32(length).u32(0);
    Op b(context_, "Identity");
    EXPECT_TRUE(is_malformed(b, value.bytes(), {}));
    // An element of a string list.
    Encoding item;
    item.head(AttrKind::kStringList, "l").u32(2).str("ok").u32(length);
    Op c(context_, "Identity");
    EXPECT_TRUE(is_malformed(c, item.bytes(), {}));
  }
}

TEST_F(EagerAttrsTest, HugeShapeRanksAreInvalidArgument) {
  for (int32_t rank : {1, 2, 0x10000000, std::numeric_limits<int32_t>::max()}) {
    SCOPED_TRACE(rank);
    Encoding shape;
    shape.head(AttrKind::kShape, "s").i32(rank);  // no dims follow
    Op a(context_, "Identity");
    EXPECT_TRUE(is_malformed(a, shape.bytes(), {}));
    Encoding list;
    list.head(AttrKind::kShapeList, "l").u32(1).i32(rank);
    Op b(context_, "Identity");
    EXPECT_TRUE(is_malformed(b, list.bytes(), {}));
  }
  // A rank the bytes hold but TensorFlow refuses.
  std::vector<int64_t> dims(255, 1);
  Op op(context_, "Identity");
  EXPECT_TRUE(is_malformed(op, Encoding().shape("s", {dims}).bytes(), {}, {"255"}));
  Op list(context_, "Identity");
  EXPECT_TRUE(is_malformed(list, Encoding().shape_list("l", {{dims}}).bytes(), {}, {"255"}));
}

TEST_F(EagerAttrsTest, TensorIndexOutOfRangeIsInvalidArgument) {
  Tensor t = tensor_of<float>(TF_FLOAT, {}, {1});
  const Tensor* one[] = {&t};
  const Tensor* with_null[] = {&t, nullptr};
  for (int32_t index : {1, 2, -1, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()}) {
    SCOPED_TRACE(index);
    Op op(context_, "Const");
    EXPECT_TRUE(is_malformed(op, Encoding().tensor("value", index).bytes(), one, {"'value'", "missing tensor"}));
    Op none(context_, "Const");
    EXPECT_TRUE(is_malformed(none, Encoding().tensor("value", index).bytes(), {}, {"missing tensor"}));
  }
  Op op(context_, "Const");
  EXPECT_TRUE(is_malformed(op, Encoding().tensor("value", 1).bytes(), with_null, {"missing tensor"}));
  Op none(context_, "Const");
  EXPECT_TRUE(is_malformed(none, Encoding().tensor("value", 0).bytes(), {}, {"missing tensor"}));
}

TEST_F(EagerAttrsTest, UnknownDtypeCodesAreInvalidArgument) {
  for (int32_t code : {0, 34, 101, -1, 9999, std::numeric_limits<int32_t>::min(),
                       std::numeric_limits<int32_t>::max()}) {
    SCOPED_TRACE(code);
    const std::string fragment = "unknown dtype code " + std::to_string(code);
    Op single(context_, "Cast");
    EXPECT_TRUE(is_malformed(single, Encoding().type("DstT", code).bytes(), {}, {"'DstT'", fragment}));
    Op list(context_, "IdentityN");
    EXPECT_TRUE(is_malformed(list, Encoding().type_list("T", {TF_FLOAT, code}).bytes(), {}, {"'T'", fragment}));
  }
  // Every code tfjni knows is passed on; TensorFlow judges it when the op runs.
  TensorHandle x = handle_of<float>(TF_FLOAT, {1}, {2});
  for (int32_t code = 1; code <= 30; ++code) {
    if (!is_known_dtype(code)) continue;
    Op op(context_, "Cast");
    apply_encoded_attrs(op, Encoding().type("DstT", code).bytes(), {});
    EXPECT_EQ(attr_of(op, "DstT").type, code);
  }
}

// TensorFlow takes names as C strings: a NUL would silently set another attribute.
TEST_F(EagerAttrsTest, NameWithANulIsInvalidArgument) {
  Op op(context_, "Cast");
  EXPECT_TRUE(is_malformed(op, Encoding().type(std::string("DstT\0junk", 9), TF_INT32).bytes(), {}, {"NUL"}));
  EXPECT_EQ(attrs_of(op).count("DstT"), 0u);
}

// TensorFlow keeps the first value of a name set twice: a repeated name would
// silently drop a value.
TEST_F(EagerAttrsTest, RepeatedNameIsInvalidArgument) {
  Op same_kind(context_, "Cast");
  EXPECT_TRUE(is_malformed(same_kind, Encoding().type("DstT", TF_INT32).type("DstT", TF_DOUBLE).bytes(), {},
                           {"'DstT'", "more than once"}));
  Op other_kind(context_, "Cast");
  EXPECT_TRUE(is_malformed(
      other_kind, Encoding().type("DstT", TF_INT32).boolean("Truncate", 0).int64("DstT", 1).bytes(), {},
      {"'DstT'", "more than once"}));
  // Names that only share a prefix are distinct.
  Op distinct(context_, "Identity");
  apply_encoded_attrs(distinct, Encoding().type("DstT", TF_INT32).boolean("DstT2", 0).bytes(), {});
  EXPECT_EQ(attrs_of(distinct).size(), 2u);
}

// ---- Random bytes -----------------------------------------------------------

// Random bytes, and random changes and truncations of a valid encoding: each
// either applies or throws INVALID_ARGUMENT; nothing reads out of bounds (run
// under ASan).
TEST_F(EagerAttrsTest, RandomBytesApplyOrThrowInvalidArgument) {
  Tensor t = tensor_of<float>(TF_FLOAT, {}, {1});
  const Tensor* tensors[] = {&t};
  const std::string valid = every_kind();
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<int> byte(0, 255);
  int applied = 0, rejected = 0;
  Op op(context_, "Identity");
  auto check = [&](const std::string& bytes) {
    op.reset("Identity");
    try {
      apply_encoded_attrs(op, bytes, tensors);
      ++applied;
    } catch (const Error& e) {
      ASSERT_EQ(e.code(), TF_INVALID_ARGUMENT) << e.what();
      ++rejected;
    }
  };
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = valid;
    switch (i % 4) {
      case 0:  // a few bytes changed
        for (int k = byte(rng) % 4; k >= 0; --k) {
          bytes[static_cast<size_t>(byte(rng) * 256 + byte(rng)) % bytes.size()] = static_cast<char>(byte(rng));
        }
        break;
      case 1:  // changed and cut
        bytes[static_cast<size_t>(byte(rng)) % bytes.size()] = static_cast<char>(byte(rng));
        bytes.resize(static_cast<size_t>(byte(rng) * 256 + byte(rng)) % (bytes.size() + 1));
        break;
      case 2:  // a small count, then random bytes
        bytes.resize(static_cast<size_t>(byte(rng)) % 64 + 4);
        for (char& c : bytes) c = static_cast<char>(byte(rng));
        bytes[0] = static_cast<char>(byte(rng) % 4);
        bytes[1] = bytes[2] = bytes[3] = 0;
        break;
      default:  // random bytes
        bytes.resize(static_cast<size_t>(byte(rng)) % 48);
        for (char& c : bytes) c = static_cast<char>(byte(rng));
    }
    check(bytes);
  }
  EXPECT_GT(applied, 100);
  EXPECT_GT(rejected, 100);
}

// Changed encodings of a real op's attributes, applied and run: TensorFlow must
// turn every odd value (dtype codes, kinds, names) into an error, not a crash.
TEST_F(EagerAttrsTest, RandomlyChangedAttrsOfARealOpRunOrThrow) {
  TensorHandle x = handle_of<float>(TF_FLOAT, {2}, {1.5f, -2.5f});
  Tensor t = tensor_of<int32_t>(TF_INT32, {}, {3});
  const Tensor* tensors[] = {&t};
  const std::string valid = Encoding().type("DstT", TF_INT32).boolean("Truncate", 0).bytes();
  {
    Op op(context_, "Cast");
    apply_encoded_attrs(op, valid, tensors);
    op.input(x);
    EXPECT_EQ(values_of<int32_t>(op.execute().at(0)), (std::vector<int32_t>{1, -2}));
  }
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 255);
  int ran = 0, rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes = valid;
    for (int k = i % 3; k >= 0; --k) {
      size_t at = static_cast<size_t>(byte(rng)) % bytes.size();
      // Mostly small values where the dtype code lives, so many are real dtypes.
      bytes[at] = static_cast<char>(byte(rng) % (k == 0 ? 32 : 256));
    }
    try {
      Op op(context_, "Cast");
      apply_encoded_attrs(op, bytes, tensors);
      op.input(x);
      std::vector<TensorHandle> out = op.execute();
      (void)out.at(0).resolve();
      ++ran;
    } catch (const Error&) {
      ++rejected;
    }
  }
  EXPECT_GT(ran, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace tfjni::test
