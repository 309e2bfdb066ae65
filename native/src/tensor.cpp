#include "tfjni/tensor.h"

#include <tensorflow/c/tf_tstring.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "aligned_memory.h"
#include "tfjni/dtype.h"
#include "tfjni/error.h"
#include "tfjni/signature.h"

namespace tfjni {
namespace {

constexpr int64_t kMaxBytes = std::numeric_limits<int64_t>::max();
constexpr size_t kAlignment = 64;

void no_release(void*, size_t, void*) {}

// String tensors are built over our own buffer so that, when TensorFlow drops
// its last reference, every element (and a long string's heap block) is freed.
void release_strings(void* data, size_t length, void*) {
  auto* elements = static_cast<TF_TString*>(data);
  for (size_t i = 0; i < length / sizeof(TF_TString); ++i) TF_StringDealloc(&elements[i]);
  aligned_free(data);
}

TF_Tensor* new_tensor_or_throw(TF_DataType dtype, std::span<const int64_t> dims, void* data,
                               size_t length, Tensor::Releaser release, void* arg) {
  TF_Tensor* t = TF_NewTensor(dtype, dims.data(), static_cast<int>(dims.size()), data, length,
                              release, arg);
  if (t == nullptr) throw_invalid_argument("TensorFlow refused to create a " + dtype_name(dtype) +
                                           " tensor of shape " +
                                           shape_string({dims.begin(), dims.end()}));
  return t;
}

// TensorFlow's own TF_AllocateTensor takes its memory from posix_memalign, which in glibc
// carves an aligned block out of a larger one on every call: about ten times the
// instructions of a plain malloc, and more again to free it (callgrind, a 3 KB input per
// DJL predict: 1,550 against ~150). A malloc with room to round the address up gives the
// same alignment; the block's own address travels as the release argument.
void release_aligned(void*, size_t, void* block) { std::free(block); }

TF_Tensor* new_aligned_tensor(TF_DataType dtype, std::span<const int64_t> dims, size_t length) {
  if (length > std::numeric_limits<size_t>::max() - kAlignment) throw std::bad_alloc();
  void* block = std::malloc(length + kAlignment - 1);
  if (block == nullptr) {
    throw_error(TF_RESOURCE_EXHAUSTED, "could not allocate " + std::to_string(length) +
                                           " bytes for a " + dtype_name(dtype) + " tensor of shape " +
                                           shape_string({dims.begin(), dims.end()}));
  }
  auto address = (reinterpret_cast<uintptr_t>(block) + kAlignment - 1) & ~uintptr_t{kAlignment - 1};
  TF_Tensor* t = TF_NewTensor(dtype, dims.data(), static_cast<int>(dims.size()),
                              reinterpret_cast<void*>(address), length, release_aligned, block);
  // TF_NewTensor fails only on a length short of the shape (checked by the caller), before it
  // takes the memory; free it here in that case.
  if (t == nullptr) {
    std::free(block);
    throw_invalid_argument("TensorFlow refused to create a " + dtype_name(dtype) +
                           " tensor of shape " + shape_string({dims.begin(), dims.end()}));
  }
  return t;
}

void check_rank(std::span<const int64_t> dims) {
  if (dims.size() > 254) {
    throw_invalid_argument("rank " + std::to_string(dims.size()) + " exceeds TensorFlow's limit");
  }
}

}  // namespace

int64_t checked_element_count(std::span<const int64_t> dims) {
  check_rank(dims);
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      throw_invalid_argument("negative dimension in shape " + shape_string({dims.begin(), dims.end()}));
    }
  }
  for (int64_t d : dims) {
    if (d == 0) return 0;
    if (count > kMaxBytes / d) {
      throw_invalid_argument("shape " + shape_string({dims.begin(), dims.end()}) +
                             " has too many elements");
    }
    count *= d;
  }
  return count;
}

size_t checked_byte_size(TF_DataType dtype, std::span<const int64_t> dims) {
  int64_t count = checked_element_count(dims);
  size_t element_size = dtype == TF_STRING ? sizeof(TF_TString) : dtype_size(dtype);
  if (element_size == 0) {
    throw_invalid_argument("cannot create a tensor of dtype " + dtype_name(dtype));
  }
  if (count > kMaxBytes / static_cast<int64_t>(element_size)) {
    throw_invalid_argument("a " + dtype_name(dtype) + " tensor of shape " +
                           shape_string({dims.begin(), dims.end()}) + " is too large");
  }
  return static_cast<size_t>(count) * element_size;
}

Tensor::Tensor(TF_Tensor* tensor)
    : tensor_(tensor), token_(ObjectKind::kTensor, static_cast<int64_t>(TF_TensorByteSize(tensor))) {}

