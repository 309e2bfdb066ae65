// Eager execution: Context, TensorHandle and Op over the TFE_* C API. Every
// numeric result is small arithmetic worked out by hand in the comments.
#include "tfjni/eager.h"

#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "eager_test_util.h"
#include "test_data.h"

namespace tfjni::test {
namespace {

class EagerTest : public LeakCheckedTest {
 protected:
  // Made before SetUp records the live objects, so it is part of the baseline.
  Context context_;
};

using ContextTest = LeakCheckedTest;

int64_t live(ObjectKind kind) { return live_objects().of(kind); }

bool lists_cpu(const std::vector<std::string>& devices) {
  for (const std::string& name : devices) {
    if (name.starts_with("/job:localhost/") && name.ends_with("/device:CPU:0")) return true;
  }
  return false;
}

// [1,2,3] + [10,20,30] + [100,200,300] = [111,222,333]
::testing::AssertionResult add_n_works(const Context& context) {
  TensorHandle a = handle_of<int32_t>(TF_INT32, {3}, {1, 2, 3});
  TensorHandle b = handle_of<int32_t>(TF_INT32, {3}, {10, 20, 30});
  TensorHandle c = handle_of<int32_t>(TF_INT32, {3}, {100, 200, 300});
  const TensorHandle* list[] = {&a, &b, &c};
  Op op(context, "AddN");
  op.input_list(list);
  std::vector<TensorHandle> out = op.execute();
  if (out.size() != 1) return ::testing::AssertionFailure() << out.size() << " outputs";
  std::vector<int32_t> got = values_of<int32_t>(out[0]);
  if (got != std::vector<int32_t>{111, 222, 333}) {
    return ::testing::AssertionFailure() << "AddN gave " << ::testing::PrintToString(got);
  }
  return ::testing::AssertionSuccess();
}

// ---- Context ----------------------------------------------------------------

TEST_F(ContextTest, DefaultContextListsTheCpuAndIsCounted) {
  const int64_t before = live(ObjectKind::kEagerContext);
  {
    Context context;
    EXPECT_EQ(live(ObjectKind::kEagerContext), before + 1);
    std::vector<std::string> devices = context.devices();
    EXPECT_TRUE(lists_cpu(devices)) << ::testing::PrintToString(devices);
    EXPECT_TRUE(add_n_works(context));
    {
      Context second;
      EXPECT_EQ(live(ObjectKind::kEagerContext), before + 2);
    }
    EXPECT_EQ(live(ObjectKind::kEagerContext), before + 1);
  }
  EXPECT_EQ(live(ObjectKind::kEagerContext), before);
}

TEST_F(ContextTest, ConfiguredContextsRunOpsWithEveryPlacementPolicySyncAndAsync) {
  for (bool async : {false, true}) {
    for (TFE_ContextDevicePlacementPolicy placement :
         {TFE_DEVICE_PLACEMENT_EXPLICIT, TFE_DEVICE_PLACEMENT_WARN, TFE_DEVICE_PLACEMENT_SILENT,
          TFE_DEVICE_PLACEMENT_SILENT_FOR_INT32}) {
      SCOPED_TRACE("async " + std::to_string(async) + ", placement " + std::to_string(placement));
      ContextConfig config;
      config.session.intra_op_threads = 2;
      config.session.inter_op_threads = 3;
      config.session.allow_soft_placement = true;
      config.async = async;
      config.placement = placement;
      Context context(config);
      EXPECT_TRUE(lists_cpu(context.devices()));
      EXPECT_TRUE(add_n_works(context));
    }
  }
}

TEST_F(ContextTest, SingleThreadedContextRunsOps) {
  ContextConfig config;
  config.session.intra_op_threads = 1;
  config.session.inter_op_threads = 1;
  config.session.use_per_session_threads = true;
  Context context(config);
  EXPECT_TRUE(add_n_works(context));
}

TEST_F(ContextTest, BadConfigThrowsAndCountsNothing) {
  const int64_t before = live(ObjectKind::kEagerContext);
  ContextConfig unparseable;
  unparseable.session.raw_config_proto = "\xff\xff\xff";
  EXPECT_TRUE(throws_error([&] { Context c(unparseable); }, TF_INVALID_ARGUMENT, {"ConfigProto"}));
  ContextConfig negative;
  negative.session.intra_op_threads = -1;
  EXPECT_TRUE(throws_error([&] { Context c(negative); }, TF_INVALID_ARGUMENT));
  EXPECT_EQ(live(ObjectKind::kEagerContext), before);
}

// In an async context a kernel's error may surface at execute() or only when
// the result is resolved; either way with TensorFlow's code and message.
TEST_F(ContextTest, AsyncContextReportsKernelErrorsWithTensorFlowsCode) {
  ContextConfig config;
  config.async = true;
  Context context(config);
  TensorHandle four = handle_of<float>(TF_FLOAT, {2, 2}, {1, 2, 3, 4});
  TensorHandle shape = handle_of<int32_t>(TF_INT32, {1}, {3});
  EXPECT_TRUE(throws_error(
      [&] {
        Op op(context, "Reshape");
        op.input(four).input(shape);
        std::vector<TensorHandle> out = op.execute();
        (void)out.at(0).resolve();
      },
      TF_INVALID_ARGUMENT, {"Input to reshape is a tensor with 4 values"}));
}

TEST_F(ContextTest, AsyncContextComputesTheSameResults) {
  ContextConfig config;
  config.async = true;
  Context context(config);
  // [[1,2],[3,4]] x [[5,6],[7,8]] = [[1*5+2*7, 1*6+2*8], [3*5+4*7, 3*6+4*8]]
  TensorHandle a = handle_of<float>(TF_FLOAT, {2, 2}, {1, 2, 3, 4});
  TensorHandle b = handle_of<float>(TF_FLOAT, {2, 2}, {5, 6, 7, 8});
  Op op(context, "MatMul");
  op.input(a).input(b);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{19, 22, 43, 50}));
}

