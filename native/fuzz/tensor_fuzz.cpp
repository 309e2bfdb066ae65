// Tensors built from caller-supplied shapes and bytes, as the JNI layer builds
// them from Java arrays: any rank, any dims (negative, huge, overflowing).
//  * checked_element_count / checked_byte_size agree with 128-bit arithmetic;
//  * Tensor::strings accepts exactly a valid shape with one string per
//    element, and string_at gives every string back byte for byte (short ones
//    inline in TF_TString, long ones on the heap: LeakSanitizer checks both
//    are freed);
//  * Tensor::copy_of accepts exactly a valid fixed-size shape whose byte size
//    equals the data's, and holds the data;
//  * Tensor::wrap accepts exactly a buffer large enough for the shape, and
//    calls the releaser exactly once whether or not it succeeds.
#include <fuzzer/FuzzedDataProvider.h>
#include <tensorflow/c/tf_tstring.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "tfjni/dtype.h"
#include "tfjni/tensor.h"

namespace {

using tfjni::Tensor;
using tfjni::fuzz::check;
using tfjni::fuzz::succeeds;

constexpr __int128 kMax = std::numeric_limits<int64_t>::max();

// Mostly small dims, so that valid shapes are common; sometimes anything.
std::vector<int64_t> dims_from(FuzzedDataProvider& in) {
  size_t rank = in.ConsumeIntegralInRange<size_t>(0, 6);
  if (rank == 6) rank = in.ConsumeIntegralInRange<size_t>(0, 300);  // around TensorFlow's limit of 254
  std::vector<int64_t> dims;
  for (size_t i = 0; i < rank; ++i) {
    bool small = in.ConsumeBool();
    dims.push_back(small ? in.ConsumeIntegralInRange<int64_t>(0, 4) : in.ConsumeIntegral<int64_t>());
  }
  return dims;
}

// The element count TensorFlow accepts, multiplied left to right as TensorShape
// does; nullopt for a rank over 254, a negative dim or a product over 2^63-1.
std::optional<int64_t> expected_count(const std::vector<int64_t>& dims) {
  if (dims.size() > 254) return std::nullopt;
  __int128 count = 1;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
  }
  for (int64_t d : dims) {
    count *= d;
    if (count > kMax) return std::nullopt;
  }
  return static_cast<int64_t>(count);
}

std::optional<size_t> expected_bytes(TF_DataType dtype, const std::vector<int64_t>& dims) {
  std::optional<int64_t> count = expected_count(dims);
  size_t element = dtype == TF_STRING ? sizeof(TF_TString) : tfjni::dtype_size(dtype);
  if (!count || element == 0 || static_cast<__int128>(*count) * element > kMax) return std::nullopt;
  return static_cast<size_t>(*count) * element;
}

// A code tfjni knows, as the JNI layer checks it before any call.
TF_DataType dtype_from(FuzzedDataProvider& in) {
  int code = in.ConsumeIntegralInRange(1, 33);
  while (!tfjni::is_known_dtype(code)) --code;
  return static_cast<TF_DataType>(code);
}

void check_shape(const Tensor& t, TF_DataType dtype, const std::vector<int64_t>& dims, int64_t count) {
  check(t.dtype() == dtype, "wrong dtype");
  check(t.shape() == dims, "wrong shape");
  check(t.num_elements() == count, "wrong element count");
}

void sizes(FuzzedDataProvider& in) {
  const TF_DataType dtype = dtype_from(in);
  const std::vector<int64_t> dims = dims_from(in);
  std::optional<int64_t> count;
  if (succeeds(TF_INVALID_ARGUMENT, [&] { count = tfjni::checked_element_count(dims); })) {
    check(count == expected_count(dims), "checked_element_count differs from 128-bit arithmetic");
  } else {
    check(!expected_count(dims), "checked_element_count refused a valid shape");
  }
  std::optional<size_t> bytes;
  if (succeeds(TF_INVALID_ARGUMENT, [&] { bytes = tfjni::checked_byte_size(dtype, dims); })) {
    check(bytes == expected_bytes(dtype, dims), "checked_byte_size differs from 128-bit arithmetic");
  } else {
    check(!expected_bytes(dtype, dims), "checked_byte_size refused a valid shape");
  }
}