Tensor Tensor::adopt(TF_Tensor* tensor) {
  if (tensor == nullptr) throw_error(TF_INTERNAL, "TensorFlow returned a null tensor");
  return Tensor(tensor);
}

Tensor Tensor::uninitialized(TF_DataType dtype, std::span<const int64_t> dims) {
  if (dtype == TF_STRING) throw_invalid_argument("string tensors are created from their values");
  size_t length = checked_byte_size(dtype, dims);
  if (length == 0) {
    TF_Tensor* t = TF_AllocateTensor(dtype, dims.data(), static_cast<int>(dims.size()), 0);
    if (t == nullptr) throw std::bad_alloc();
    return Tensor(t);
  }
  return Tensor(new_aligned_tensor(dtype, dims, length));
}

Tensor Tensor::allocate(TF_DataType dtype, std::span<const int64_t> dims) {
  Tensor tensor = uninitialized(dtype, dims);
  if (tensor.byte_size() > 0) std::memset(tensor.data(), 0, tensor.byte_size());
  return tensor;
}

Tensor Tensor::copy_of(TF_DataType dtype, std::span<const int64_t> dims, const void* data,
                       size_t byte_size) {
  if (dtype == TF_STRING) throw_invalid_argument("string tensors are created from their values");
  // Sizes first: a huge shape beside a few bytes must not allocate (and zero) the huge size.
  size_t needed = checked_byte_size(dtype, dims);
  if (byte_size != needed) {
    throw_invalid_argument("shape " + shape_string({dims.begin(), dims.end()}) + " of " +
                           dtype_name(dtype) + " needs " + std::to_string(needed) + " bytes, got " +
                           std::to_string(byte_size));
  }
  Tensor tensor = uninitialized(dtype, dims);
  if (byte_size > 0) std::memcpy(tensor.data(), data, byte_size);
  return tensor;
}

Tensor Tensor::wrap(TF_DataType dtype, std::span<const int64_t> dims, void* data, size_t byte_size,
                    Releaser release, void* release_arg) {
  size_t needed;
  try {
    if (dtype == TF_STRING) throw_invalid_argument("string tensors are created from their values");
    needed = checked_byte_size(dtype, dims);
    if (byte_size < needed) {
      throw_invalid_argument("buffer of " + std::to_string(byte_size) + " bytes is too small for a " +
                             dtype_name(dtype) + " tensor of shape " +
                             shape_string({dims.begin(), dims.end()}) + " (" +
                             std::to_string(needed) + " bytes)");
    }
  } catch (...) {
    if (release != nullptr) release(data, byte_size, release_arg);
    throw;
  }
  return Tensor(new_tensor_or_throw(dtype, dims, data, needed,
                                    release != nullptr ? release : no_release, release_arg));
}

Tensor Tensor::strings(std::span<const int64_t> dims, std::span<const std::string_view> values) {
  size_t length = checked_byte_size(TF_STRING, dims);
  size_t count = length / sizeof(TF_TString);
  if (count != values.size()) {
    throw_invalid_argument("shape " + shape_string({dims.begin(), dims.end()}) + " has " +
                           std::to_string(count) + " elements, got " +
                           std::to_string(values.size()) + " strings");
  }
  size_t padded = (length + kAlignment - 1) / kAlignment * kAlignment;
  auto* elements = static_cast<TF_TString*>(aligned_allocate(kAlignment, padded == 0 ? kAlignment : padded));
  if (elements == nullptr) throw std::bad_alloc();
  for (size_t i = 0; i < count; ++i) TF_StringInit(&elements[i]);
  // From here on release_strings owns the buffer, including on failure.
  Tensor tensor(new_tensor_or_throw(TF_STRING, dims, elements, length, release_strings, nullptr));
  for (size_t i = 0; i < count; ++i) {
    TF_StringCopy(&elements[i], values[i].data(), values[i].size());
  }
  return tensor;
}

std::vector<int64_t> Tensor::shape() const {
  std::vector<int64_t> dims(static_cast<size_t>(rank()));
  for (int i = 0; i < rank(); ++i) dims[i] = dim(i);
  return dims;
}

std::string_view Tensor::string_at(int64_t index) const {
  if (dtype() != TF_STRING) throw_invalid_argument("not a string tensor but " + dtype_name(dtype()));
  if (index < 0 || index >= num_elements()) {
    throw_invalid_argument("string index " + std::to_string(index) + " out of range [0, " +
                           std::to_string(num_elements()) + ")");
  }
  const auto* element = static_cast<const TF_TString*>(data()) + index;
  return {TF_StringGetDataPointer(element), TF_StringGetSize(element)};
}

}  // namespace tfjni