// Handles made with a context keep it alive: a C++ user may destroy the Context
// first, and the native context is freed (and uncounted) with the last of them.
TEST_F(ContextTest, HandlesOutliveTheirContextWhichGoesWithTheLast) {
  for (bool async : {false, true}) {
    SCOPED_TRACE("async " + std::to_string(async));
    const int64_t before = live(ObjectKind::kEagerContext);
    std::optional<TensorHandle> sum;
    std::optional<TensorHandle> copy;
    std::string cpu;
    {
      ContextConfig config;
      config.async = async;
      auto context = std::make_unique<Context>(config);
      cpu = cpu_device(*context);
      TensorHandle a = handle_of<int32_t>(TF_INT32, {3}, {1, 2, 3});
      TensorHandle b = handle_of<int32_t>(TF_INT32, {3}, {10, 20, 30});
      {
        Op op(*context, "AddV2");
        op.input(a).input(b);
        std::vector<TensorHandle> out = op.execute();
        ASSERT_EQ(out.size(), 1u);
        sum = std::move(out[0]);
      }
      copy = sum->copy_to_device(*context, cpu);
      context.reset();
      EXPECT_EQ(live(ObjectKind::kEagerContext), before + 1) << "the handles hold the context";
    }
    // [1,2,3] + [10,20,30]
    EXPECT_EQ(values_of<int32_t>(*sum), (std::vector<int32_t>{11, 22, 33}));
    EXPECT_EQ(sum->device(), cpu);
    sum.reset();
    EXPECT_EQ(live(ObjectKind::kEagerContext), before + 1) << "the copy holds the context";
    EXPECT_EQ(values_of<int32_t>(*copy), (std::vector<int32_t>{11, 22, 33}));
    EXPECT_EQ(copy->shape(), std::vector<int64_t>{3});
    copy.reset();
    EXPECT_EQ(live(ObjectKind::kEagerContext), before);
  }
}

// Assigning over the last handle of a context frees that handle, then the context.
TEST_F(ContextTest, AssigningOverTheLastHandleOfAContextFreesIt) {
  const int64_t contexts = live(ObjectKind::kEagerContext);
  const int64_t handles = live(ObjectKind::kTensorHandle);
  auto first = std::make_unique<Context>();
  auto second = std::make_unique<Context>();
  TensorHandle four = scalar_i32(4);
  // Neg(4) = -4 on the first context, Square(4) = 16 on the second.
  TensorHandle held = std::move(Op(*first, "Neg").input(four).execute().at(0));
  TensorHandle other = std::move(Op(*second, "Square").input(four).execute().at(0));
  first.reset();
  second.reset();
  EXPECT_EQ(live(ObjectKind::kEagerContext), contexts + 2);
  held = std::move(other);
  EXPECT_EQ(live(ObjectKind::kEagerContext), contexts + 1);
  EXPECT_EQ(values_of<int32_t>(held), std::vector<int32_t>{16});
  held = scalar_i32(5);  // a handle of no context (made from a tensor)
  EXPECT_EQ(live(ObjectKind::kEagerContext), contexts);
  EXPECT_EQ(values_of<int32_t>(held), std::vector<int32_t>{5});
  EXPECT_EQ(live(ObjectKind::kTensorHandle), handles + 2);  // four and held
}

// ---- TensorHandle -----------------------------------------------------------

TEST_F(EagerTest, NumericHandlesRoundTripEveryFixedSizeDtype) {
  const std::vector<int64_t> dims{2, 3};
  const std::string cpu = cpu_device(context_);
  for (TF_DataType dtype : {TF_FLOAT, TF_DOUBLE, TF_INT32, TF_UINT8, TF_INT16, TF_INT8, TF_COMPLEX64,
                            TF_INT64, TF_BOOL, TF_BFLOAT16, TF_UINT16, TF_COMPLEX128, TF_HALF,
                            TF_UINT32, TF_UINT64}) {
    SCOPED_TRACE(dtype_name(dtype));
    std::string bytes(6 * dtype_size(dtype), '\0');
    for (size_t i = 0; i < bytes.size(); ++i) {
      bytes[i] = static_cast<char>(dtype == TF_BOOL ? i % 2 : (i * 37 + 11) & 0xff);
    }
    Tensor original = Tensor::copy_of(dtype, dims, bytes.data(), bytes.size());
    TensorHandle h = TensorHandle::from_tensor(original);
    EXPECT_EQ(h.dtype(), dtype);
    EXPECT_EQ(h.shape(), dims);
    EXPECT_EQ(h.device(), cpu);
    EXPECT_TRUE(tensors_equal(h.resolve(), original));

    // And through a kernel.
    Op op(context_, "Identity");
    op.input(h);
    std::vector<TensorHandle> out = op.execute();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].dtype(), dtype);
    EXPECT_TRUE(tensors_equal(out[0].resolve(), original));
  }
}

TEST_F(EagerTest, ScalarAndEmptyHandlesRoundTrip) {
  TensorHandle scalar = handle_of<double>(TF_DOUBLE, {}, {2.5});
  EXPECT_TRUE(scalar.shape().empty());
  Tensor resolved = scalar.resolve();
  EXPECT_EQ(resolved.rank(), 0);
  EXPECT_EQ(values_of<double>(resolved), std::vector<double>{2.5});

  for (const std::vector<int64_t>& dims : {std::vector<int64_t>{0}, std::vector<int64_t>{2, 0, 3}}) {
    SCOPED_TRACE(::testing::PrintToString(dims));
    TensorHandle empty = TensorHandle::from_tensor(Tensor::allocate(TF_FLOAT, dims));
    EXPECT_EQ(empty.dtype(), TF_FLOAT);
    EXPECT_EQ(empty.shape(), dims);
    Tensor t = empty.resolve();
    EXPECT_EQ(t.shape(), dims);
    EXPECT_EQ(t.num_elements(), 0);
    EXPECT_EQ(t.byte_size(), 0u);

    TensorHandle strings = TensorHandle::from_tensor(strings_of(dims, {}));
    EXPECT_EQ(strings.dtype(), TF_STRING);
    EXPECT_EQ(strings.shape(), dims);
    EXPECT_EQ(strings.resolve().num_elements(), 0);
  }

  // A scalar string.
  TensorHandle word = TensorHandle::from_tensor(strings_of({}, {"word"}));
  EXPECT_TRUE(word.shape().empty());
  EXPECT_EQ(strings_in(word.resolve()), std::vector<std::string>{"word"});
}

struct TestString {
  std::string value;
  int32_t utf8_chars;  // -1: not valid UTF-8
};

std::vector<TestString> test_strings() {
  return {
      {"", 0},
      {"short", 5},
      {std::string(23, 'x'), 23},                               // just past the inline (SSO) limit
      {"a long string of more than twenty-two bytes, 1234567890", 55},
      {"gr\xc3\xbc\xc3\x9f" "e \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xe2\x9c\x93", 11},  // "grüße 日本語 ✓"
      {std::string("nul\0inside\0", 11), 11},
      {std::string("\xff\xfe not UTF-8 \0 and long enough to be allocated", 46), -1},
  };
}

