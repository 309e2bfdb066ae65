// tfjni::Tensor: allocation, copies, wrapped memory, strings, bad shapes.
#include <tensorflow/c/tf_tstring.h>

#include <array>
#include <cstring>
#include <limits>
#include <new>

#include "test_data.h"

namespace tfjni::test {
namespace {

using TensorTest = LeakCheckedTest;

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

bool is_aligned(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

// Records the calls of a Tensor::Releaser.
struct ReleaseLog {
  int calls = 0;
  void* data = nullptr;
  size_t length = 0;

  static void release(void* data, size_t length, void* arg) {
    auto* log = static_cast<ReleaseLog*>(arg);
    ++log->calls;
    log->data = data;
    log->length = length;
  }
};

std::vector<TF_DataType> fixed_size_dtypes() {
  std::vector<TF_DataType> dtypes;
  for (int code = 0; code < 32; ++code) {  // TF_DataType's range
    auto dtype = static_cast<TF_DataType>(code);
    if (dtype_size(dtype) > 0) dtypes.push_back(dtype);
  }
  return dtypes;
}

// ---- allocate ---------------------------------------------------------------

TEST_F(TensorTest, AllocateEveryFixedSizeDtypeZeroFilledAndAligned) {
  const std::vector<int64_t> dims{2, 3, 5};
  std::vector<TF_DataType> dtypes = fixed_size_dtypes();
  ASSERT_GE(dtypes.size(), 20u);
  for (TF_DataType dtype : dtypes) {
    SCOPED_TRACE(dtype_name(dtype));
    Tensor t = Tensor::allocate(dtype, dims);
    EXPECT_EQ(t.dtype(), dtype);
    EXPECT_EQ(t.rank(), 3);
    EXPECT_EQ(t.shape(), dims);
    EXPECT_EQ(t.dim(1), 3);
    EXPECT_EQ(t.num_elements(), 30);
    ASSERT_EQ(t.byte_size(), 30 * dtype_size(dtype));
    EXPECT_TRUE(is_aligned(t.data(), 64)) << t.data();
    const auto* bytes = static_cast<const unsigned char*>(t.data());
    for (size_t i = 0; i < t.byte_size(); ++i) ASSERT_EQ(bytes[i], 0) << "byte " << i;
  }
}

// allocate and uninitialized take their memory from malloc and round the address up
// themselves: every size must come out aligned, and writing all of it must stay in bounds
// (the sanitizer builds check the latter).
TEST_F(TensorTest, UninitializedIsAlignedForEverySize) {
  for (int64_t n = 1; n <= 300; ++n) {
    SCOPED_TRACE(n);
    const std::vector<int64_t> dims{n};
    Tensor t = Tensor::uninitialized(TF_UINT8, dims);
    ASSERT_EQ(t.byte_size(), static_cast<size_t>(n));
    EXPECT_TRUE(is_aligned(t.data(), 64)) << t.data();
    EXPECT_EQ(t.data(), TF_TensorData(t.get()));
    std::memset(t.data(), 0xAB, t.byte_size());
  }
}

// malloc hands back freed memory as it was: allocate must still zero what a dropped
// tensor left behind.
TEST_F(TensorTest, AllocateZeroesRecycledMemory) {
  const std::vector<int64_t> dims{64};
  for (int round = 0; round < 20; ++round) {
    {
      Tensor dirty = Tensor::uninitialized(TF_FLOAT, dims);
      std::memset(dirty.data(), 0xFF, dirty.byte_size());
    }
    Tensor clean = Tensor::allocate(TF_FLOAT, dims);
    const auto* bytes = static_cast<const unsigned char*>(clean.data());
    for (size_t i = 0; i < clean.byte_size(); ++i) ASSERT_EQ(bytes[i], 0) << "round " << round << " byte " << i;
  }
}

TEST_F(TensorTest, AllocateScalarAndEmpty) {
  Tensor scalar = Tensor::allocate(TF_DOUBLE, {});
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.num_elements(), 1);
  EXPECT_EQ(scalar.byte_size(), sizeof(double));
  EXPECT_TRUE(scalar.shape().empty());

  const std::vector<int64_t> empty_dims{4, 0, 3};
  Tensor empty = Tensor::allocate(TF_INT32, empty_dims);
  EXPECT_EQ(empty.shape(), empty_dims);
  EXPECT_EQ(empty.num_elements(), 0);
  EXPECT_EQ(empty.byte_size(), 0u);
}

TEST_F(TensorTest, AllocateRejectsVariableSizeAndUnknownDtypes) {
  const std::vector<int64_t> dims{2};
  EXPECT_TRUE(throws_error([&] { Tensor::allocate(TF_STRING, dims); }, TF_INVALID_ARGUMENT, {"string"}));
  EXPECT_TRUE(throws_error([&] { Tensor::allocate(TF_RESOURCE, dims); }, TF_INVALID_ARGUMENT, {"RESOURCE"}));
  EXPECT_TRUE(throws_error([&] { Tensor::allocate(TF_VARIANT, dims); }, TF_INVALID_ARGUMENT, {"VARIANT"}));
  EXPECT_TRUE(throws_error([&] { Tensor::allocate(static_cast<TF_DataType>(0), dims); },
                           TF_INVALID_ARGUMENT, {"DTYPE_0"}));
}

TEST_F(TensorTest, NegativeDimsAreInvalid) {
  const std::vector<int64_t> dims{2, -1};
  const std::string_view fragments[] = {"negative", "[2,-1]"};
  EXPECT_TRUE(throws_error([&] { Tensor::allocate(TF_FLOAT, dims); }, TF_INVALID_ARGUMENT,
                           {fragments[0], fragments[1]}));
  float data[2] = {};
  EXPECT_TRUE(throws_error([&] { Tensor::copy_of(TF_FLOAT, dims, data, sizeof data); },
                           TF_INVALID_ARGUMENT, {fragments[0]}));
  EXPECT_TRUE(throws_error([&] { Tensor::strings(dims, {}); }, TF_INVALID_ARGUMENT, {fragments[0]}));
  // Negative is reported even when another dimension is zero.
  const std::vector<int64_t> zero_and_negative{0, -5};
  EXPECT_TRUE(throws_error([&] { checked_element_count(zero_and_negative); }, TF_INVALID_ARGUMENT,
                           {fragments[0]}));
}

TEST_F(TensorTest, OverflowingDimsAreInvalid) {
  const std::vector<int64_t> huge{int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_TRUE(throws_error([&] { checked_element_count(huge); }, TF_INVALID_ARGUMENT, {"too many elements"}));
  EXPECT_TRUE(throws_error([&] { Tensor::allocate(TF_FLOAT, huge); }, TF_INVALID_ARGUMENT));
  EXPECT_TRUE(throws_error([&] { Tensor::strings(huge, {}); }, TF_INVALID_ARGUMENT));
  const std::vector<int64_t> three_factors{int64_t{1} << 31, int64_t{1} << 31, 4};
  EXPECT_TRUE(throws_error([&] { checked_element_count(three_factors); }, TF_INVALID_ARGUMENT));

  // The element count fits in 63 bits, the byte size does not.
  const std::vector<int64_t> max_elements{kMaxInt64};
  EXPECT_EQ(checked_element_count(max_elements), kMaxInt64);
  EXPECT_EQ(checked_byte_size(TF_UINT8, max_elements), static_cast<size_t>(kMaxInt64));
  const std::vector<int64_t> too_many_doubles{int64_t{1} << 60};
  EXPECT_TRUE(throws_error([&] { checked_byte_size(TF_DOUBLE, too_many_doubles); }, TF_INVALID_ARGUMENT,
                           {"too large"}));
  const std::vector<int64_t> most_doubles{(int64_t{1} << 60) - 1};
  EXPECT_EQ(checked_byte_size(TF_DOUBLE, most_doubles), static_cast<size_t>(kMaxInt64 - 7));
}

TEST_F(TensorTest, ZeroDimensionWinsOverHugeOnes) {
  const std::vector<int64_t> dims{0, kMaxInt64, kMaxInt64};
  EXPECT_EQ(checked_element_count(dims), 0);
  Tensor t = Tensor::allocate(TF_FLOAT, dims);
  EXPECT_EQ(t.num_elements(), 0);
}

TEST_F(TensorTest, RankAboveTensorFlowsLimitIsInvalid) {
  const std::vector<int64_t> rank254(254, 1), rank255(255, 1);
  Tensor t = Tensor::allocate(TF_INT8, rank254);
  EXPECT_EQ(t.rank(), 254);
  EXPECT_TRUE(throws_error([&] { Tensor::allocate(TF_INT8, rank255); }, TF_INVALID_ARGUMENT, {"rank 255"}));
}

// Representable, but far more memory than the machine has: a clean error,
// not a write through the null buffer TensorFlow hands back.
TEST_F(TensorTest, ImpossibleAllocationIsResourceExhausted) {
  const std::vector<int64_t> dims{int64_t{1} << 50};
  EXPECT_TRUE(throws_error([&] { Tensor::allocate(TF_FLOAT, dims); }, TF_RESOURCE_EXHAUSTED,
                           {"4503599627370496 bytes"}));
  EXPECT_TRUE(throws_error([&] { Tensor::copy_of(TF_INT8, dims, nullptr, size_t{1} << 50); },
                           TF_RESOURCE_EXHAUSTED));
}

// ---- copy_of ----------------------------------------------------------------

TEST_F(TensorTest, CopyOfCopiesTheBytes) {
  std::array<int32_t, 6> values{1, -2, 3, std::numeric_limits<int32_t>::min(), 0, 42};
  const std::vector<int64_t> dims{3, 2};
  Tensor t = Tensor::copy_of(TF_INT32, dims, values.data(), sizeof values);
  EXPECT_NE(t.data(), static_cast<void*>(values.data()));
  EXPECT_EQ(std::memcmp(t.data(), values.data(), sizeof values), 0);
  values[0] = 99;  // the tensor has its own copy
  EXPECT_EQ(static_cast<const int32_t*>(t.data())[0], 1);
}

TEST_F(TensorTest, CopyOfSizeMismatchIsInvalid) {
  std::array<float, 7> values{};
  const std::vector<int64_t> dims{2, 3};
  EXPECT_TRUE(throws_error([&] { Tensor::copy_of(TF_FLOAT, dims, values.data(), 7 * sizeof(float)); },
                           TF_INVALID_ARGUMENT, {"needs 24 bytes, got 28"}));
  EXPECT_TRUE(throws_error([&] { Tensor::copy_of(TF_FLOAT, dims, values.data(), 5 * sizeof(float)); },
                           TF_INVALID_ARGUMENT, {"needs 24 bytes, got 20"}));
  Tensor empty = Tensor::copy_of(TF_FLOAT, std::vector<int64_t>{0}, nullptr, 0);
  EXPECT_EQ(empty.num_elements(), 0);
}

// Found by tensor_fuzz: copy_of allocated (and zeroed) the shape's size before
// comparing it with the data's, so [5027642012246328773] UINT8 beside a few
// bytes asked TensorFlow for 5 EB (RESOURCE_EXHAUSTED, or gigabytes allocated
// and zeroed for nothing when the machine has them).
TEST_F(TensorTest, CopyOfChecksTheSizeBeforeAllocating) {
  const std::array<uint8_t, 4> bytes{1, 2, 3, 4};
  const std::vector<int64_t> huge{5027642012246328773};
  EXPECT_TRUE(throws_error([&] { Tensor::copy_of(TF_UINT8, huge, bytes.data(), bytes.size()); }, TF_INVALID_ARGUMENT,
                           {"needs 5027642012246328773 bytes, got 4"}));
  const std::vector<int64_t> eight_gib{int64_t{1} << 31};
  EXPECT_TRUE(throws_error([&] { Tensor::copy_of(TF_FLOAT, eight_gib, bytes.data(), bytes.size()); },
                           TF_INVALID_ARGUMENT, {"needs 8589934592 bytes, got 4"}));
  EXPECT_TRUE(throws_error([&] { Tensor::copy_of(TF_STRING, std::vector<int64_t>{1}, bytes.data(), bytes.size()); },
                           TF_INVALID_ARGUMENT, {"created from their values"}));
}

TEST_F(TensorTest, AdoptNullIsInternal) {
  EXPECT_TRUE(throws_error([] { Tensor::adopt(nullptr); }, TF_INTERNAL));
}

// ---- wrap -------------------------------------------------------------------

TEST_F(TensorTest, WrapIsZeroCopyAndReleasesOnceAfterDestruction) {
  alignas(64) std::array<float, 6> buffer{1, 2, 3, 4, 5, 6};
  ReleaseLog log;
  const std::vector<int64_t> dims{2, 3};
  {
    Tensor t = Tensor::wrap(TF_FLOAT, dims, buffer.data(), sizeof buffer, ReleaseLog::release, &log);
    EXPECT_EQ(t.data(), static_cast<void*>(buffer.data()));
    EXPECT_EQ(t.shape(), dims);
    buffer[4] = -5;  // the tensor sees the caller's memory
    EXPECT_EQ(static_cast<const float*>(t.data())[4], -5.0f);
    Tensor moved = std::move(t);
    EXPECT_EQ(log.calls, 0) << "released while the tensor is alive";
  }
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.data, static_cast<void*>(buffer.data()));
}

TEST_F(TensorTest, WrapLargerBufferUsesTheShapesBytes) {
  alignas(64) std::array<int64_t, 8> buffer{};
  ReleaseLog log;
  {
    Tensor t = Tensor::wrap(TF_INT64, std::vector<int64_t>{5}, buffer.data(), sizeof buffer,
                            ReleaseLog::release, &log);
    EXPECT_EQ(t.byte_size(), 5 * sizeof(int64_t));
  }
  EXPECT_EQ(log.calls, 1);
}

TEST_F(TensorTest, WrapWithoutReleaser) {
  alignas(64) std::array<uint8_t, 4> buffer{1, 2, 3, 4};
  Tensor t = Tensor::wrap(TF_UINT8, std::vector<int64_t>{4}, buffer.data(), sizeof buffer, nullptr, nullptr);
  EXPECT_EQ(t.data(), static_cast<void*>(buffer.data()));
}

TEST_F(TensorTest, WrapRejectionReleasesAtOnce) {
  alignas(64) std::array<float, 4> buffer{};
  const std::vector<int64_t> five{5}, negative{-1};
  struct Bad {
    const char* what;
    TF_DataType dtype;
    const std::vector<int64_t>* dims;
    const char* fragment;
  };
  for (const Bad& bad : {Bad{"too small", TF_FLOAT, &five, "too small"},
                         Bad{"negative dim", TF_FLOAT, &negative, "negative"},
                         Bad{"string", TF_STRING, &five, "string"},
                         Bad{"variant", TF_VARIANT, &five, "VARIANT"}}) {
    SCOPED_TRACE(bad.what);
    ReleaseLog log;
    EXPECT_TRUE(throws_error(
        [&] { Tensor::wrap(bad.dtype, *bad.dims, buffer.data(), sizeof buffer, ReleaseLog::release, &log); },
        TF_INVALID_ARGUMENT, {bad.fragment}));
    EXPECT_EQ(log.calls, 1);
    EXPECT_EQ(log.data, static_cast<void*>(buffer.data()));
  }
}

// TensorFlow copies misaligned memory and releases the original at once (as
// documented): the releaser still runs exactly once.
TEST_F(TensorTest, WrapMisalignedMemoryIsCopiedAndReleasedOnce) {
  alignas(64) std::array<unsigned char, 64 + 3 * sizeof(float)> raw{};
  void* misaligned = raw.data() + 4;
  const float values[3] = {1.5f, -2.5f, 3.5f};
  std::memcpy(misaligned, values, sizeof values);
  ReleaseLog log;
  {
    Tensor t = Tensor::wrap(TF_FLOAT, std::vector<int64_t>{3}, misaligned, sizeof values,
                            ReleaseLog::release, &log);
    EXPECT_EQ(std::memcmp(t.data(), values, sizeof values), 0);
    if (t.data() != misaligned) {
      EXPECT_EQ(log.calls, 1) << "copied, so released at once";
    }
  }
  EXPECT_EQ(log.calls, 1);
}

// ---- strings ----------------------------------------------------------------

TEST_F(TensorTest, StringsRoundTripTrickyValues) {
  const std::string long_string(100, 'L');
  const std::vector<std::string> values{
      "",
      "héllo wörld ✓ 日本語",
      "twenty-one bytes long",  // still inline (small string)
      "a string of more than twenty-two bytes",
      std::string("embedded\0nul", 12),
      "\xff\xfe not UTF-8",
      long_string,
  };
  std::vector<std::string_view> views(values.begin(), values.end());
  Tensor t = Tensor::strings(std::vector<int64_t>{7}, views);
  EXPECT_EQ(t.dtype(), TF_STRING);
  EXPECT_EQ(t.num_elements(), 7);
  EXPECT_EQ(t.byte_size(), 7 * sizeof(TF_TString));
  const auto* elements = static_cast<const TF_TString*>(t.data());
  for (size_t i = 0; i < values.size(); ++i) {
    SCOPED_TRACE(i);
    std::string_view got = t.string_at(static_cast<int64_t>(i));
    EXPECT_EQ(got, values[i]);
    EXPECT_EQ(got.size(), values[i].size());
    if (!values[i].empty()) {
      EXPECT_NE(got.data(), values[i].data()) << "not copied";
    }
    if (values[i].size() > 22) {
      EXPECT_EQ(TF_StringGetType(&elements[i]), TF_TSTR_LARGE);
    }
  }
}

TEST_F(TensorTest, StringsAreCopiedNotReferenced) {
  std::string source(40, 'a');
  std::string_view view = source;
  Tensor t = Tensor::strings(std::vector<int64_t>{1}, {&view, 1});
  source.assign(40, 'b');
  EXPECT_EQ(t.string_at(0), std::string(40, 'a'));
}

TEST_F(TensorTest, StringShapes) {
  std::string_view one[] = {"scalar"};
  Tensor scalar = Tensor::strings({}, one);
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.string_at(0), "scalar");