void strings(FuzzedDataProvider& in) {
  const std::vector<int64_t> dims = dims_from(in);
  std::vector<std::string> values;
  for (size_t n = in.ConsumeIntegralInRange<size_t>(0, 16); n > 0; --n) {
    values.push_back(in.ConsumeRandomLengthString(64));
  }
  const std::vector<std::string_view> views(values.begin(), values.end());

  std::optional<Tensor> tensor;
  const bool built = succeeds(TF_INVALID_ARGUMENT, [&] { tensor.emplace(Tensor::strings(dims, views)); });
  const std::optional<int64_t> count = expected_count(dims);
  check(built == (count && static_cast<size_t>(*count) == values.size()),
        built ? "a string tensor for a bad shape or count" : "a valid string tensor refused");
  if (!built) return;
  check_shape(*tensor, TF_STRING, dims, *count);
  check(tensor->byte_size() == values.size() * sizeof(TF_TString), "wrong string tensor byte size");
  for (size_t i = 0; i < values.size(); ++i) {
    check(tensor->string_at(static_cast<int64_t>(i)) == values[i], "a string did not come back");
  }
  for (int64_t outside : {int64_t{-1}, *count, std::numeric_limits<int64_t>::min()}) {
    check(!succeeds(TF_INVALID_ARGUMENT, [&] { (void)tensor->string_at(outside); }), "string_at outside");
  }
}

void copies(FuzzedDataProvider& in) {
  const TF_DataType dtype = dtype_from(in);
  const std::vector<int64_t> dims = dims_from(in);
  const std::string data = in.ConsumeRandomLengthString(256);
  std::optional<Tensor> tensor;
  auto copy = [&] { tensor.emplace(Tensor::copy_of(dtype, dims, data.data(), data.size())); };
  const bool built = succeeds(TF_INVALID_ARGUMENT, copy);
  const std::optional<size_t> bytes = expected_bytes(dtype, dims);
  check(built == (dtype != TF_STRING && bytes == data.size()),
        built ? "copy_of accepted a wrong size" : "copy_of refused a valid size");
  if (!built) return;
  check_shape(*tensor, dtype, dims, *expected_count(dims));
  check(tensor->byte_size() == data.size(), "copy_of has another byte size");
  check(data.empty() || std::memcmp(tensor->data(), data.data(), data.size()) == 0, "copy_of: other bytes");
  check(!succeeds(TF_INVALID_ARGUMENT, [&] { (void)tensor->string_at(0); }), "string_at on a numeric tensor");
}

void count_release(void* data, size_t, void* calls) {
  ++*static_cast<int*>(calls);
  std::free(data);
}

void wraps(FuzzedDataProvider& in) {
  const TF_DataType dtype = dtype_from(in);
  const std::vector<int64_t> dims = dims_from(in);
  const auto length = in.ConsumeIntegralInRange<size_t>(0, 256);
  const bool aligned = in.ConsumeBool();  // TensorFlow copies misaligned memory and releases ours at once
  // Over-allocate so that a misaligned start still has `length` bytes after it
  // (aligned_alloc wants a multiple of the alignment).
  char* block = static_cast<char*>(std::aligned_alloc(64, (length + 64 + 63) / 64 * 64));
  check(block != nullptr, "out of memory");
  char* start = aligned ? block : block + 1;
  std::memset(start, 0x5a, length);
  int calls = 0;
  {
    std::optional<Tensor> tensor;
    // The releaser frees `block`: it must get the block back when the start is shifted.
    auto release = aligned ? count_release : +[](void* data, size_t, void* counter) {
      count_release(static_cast<char*>(data) - 1, 0, counter);
    };
    const bool built = succeeds(TF_INVALID_ARGUMENT, [&] {
      tensor.emplace(Tensor::wrap(dtype, dims, start, length, release, &calls));
    });
    const std::optional<size_t> bytes = expected_bytes(dtype, dims);
    check(built == (dtype != TF_STRING && bytes && *bytes <= length),
          built ? "wrap accepted a buffer too small" : "wrap refused a buffer large enough");
    check(built || calls == 1, "a refused buffer was not released exactly once");
    if (built) check_shape(*tensor, dtype, dims, *expected_count(dims));
  }
  check(calls == 1, "a wrapped buffer was not released exactly once");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: sizes(in); break;
    case 1: strings(in); break;
    case 2: copies(in); break;
    default: wraps(in); break;
  }
  return 0;
}