TEST_F(EagerTest, StringHandlesRoundTripLongNonAsciiAndEmbeddedNul) {
  std::vector<TestString> cases = test_strings();
  ASSERT_EQ(cases[3].value.size(), 55u);
  ASSERT_EQ(cases[6].value.size(), 46u);
  std::vector<std::string> values;
  for (const TestString& c : cases) values.push_back(c.value);
  const std::vector<int64_t> dims{static_cast<int64_t>(values.size())};
  TensorHandle h = TensorHandle::from_tensor(strings_of(dims, values));
  EXPECT_EQ(h.dtype(), TF_STRING);
  EXPECT_EQ(h.shape(), dims);
  EXPECT_EQ(strings_in(h.resolve()), values);

  // StringLength counts bytes: each string's size.
  Op length(context_, "StringLength");
  length.input(h);
  std::vector<TensorHandle> out = length.execute();
  ASSERT_EQ(out.size(), 1u);
  std::vector<int32_t> expected;
  for (const std::string& v : values) expected.push_back(static_cast<int32_t>(v.size()));
  EXPECT_EQ(values_of<int32_t>(out[0]), expected);

  // ReverseV2 makes TensorFlow copy every string, long ones included.
  TensorHandle axis = handle_of<int32_t>(TF_INT32, {1}, {0});
  Op reverse(context_, "ReverseV2");
  reverse.input(h).input(axis);
  out = reverse.execute();
  ASSERT_EQ(out.size(), 1u);
  std::vector<std::string> reversed(values.rbegin(), values.rend());
  EXPECT_EQ(strings_in(out[0].resolve()), reversed);
}

TEST_F(EagerTest, StringLengthCountsUtf8CharactersWithAStringAttr) {
  std::vector<std::string> values;
  std::vector<int32_t> chars;
  for (const TestString& c : test_strings()) {
    if (c.utf8_chars < 0) continue;
    values.push_back(c.value);
    chars.push_back(c.utf8_chars);
  }
  Op op(context_, "StringLength");
  TensorHandle h = TensorHandle::from_tensor(strings_of({static_cast<int64_t>(values.size())}, values));
  op.input(h).attr_string("unit", "UTF8_CHAR");
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(values_of<int32_t>(out[0]), chars);
}

TEST_F(EagerTest, CopyToTheCpuDeviceByName) {
  const std::string cpu = cpu_device(context_);
  TensorHandle numbers = handle_of<int64_t>(TF_INT64, {2}, {-7, 1LL << 40});
  TensorHandle copy = numbers.copy_to_device(context_, cpu);
  EXPECT_EQ(copy.device(), cpu);
  EXPECT_EQ(copy.dtype(), TF_INT64);
  EXPECT_EQ(copy.shape(), std::vector<int64_t>{2});
  EXPECT_EQ(values_of<int64_t>(copy), (std::vector<int64_t>{-7, 1LL << 40}));

  std::vector<std::string> values{"a", std::string(40, 'z')};
  TensorHandle strings = TensorHandle::from_tensor(strings_of({2}, values));
  EXPECT_EQ(strings_in(strings.copy_to_device(context_, cpu).resolve()), values);
}

TEST_F(EagerTest, CopyToAMissingDeviceIsInvalidArgument) {
  TensorHandle h = handle_of<float>(TF_FLOAT, {1}, {1});
  const int64_t handles = live(ObjectKind::kTensorHandle);
  for (const char* device : {"/job:localhost/replica:0/task:0/device:CPU:7",
                             "/job:localhost/replica:0/task:0/device:GPU:0", "not a device"}) {
    SCOPED_TRACE(device);
    EXPECT_TRUE(throws_error([&] { (void)h.copy_to_device(context_, device); }, TF_INVALID_ARGUMENT,
                             {device, "unknown device"}));
  }
  EXPECT_EQ(live(ObjectKind::kTensorHandle), handles);
}

TEST_F(EagerTest, HandlesAreCountedWhileAlive) {
  const int64_t before = live(ObjectKind::kTensorHandle);
  {
    TensorHandle a = handle_of<float>(TF_FLOAT, {2}, {1, 2});
    EXPECT_EQ(live(ObjectKind::kTensorHandle), before + 1);
    TensorHandle moved = std::move(a);
    EXPECT_EQ(live(ObjectKind::kTensorHandle), before + 1);
    {
      Op op(context_, "Unpack");
      op.input(moved).attr_int("num", 2);
      std::vector<TensorHandle> out = op.execute();
      EXPECT_EQ(out.size(), 2u);
      EXPECT_EQ(live(ObjectKind::kTensorHandle), before + 3);
    }
    EXPECT_EQ(live(ObjectKind::kTensorHandle), before + 1);
  }
  EXPECT_EQ(live(ObjectKind::kTensorHandle), before);
}

// ---- Op: outputs and inputs -------------------------------------------------

TEST_F(EagerTest, MatMulOfSmallMatrices) {
  TensorHandle a = handle_of<float>(TF_FLOAT, {2, 2}, {1, 2, 3, 4});
  TensorHandle b = handle_of<float>(TF_FLOAT, {2, 2}, {5, 6, 7, 8});
  Op op(context_, "MatMul");
  op.input(a).input(b);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].dtype(), TF_FLOAT);
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(out[0].device(), cpu_device(context_));
  // [[1*5+2*7, 1*6+2*8], [3*5+4*7, 3*6+4*8]]
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{19, 22, 43, 50}));

  // A bool attr: transpose_a. [[1,3],[2,4]] x [[5,6],[7,8]]
  Op transposed(context_, "MatMul");
  transposed.input(a).input(b).attr_bool("transpose_a", true);
  out = transposed.execute();
  ASSERT_EQ(out.size(), 1u);
  // [[1*5+3*7, 1*6+3*8], [2*5+4*7, 2*6+4*8]]
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{26, 30, 38, 44}));

  // A non-square product: [1x3] x [3x2]. [1,2,3] x [[1,0],[0,1],[1,1]] = [1+3, 2+3]
  TensorHandle row = handle_of<int32_t>(TF_INT32, {1, 3}, {1, 2, 3});
  TensorHandle m = handle_of<int32_t>(TF_INT32, {3, 2}, {1, 0, 0, 1, 1, 1});
  Op ints(context_, "MatMul");
  ints.input(row).input(m);
  out = ints.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{4, 5}));
}