  for (const std::vector<int64_t>& dims : {std::vector<int64_t>{0}, std::vector<int64_t>{2, 0, 3}}) {
    Tensor empty = Tensor::strings(dims, {});
    EXPECT_EQ(empty.shape(), dims);
    EXPECT_EQ(empty.num_elements(), 0);
    EXPECT_EQ(empty.byte_size(), 0u);
    EXPECT_TRUE(throws_error([&] { (void)empty.string_at(0); }, TF_INVALID_ARGUMENT, {"out of range"}));
  }

  std::string_view six[] = {"a", "bb", "ccc", "", "eeeee", "ffffffffffffffffffffffffffffff"};
  Tensor matrix = Tensor::strings(std::vector<int64_t>{2, 3}, six);
  EXPECT_EQ(matrix.string_at(5), six[5]);
}

TEST_F(TensorTest, StringCountMustMatchShape) {
  std::string_view two[] = {"a", "b"};
  EXPECT_TRUE(throws_error([&] { Tensor::strings(std::vector<int64_t>{3}, two); }, TF_INVALID_ARGUMENT,
                           {"3 elements, got 2 strings"}));
  EXPECT_TRUE(throws_error([&] { Tensor::strings(std::vector<int64_t>{1}, two); }, TF_INVALID_ARGUMENT));
  EXPECT_TRUE(throws_error([&] { Tensor::strings({}, {}); }, TF_INVALID_ARGUMENT));
}

TEST_F(TensorTest, StringAtOutOfRangeOrOnNumbersIsInvalid) {
  std::string_view two[] = {"a", "b"};
  Tensor t = Tensor::strings(std::vector<int64_t>{2}, two);
  EXPECT_TRUE(throws_error([&] { (void)t.string_at(2); }, TF_INVALID_ARGUMENT, {"index 2", "[0, 2)"}));
  EXPECT_TRUE(throws_error([&] { (void)t.string_at(-1); }, TF_INVALID_ARGUMENT, {"index -1"}));
  EXPECT_TRUE(throws_error([&] { (void)t.string_at(std::numeric_limits<int64_t>::min()); },
                           TF_INVALID_ARGUMENT));
  Tensor numbers = Tensor::allocate(TF_INT32, std::vector<int64_t>{2});
  EXPECT_TRUE(throws_error([&] { (void)numbers.string_at(0); }, TF_INVALID_ARGUMENT, {"INT32"}));
}

// ---- live counts ------------------------------------------------------------

TEST_F(TensorTest, LiveCountsAndBytesGoUpAndBackDown) {
  const LiveCounts before = live_objects();
  {
    Tensor a = Tensor::allocate(TF_FLOAT, std::vector<int64_t>{2, 3});
    EXPECT_EQ(live_objects().of(ObjectKind::kTensor), before.of(ObjectKind::kTensor) + 1);
    EXPECT_EQ(live_objects().tensor_bytes, before.tensor_bytes + 24);

    std::string_view words[] = {"x", "a string that is longer than twenty-two bytes"};
    Tensor s = Tensor::strings(std::vector<int64_t>{2}, words);
    EXPECT_EQ(live_objects().of(ObjectKind::kTensor), before.of(ObjectKind::kTensor) + 2);
    EXPECT_EQ(live_objects().tensor_bytes,
              before.tensor_bytes + 24 + static_cast<int64_t>(2 * sizeof(TF_TString)));

    Tensor moved = std::move(a);  // a move does not count twice
    EXPECT_EQ(live_objects().of(ObjectKind::kTensor), before.of(ObjectKind::kTensor) + 2);
    moved = std::move(s);  // assignment frees the float tensor
    EXPECT_EQ(live_objects().of(ObjectKind::kTensor), before.of(ObjectKind::kTensor) + 1);
    EXPECT_EQ(live_objects().tensor_bytes,
              before.tensor_bytes + static_cast<int64_t>(2 * sizeof(TF_TString)));
  }
  EXPECT_TRUE(same_live_counts(before, live_objects()));
}

TEST_F(TensorTest, FailedCreationsLeaveNoLiveObjects) {
  const LiveCounts before = live_objects();
  float data[3] = {};
  const std::vector<int64_t> dims{2};
  EXPECT_ANY_THROW(Tensor::copy_of(TF_FLOAT, dims, data, sizeof data));
  std::string_view one[] = {"x"};
  EXPECT_ANY_THROW(Tensor::strings(dims, one));
  EXPECT_TRUE(same_live_counts(before, live_objects()));
}

}  // namespace
}  // namespace tfjni::test