TEST_F(EagerTest, SplitHasOneOutputPerPiece) {
  TensorHandle dim = scalar_i32(0);
  TensorHandle value = handle_of<int32_t>(TF_INT32, {6}, {0, 1, 2, 3, 4, 5});
  Op op(context_, "Split");
  op.input(dim).input(value).attr_int("num_split", 3);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(values_of<int32_t>(out[1]), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(values_of<int32_t>(out[2]), (std::vector<int32_t>{4, 5}));
  for (const TensorHandle& h : out) EXPECT_EQ(h.shape(), std::vector<int64_t>{2});
}

TEST_F(EagerTest, ExecuteOneReturnsTheOnlyOutput) {
  // [1,2,3] + [10,20,30] = [11,22,33]
  TensorHandle a = handle_of<int32_t>(TF_INT32, {3}, {1, 2, 3});
  TensorHandle b = handle_of<int32_t>(TF_INT32, {3}, {10, 20, 30});
  Op op(context_, "AddV2");
  op.input(a).input(b);
  int count = -1;
  std::optional<TensorHandle> out = op.execute_one(count);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(count, 1);
  EXPECT_EQ(values_of<int32_t>(*out), (std::vector<int32_t>{11, 22, 33}));
}

TEST_F(EagerTest, ExecuteOneOfASplitFreesItsOutputsAndCountsThem) {
  TensorHandle dim = scalar_i32(0);
  TensorHandle value = handle_of<int32_t>(TF_INT32, {6}, {0, 1, 2, 3, 4, 5});
  const int64_t handles_before = live(ObjectKind::kTensorHandle);
  Op op(context_, "Split");
  op.input(dim).input(value).attr_int("num_split", 3);
  int count = -1;
  std::optional<TensorHandle> out = op.execute_one(count);
  EXPECT_FALSE(out.has_value());
  EXPECT_EQ(count, 3);
  EXPECT_EQ(live(ObjectKind::kTensorHandle), handles_before);  // none adopted, none left
}

TEST_F(EagerTest, UnpackAlongTheSecondAxis) {
  // [[1,2,3],[4,5,6]] unpacked along axis 1: its columns.
  TensorHandle value = handle_of<int64_t>(TF_INT64, {2, 3}, {1, 2, 3, 4, 5, 6});
  Op op(context_, "Unpack");
  op.input(value).attr_int("num", 3).attr_int("axis", 1);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(values_of<int64_t>(out[2]), (std::vector<int64_t>{3, 6}));
}

TEST_F(EagerTest, TopKV2ReturnsValuesAndIndices) {
  // The three largest of [3,1,4,1,5,9,2,6] are 9 (index 5), 6 (7) and 5 (4).
  TensorHandle input = handle_of<float>(TF_FLOAT, {8}, {3, 1, 4, 1, 5, 9, 2, 6});
  TensorHandle k = scalar_i32(3);
  Op op(context_, "TopKV2");
  op.input(input).input(k).attr_bool("sorted", true);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].dtype(), TF_FLOAT);
  EXPECT_EQ(out[1].dtype(), TF_INT32);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{9, 6, 5}));
  EXPECT_EQ(values_of<int32_t>(out[1]), (std::vector<int32_t>{5, 7, 4}));
}

TEST_F(EagerTest, ConcatV2OfAListOfInputs) {
  TensorHandle a = handle_of<int32_t>(TF_INT32, {1, 2}, {1, 2});
  TensorHandle b = handle_of<int32_t>(TF_INT32, {1, 2}, {3, 4});
  TensorHandle c = handle_of<int32_t>(TF_INT32, {1, 2}, {5, 6});
  const TensorHandle* list[] = {&a, &b, &c};
  for (int32_t axis : {0, 1}) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    TensorHandle axis_handle = scalar_i32(axis);
    Op op(context_, "ConcatV2");
    op.input_list(list).input(axis_handle);
    std::vector<TensorHandle> out = op.execute();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].shape(), axis == 0 ? (std::vector<int64_t>{3, 2}) : (std::vector<int64_t>{1, 6}));
    EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  }
}

TEST_F(EagerTest, AddNOfInts) {
  EXPECT_TRUE(add_n_works(context_));
  // int64 beyond 32 bits: 2^40 + 2^40 + 1 = 2^41 + 1
  TensorHandle big = handle_of<int64_t>(TF_INT64, {1}, {1LL << 40});
  TensorHandle one = handle_of<int64_t>(TF_INT64, {1}, {1});
  const TensorHandle* list[] = {&big, &big, &one};
  Op op(context_, "AddN");
  op.input_list(list);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(values_of<int64_t>(out[0]), std::vector<int64_t>{(1LL << 41) + 1});
  // A list of one.
  const TensorHandle* single[] = {&one};
  Op alone(context_, "AddN");
  alone.input_list(single);
  EXPECT_EQ(values_of<int64_t>(alone.execute().at(0)), std::vector<int64_t>{1});
}

TEST_F(EagerTest, PackScalarsAndVectors) {
  TensorHandle seven = scalar_i32(7), eight = scalar_i32(8), nine = scalar_i32(9);
  const TensorHandle* scalars[] = {&seven, &eight, &nine};
  Op op(context_, "Pack");
  op.input_list(scalars);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), std::vector<int64_t>{3});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{7, 8, 9}));

  // [1,2] and [3,4] stacked along axis 1: [[1,3],[2,4]]
  TensorHandle a = handle_of<int32_t>(TF_INT32, {2}, {1, 2});
  TensorHandle b = handle_of<int32_t>(TF_INT32, {2}, {3, 4});
  const TensorHandle* vectors[] = {&a, &b};
  Op by_column(context_, "Pack");
  by_column.input_list(vectors).attr_int("axis", 1);
  out = by_column.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 3, 2, 4}));
}

// ---- Op: every attribute setter ---------------------------------------------

TEST_F(EagerTest, AttrTypeCastsToTheGivenType) {
  // Cast truncates towards zero: [1.5, -2.5, 3] -> [1, -2, 3]
  TensorHandle x = handle_of<float>(TF_FLOAT, {3}, {1.5f, -2.5f, 3.0f});
  Op op(context_, "Cast");
  op.input(x).attr_type("DstT", TF_INT32);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].dtype(), TF_INT32);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, -2, 3}));
  AttrValue dst = attr_of(op, "DstT");
  EXPECT_EQ(dst.which, "type");
  EXPECT_EQ(dst.type, TF_INT32);
}

TEST_F(EagerTest, AttrIntAndFloat) {
  // LeakyRelu: x < 0 ? alpha * x : x, with alpha = 0.25 (exact in binary)
  TensorHandle x = handle_of<float>(TF_FLOAT, {4}, {-2, -1, 0, 3});
  Op op(context_, "LeakyRelu");
  op.input(x).attr_float("alpha", 0.25f);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{-0.5f, -0.25f, 0, 3}));
  AttrValue alpha = attr_of(op, "alpha");
  EXPECT_EQ(alpha.which, "f");
  EXPECT_EQ(alpha.f(), 0.25f);

  Op ints(context_, "Split");
  ints.attr_int("num_split", -3);  // negative values are stored as given
  AttrValue n = attr_of(ints, "num_split");
  EXPECT_EQ(n.which, "i");
  EXPECT_EQ(n.i, -3);
}

TEST_F(EagerTest, AttrStringJoinsWithASeparator) {
  TensorHandle a = TensorHandle::from_tensor(strings_of({}, {"a"}));
  TensorHandle bc = TensorHandle::from_tensor(strings_of({}, {"bc"}));
  const TensorHandle* list[] = {&a, &bc};
  for (const std::string& separator : {std::string("--"), std::string(), std::string("-\0-", 3)}) {
    SCOPED_TRACE("separator of " + std::to_string(separator.size()) + " bytes");
    Op op(context_, "StringJoin");
    op.input_list(list).attr_string("separator", separator);
    std::vector<TensorHandle> out = op.execute();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(strings_in(out[0].resolve()), std::vector<std::string>{"a" + separator + "bc"});
    EXPECT_EQ(attr_of(op, "separator").s, separator);
  }
}

TEST_F(EagerTest, AttrShapeWithUnknownDimsAndUnknownRank) {
  TensorHandle x = handle_of<float>(TF_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  struct Case {
    std::vector<int64_t> dims;
    bool unknown_rank;
    bool compatible;  // with [2,3]
  };
  for (const Case& c : std::vector<Case>{{{2, 3}, false, true},
                                         {{-1, 3}, false, true},
                                         {{2, -1}, false, true},
                                         {{-1, -1}, false, true},
                                         {{}, true, true},
                                         {{7}, true, true},  // dims are ignored for an unknown rank
                                         {{}, false, false},
                                         {{3, -1}, false, false},
                                         {{-1}, false, false},
                                         {{2, 3, 1}, false, false}}) {
    SCOPED_TRACE(::testing::PrintToString(c.dims) + (c.unknown_rank ? " unknown rank" : ""));
    Op op(context_, "EnsureShape");
    op.input(x).attr_shape("shape", c.dims, c.unknown_rank);
    AttrValue shape = attr_of(op, "shape");
    EXPECT_EQ(shape.which, "shape");
    EXPECT_EQ(shape.shape, (ShapeValue{c.unknown_rank, c.unknown_rank ? std::vector<int64_t>{} : c.dims}));
    if (c.compatible) {
      std::vector<TensorHandle> out = op.execute();
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    } else {
      EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT, {"is not compatible"}));
    }
  }
}

TEST_F(EagerTest, AttrShapeErrorsComeFromTensorFlow) {
  Op op(context_, "EnsureShape");
  const std::vector<int64_t> rank255(255, 1);
  EXPECT_TRUE(throws_error([&] { op.attr_shape("shape", rank255); }, TF_INVALID_ARGUMENT, {"255", "254"}));

  TensorHandle x = handle_of<float>(TF_FLOAT, {2}, {1, 2});
  Op below(context_, "EnsureShape");
  const std::vector<int64_t> minus_five{-5};
  below.input(x).attr_shape("shape", minus_five);
  EXPECT_TRUE(throws_error([&] { below.execute(); }, TF_INVALID_ARGUMENT, {"below -1"}));
}

TEST_F(EagerTest, AttrTensorMakesAConst) {
  Tensor value = tensor_of<int64_t>(TF_INT64, {2, 2}, {1, -2, 3, 1LL << 50});
  Op op(context_, "Const");
  op.attr_tensor("value", value).attr_type("dtype", TF_INT64);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(tensors_equal(out[0].resolve(), value));
  EXPECT_EQ(attr_of(op, "value").which, "tensor");

  std::vector<std::string> words{"x", std::string(30, 'y'), std::string("\0z", 2)};
  Tensor strings = strings_of({3}, words);
  Op text(context_, "Const");
  text.attr_tensor("value", strings).attr_type("dtype", TF_STRING);
  out = text.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(strings_in(out[0].resolve()), words);

  // dtype disagrees with the value.
  Op mismatch(context_, "Const");
  mismatch.attr_tensor("value", value).attr_type("dtype", TF_FLOAT);
  EXPECT_TRUE(throws_error([&] { mismatch.execute(); }, TF_INVALID_ARGUMENT, {"dtype"}));
}

TEST_F(EagerTest, AttrTypeListOfIdentityN) {
  TensorHandle f = handle_of<float>(TF_FLOAT, {1}, {1.5f});
  TensorHandle i = handle_of<int32_t>(TF_INT32, {2}, {4, 5});
  const TensorHandle* list[] = {&f, &i};

  const TF_DataType matching[] = {TF_FLOAT, TF_INT32};
  Op op(context_, "IdentityN");
  op.attr_type_list("T", matching).input_list(list);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(values_of<float>(out[0]), std::vector<float>{1.5f});
  EXPECT_EQ(values_of<int32_t>(out[1]), (std::vector<int32_t>{4, 5}));
  AttrValue t = attr_of(op, "T");
  EXPECT_EQ(t.which, "list");
  EXPECT_EQ(t.list_type, (std::vector<int64_t>{TF_FLOAT, TF_INT32}));

  // Set before the inputs, the list is what TensorFlow checks them against.
  const TF_DataType wrong[] = {TF_INT32, TF_INT32};
  Op mismatch(context_, "IdentityN");
  mismatch.attr_type_list("T", wrong).input_list(list);
  EXPECT_TRUE(throws_error([&] { mismatch.execute(); }, TF_INVALID_ARGUMENT,
                           {"input #0", "int32", "float"}));
}

TEST_F(EagerTest, AttrIntListOfSqueezeAndMaxPool) {
  // [1,2,1,3] with squeeze_dims: the listed size-1 dims go (none listed: all).
  TensorHandle x = handle_of<int32_t>(TF_INT32, {1, 2, 1, 3}, {0, 1, 2, 3, 4, 5});
  struct Case {
    std::vector<int64_t> squeeze;
    std::vector<int64_t> shape;
  };
  for (const Case& c : std::vector<Case>{{{0}, {2, 1, 3}}, {{2}, {1, 2, 3}}, {{0, 2}, {2, 3}},
                                         {{}, {2, 3}}, {{-2}, {1, 2, 3}}}) {
    SCOPED_TRACE(::testing::PrintToString(c.squeeze));
    Op op(context_, "Squeeze");
    op.input(x).attr_int_list("squeeze_dims", c.squeeze);
    EXPECT_EQ(attr_of(op, "squeeze_dims").list_i, c.squeeze);
    std::vector<TensorHandle> out = op.execute();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].shape(), c.shape);
    EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
  }
  Op bad(context_, "Squeeze");
  const int64_t not_one[] = {1};
  bad.input(x).attr_int_list("squeeze_dims", not_one);
  EXPECT_TRUE(throws_error([&] { bad.execute(); }, TF_INVALID_ARGUMENT, {"squeeze"}));

  // MaxPool 2x2, stride 2 over the 4x4 image 1..16: each block's bottom-right.
  std::vector<float> image(16);
  for (size_t i = 0; i < 16; ++i) image[i] = static_cast<float>(i + 1);
  TensorHandle input = handle_of<float>(TF_FLOAT, {1, 4, 4, 1}, image);
  const int64_t window[] = {1, 2, 2, 1};
  Op pool(context_, "MaxPool");
  pool.input(input).attr_int_list("ksize", window).attr_int_list("strides", window).attr_string("padding", "VALID");
  std::vector<TensorHandle> out = pool.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{6, 8, 14, 16}));
}

TEST_F(EagerTest, AttrFloatListOfBucketize) {
  // Bucket i holds boundaries[i-1] <= x < boundaries[i], for boundaries [0,10,100].
  TensorHandle x = handle_of<int32_t>(TF_INT32, {7}, {-5, 0, 5, 10, 50, 100, 500});
  const float boundaries[] = {0, 10, 100};
  Op op(context_, "Bucketize");
  op.input(x).attr_float_list("boundaries", boundaries);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(attr_of(op, "boundaries").list_f(), (std::vector<float>{0, 10, 100}));
}

// No op of TensorFlow's own has a list(bool) attribute (only test ops do): the
// values are checked as TensorFlow stores them, and a kernel reports the type.
TEST_F(EagerTest, AttrBoolListIsStoredAndTypeChecked) {
  const unsigned char flags[] = {1, 0, 1, 1};
  Op op(context_, "Squeeze");
  op.attr_bool_list("flags", flags);
  AttrValue stored = attr_of(op, "flags");
  EXPECT_EQ(stored.which, "list");
  EXPECT_EQ(stored.list_b, (std::vector<bool>{true, false, true, true}));

  TensorHandle x = handle_of<float>(TF_FLOAT, {1, 2}, {1, 2});
  Op squeeze(context_, "Squeeze");
  squeeze.input(x).attr_bool_list("squeeze_dims", flags);
  EXPECT_TRUE(throws_error([&] { squeeze.execute(); }, TF_INVALID_ARGUMENT,
                           {"'list(bool)' when 'list(int)' expected", "squeeze_dims"}));
}

// ParseSingleExample takes a string list (dense_keys), a shape list
// (dense_shapes), a type list (Tdense) and an int (num_sparse).
TEST_F(EagerTest, AttrStringListAndShapeListOfParseSingleExample) {
  TensorHandle serialized = TensorHandle::from_tensor(strings_of({}, {example_proto()}));
  TensorHandle default_b = handle_of<int64_t>(TF_INT64, {0}, {});
  TensorHandle default_a = handle_of<float>(TF_FLOAT, {0}, {});
  const TensorHandle* defaults[] = {&default_b, &default_a};
  const std::string_view keys[] = {"b", "a"};
  const TF_DataType types[] = {TF_INT64, TF_FLOAT};

  auto parse = [&](const std::vector<std::vector<int64_t>>& shapes) {
    // Attributes first: TensorFlow keeps the first value, and inputs would set Tdense.
    Op op(context_, "ParseSingleExample");
    op.attr_int("num_sparse", 0)
        .attr_string_list("sparse_keys", {})
        .attr_type_list("sparse_types", {})
        .attr_string_list("dense_keys", keys)
        .attr_type_list("Tdense", types)
        .attr_shape_list("dense_shapes", shapes);
    op.input(serialized).input_list(defaults);
    EXPECT_EQ(attr_of(op, "dense_keys").list_s, (std::vector<std::string>{"b", "a"}));
    return op.execute();
  };
  std::vector<TensorHandle> out = parse({{2}, {3}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{7, -8}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{1.5f, 2.5f, -3.0f}));

  out = parse({{1, 2}, {3, 1}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(out[1].shape(), (std::vector<int64_t>{3, 1}));

  // b has two values, not three.
  EXPECT_TRUE(throws_error([&] { parse({{3}, {3}}); }, TF_INVALID_ARGUMENT, {"Key: b"}));
}

TEST_F(EagerTest, AttrShapeListKeepsUnknownDimsAndRanks) {
  const std::vector<std::vector<int64_t>> shapes{{2, 3}, {}, {-1, 4}, {9, 9}};
  Op op(context_, "FIFOQueueV2");
  const unsigned char unknown[] = {0, 0, 0, 1};
  op.attr_shape_list("known", shapes).attr_shape_list("some_unknown", shapes, unknown);
  auto attrs = attrs_of(op);
  const std::vector<ShapeValue> known{{false, {2, 3}}, {false, {}}, {false, {-1, 4}}, {false, {9, 9}}};
  EXPECT_EQ(attrs.at("known").list_shape, known);
  const std::vector<ShapeValue> some_unknown{{false, {2, 3}}, {false, {}}, {false, {-1, 4}}, {true, {}}};
  EXPECT_EQ(attrs.at("some_unknown").list_shape, some_unknown);

  const unsigned char too_few[] = {1};
  EXPECT_TRUE(throws_error([&] { op.attr_shape_list("x", shapes, too_few); }, TF_INVALID_ARGUMENT,
                           {"1 unknown-rank flags for 4 shapes"}));
  const std::vector<std::vector<int64_t>> rank255{std::vector<int64_t>(255, 1)};
  EXPECT_TRUE(throws_error([&] { op.attr_shape_list("y", rank255); }, TF_INVALID_ARGUMENT, {"255"}));
}

// A queue created with shapes [[3]] refuses a [2] element: the shape list took effect.
TEST_F(EagerTest, AttrShapeListOfAQueue) {
  const TF_DataType types[] = {TF_FLOAT};
  auto enqueue = [&](const std::vector<std::vector<int64_t>>& shapes, const TensorHandle& element) {
    Op queue(context_, "FIFOQueueV2");
    queue.attr_type_list("component_types", types).attr_shape_list("shapes", shapes);
    std::vector<TensorHandle> handle = queue.execute();
    Op op(context_, "QueueEnqueueV2");
    const TensorHandle* components[] = {&element};
    op.input(handle.at(0)).input_list(components);
    (void)op.execute();
    Op size(context_, "QueueSizeV2");
    size.input(handle.at(0));
    return values_of<int32_t>(size.execute().at(0));
  };
  TensorHandle three = handle_of<float>(TF_FLOAT, {3}, {1, 2, 3});
  TensorHandle two = handle_of<float>(TF_FLOAT, {2}, {1, 2});
  EXPECT_EQ(enqueue({{3}}, three), std::vector<int32_t>{1});
  EXPECT_TRUE(throws_error([&] { enqueue({{3}}, two); }, TF_INVALID_ARGUMENT, {"Expected [3], got [2]"}));
}

// TensorFlow keeps the first value of an attribute set twice.
TEST_F(EagerTest, AnAttrSetTwiceKeepsItsFirstValue) {
  TensorHandle x = handle_of<float>(TF_FLOAT, {1}, {2.75f});
  Op op(context_, "Cast");
  op.input(x).attr_type("DstT", TF_INT32).attr_type("DstT", TF_DOUBLE);
  EXPECT_EQ(op.execute().at(0).dtype(), TF_INT32);
}

// ---- Op: reuse --------------------------------------------------------------

TEST_F(EagerTest, ResetReusesOneOpForOtherOps) {
  TensorHandle a = handle_of<int32_t>(TF_INT32, {2}, {1, 2});
  TensorHandle b = handle_of<int32_t>(TF_INT32, {2}, {10, 20});
  const TensorHandle* list[] = {&a, &b};
  Op op(context_, "AddN");
  op.input_list(list);
  EXPECT_EQ(values_of<int32_t>(op.execute().at(0)), (std::vector<int32_t>{11, 22}));

  op.reset("Mul");  // [1,2] * [10,20]
  op.input(a).input(b);
  EXPECT_EQ(values_of<int32_t>(op.execute().at(0)), (std::vector<int32_t>{10, 40}));

  // reset clears the attributes: DstT can be set anew.
  op.reset("Cast");
  op.input(a).attr_type("DstT", TF_INT64);
  std::vector<TensorHandle> out = op.execute();
  EXPECT_EQ(out.at(0).dtype(), TF_INT64);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{1, 2}));
  op.reset("Cast");
  op.input(a).attr_type("DstT", TF_DOUBLE);
  out = op.execute();
  EXPECT_EQ(out.at(0).dtype(), TF_DOUBLE);
  EXPECT_EQ(values_of<double>(out[0]), (std::vector<double>{1, 2}));

  // An unknown name fails; the op can be reset to a known one afterwards.
  EXPECT_TRUE(throws_error([&] { op.reset("NoSuchOpAnywhere"); }, TF_NOT_FOUND, {"NoSuchOpAnywhere"}));
  op.reset("Neg");
  op.input(a);
  EXPECT_EQ(values_of<int32_t>(op.execute().at(0)), (std::vector<int32_t>{-1, -2}));
}

// execute() consumes the inputs but keeps the attributes.
TEST_F(EagerTest, ExecuteConsumesInputsAndKeepsAttrs) {
  TensorHandle x = handle_of<float>(TF_FLOAT, {2}, {1.5f, -1.5f});
  Op op(context_, "Cast");
  op.input(x).attr_type("DstT", TF_INT32);
  EXPECT_EQ(values_of<int32_t>(op.execute().at(0)), (std::vector<int32_t>{1, -1}));
  EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT, {"expected 1 inputs, got 0"}));
  op.input(x);
  std::vector<TensorHandle> again = op.execute();
  EXPECT_EQ(again.at(0).dtype(), TF_INT32);
  EXPECT_EQ(values_of<int32_t>(again[0]), (std::vector<int32_t>{1, -1}));
}

TEST_F(EagerTest, OpOnTheNamedCpuDevice) {
  const std::string cpu = cpu_device(context_);
  TensorHandle x = handle_of<int32_t>(TF_INT32, {2}, {3, 4});
  Op op(context_, "Square");
  op.device(cpu.c_str()).input(x);
  std::vector<TensorHandle> out = op.execute();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].device(), cpu);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{9, 16}));
}

// ---- Op: errors -------------------------------------------------------------

TEST_F(EagerTest, UnknownOpNameIsNotFound) {
  EXPECT_TRUE(throws_error([&] { Op op(context_, "NoSuchOpAnywhere"); }, TF_NOT_FOUND,
                           {"'NoSuchOpAnywhere' is neither a type of a primitive operation"}));
  EXPECT_TRUE(throws_error([&] { Op op(context_, ""); }, TF_NOT_FOUND));
}

TEST_F(EagerTest, WrongInputDtypeIsInvalidArgument) {
  TensorHandle f = handle_of<float>(TF_FLOAT, {2, 2}, {1, 2, 3, 4});
  TensorHandle i = handle_of<int32_t>(TF_INT32, {2, 2}, {1, 2, 3, 4});
  Op op(context_, "MatMul");
  op.input(f).input(i);
  EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT,
                           {"MatMul", "input #1", "float", "int32"}));
  // No kernel for the dtype at all.
  TensorHandle s = TensorHandle::from_tensor(strings_of({1}, {"x"}));
  Op neg(context_, "Neg");
  neg.input(s);
  EXPECT_TRUE(throws_error([&] { neg.execute(); }, TF_INVALID_ARGUMENT,
                           {"'T' of string is not in the list of allowed values"}));
}

TEST_F(EagerTest, WrongAttrTypeIsInvalidArgument) {
  TensorHandle x = handle_of<float>(TF_FLOAT, {1}, {1});
  Op op(context_, "Cast");
  op.input(x).attr_int("DstT", 3);
  EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT,
                           {"'int' when 'type' expected", "DstT"}));

  Op string_for_float(context_, "LeakyRelu");
  string_for_float.input(x).attr_string("alpha", "0.5");
  EXPECT_TRUE(throws_error([&] { string_for_float.execute(); }, TF_INVALID_ARGUMENT,
                           {"'string' when 'float' expected", "alpha"}));
}

// Only codes within TF_DataType's range (0..31): converting any other int to
// the enum is undefined behaviour (apply_encoded_attrs checks them first).
TEST_F(EagerTest, InvalidDtypeCodeInAnAttrIsInvalidArgument) {
  TensorHandle x = handle_of<float>(TF_FLOAT, {1}, {1});
  // 99: defined by no TensorFlow (31 was free in 2.18 and is INT2 from 2.20 on).
  for (int code : {0, 99}) {
    SCOPED_TRACE(code);
    Op op(context_, "Cast");
    op.input(x).attr_type("DstT", static_cast<TF_DataType>(code));
    EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT, {"invalid DataType", "DstT"}));
  }
}

TEST_F(EagerTest, MissingAttrIsTensorFlowsNotFound) {
  TensorHandle x = handle_of<float>(TF_FLOAT, {1}, {1});
  Op op(context_, "Cast");
  op.input(x);
  EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_NOT_FOUND, {"No attr named 'DstT'"}));
}

TEST_F(EagerTest, TooFewInputsIsInvalidArgument) {
  TensorHandle x = handle_of<float>(TF_FLOAT, {2, 2}, {1, 2, 3, 4});
  Op op(context_, "MatMul");
  op.input(x);
  // TensorFlow words it "expected 2 inputs, got 1" when it builds a new kernel,
  // "NodeDef expected inputs 'float, float' do not match 1 inputs specified"
  // when it finds one in its cache.
  EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT, {"inputs"}));
  // With no input at all, T is never inferred.
  Op none(context_, "Identity");
  EXPECT_TRUE(throws_error([&] { none.execute(); }, TF_NOT_FOUND, {"No attr named 'T'"}));
}

TEST_F(EagerTest, KernelErrorIsInvalidArgumentAndTheContextCarriesOn) {
  TensorHandle four = handle_of<float>(TF_FLOAT, {2, 2}, {1, 2, 3, 4});
  TensorHandle shape = handle_of<int32_t>(TF_INT32, {1}, {3});
  Op op(context_, "Reshape");
  op.input(four).input(shape);
  EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT,
                           {"Input to reshape is a tensor with 4 values, but the requested shape has 3"}));
  EXPECT_TRUE(add_n_works(context_));
}

TEST_F(EagerTest, BadOpDevicesAreInvalidArgument) {
  Op op(context_, "Identity");
  EXPECT_TRUE(throws_error([&] { op.device("not a device"); }, TF_INVALID_ARGUMENT, {"Malformed device"}));

  TensorHandle x = handle_of<float>(TF_FLOAT, {1}, {1});
  Op missing(context_, "Identity");
  missing.input(x).device("/job:localhost/replica:0/task:0/device:CPU:7");
  EXPECT_TRUE(throws_error([&] { missing.execute(); }, TF_INVALID_ARGUMENT,
                           {"Could not satisfy device specification"}));
}

// Outputs are collected in a fixed array of 1024: more is TensorFlow's clean
// INVALID_ARGUMENT, never a write past its end.
TEST_F(EagerTest, UpTo1024OutputsAndAClearErrorBeyond) {
  TensorHandle dim = scalar_i32(0);
  for (int64_t pieces : {1024, 1025}) {
    SCOPED_TRACE(pieces);
    std::vector<int32_t> values(static_cast<size_t>(pieces));
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i);
    TensorHandle value = handle_of<int32_t>(TF_INT32, {pieces}, values);
    Op op(context_, "Split");
    op.input(dim).input(value).attr_int("num_split", pieces);
    if (pieces == 1024) {
      std::vector<TensorHandle> out = op.execute();
      ASSERT_EQ(out.size(), 1024u);
      EXPECT_EQ(values_of<int32_t>(out[1023]), std::vector<int32_t>{1023});
    } else {
      EXPECT_TRUE(throws_error([&] { op.execute(); }, TF_INVALID_ARGUMENT, {"1025 outputs"}));
    }
  }
}

TEST_F(EagerTest, ErrorsLeakNoHandles) {
  const int64_t handles = live(ObjectKind::kTensorHandle);
  TensorHandle f = handle_of<float>(TF_FLOAT, {2, 2}, {1, 2, 3, 4});
  TensorHandle i = handle_of<int32_t>(TF_INT32, {2, 2}, {1, 2, 3, 4});
  for (int round = 0; round < 50; ++round) {
    try {
      Op op(context_, "MatMul");
      op.input(f).input(i);
      (void)op.execute();
      ADD_FAILURE() << "MatMul of float and int32 ran";
    } catch (const Error&) {
    }
    try {
      Op op(context_, "NoSuchOpAnywhere");
      ADD_FAILURE() << "made an unknown op";
    } catch (const Error&) {
    }
  }
  EXPECT_EQ(live(ObjectKind::kTensorHandle), handles + 2);
}

// ---- Concurrency ------------------------------------------------------------

class EagerConcurrencyTest : public LeakCheckedTest, public ::testing::WithParamInterface<bool> {};

// 4 threads x 200 ops on one context; each thread reuses one Op for half of
// its ops and makes a new one for the others.
TEST_P(EagerConcurrencyTest, FourThreadsShareOneContext) {
  ContextConfig config;
  config.async = GetParam();
  Context context(config);
  constexpr int kThreads = 4, kOps = 200;
  std::atomic<int> correct{0};
  std::mutex mutex;
  std::string first_problem;
  auto problem = [&](const std::string& what) {
    std::lock_guard lock(mutex);
    if (first_problem.empty()) first_problem = what;
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        Op reused(context, "AddN");
        for (int i = 0; i < kOps; ++i) {
          // AddN([t, i], [1000, 2000], [i, t]) = [t + 1000 + i, i + 2000 + t]
          TensorHandle a = handle_of<int32_t>(TF_INT32, {2}, {t, i});
          TensorHandle b = handle_of<int32_t>(TF_INT32, {2}, {1000, 2000});
          TensorHandle c = handle_of<int32_t>(TF_INT32, {2}, {i, t});
          const TensorHandle* list[] = {&a, &b, &c};
          std::vector<TensorHandle> out;
          if (i % 2 == 0) {
            reused.reset("AddN");
            reused.input_list(list);
            out = reused.execute();
          } else {
            Op op(context, "AddN");
            op.input_list(list);
            out = op.execute();
          }
          std::vector<int32_t> got = values_of<int32_t>(out.at(0));
          if (got == std::vector<int32_t>{t + 1000 + i, i + 2000 + t}) {
            ++correct;
          } else {
            problem("thread " + std::to_string(t) + " op " + std::to_string(i) + ": " +
                    ::testing::PrintToString(got));
          }
        }
      } catch (const std::exception& e) {
        problem("thread " + std::to_string(t) + ": " + e.what());
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(first_problem, "");
  EXPECT_EQ(correct.load(), kThreads * kOps);
}

INSTANTIATE_TEST_SUITE_P(SyncAndAsync, EagerConcurrencyTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? std::string("Async") : std::string("Sync");
                         });

}  // namespace
}  // namespace tfjni::test
