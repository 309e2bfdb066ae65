// RAII over TF_Tensor: numeric, bool and string (TF_TString) tensors.
#pragma once

#include <tensorflow/c/tf_tensor.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "tfjni/live_objects.h"

namespace tfjni {

// Number of elements of a shape; throws INVALID_ARGUMENT for negative dims or
// an element count or byte size that does not fit in 63 bits.
int64_t checked_element_count(std::span<const int64_t> dims);
size_t checked_byte_size(TF_DataType dtype, std::span<const int64_t> dims);

class Tensor {
 public:
  // Called when TensorFlow no longer needs wrapped memory.
  using Releaser = void (*)(void* data, size_t length, void* arg);

  // Takes ownership of a tensor the C API returned (must not be null).
  static Tensor adopt(TF_Tensor* tensor);
  // A zero-filled tensor in 64-byte aligned memory (fixed-size dtypes).
  static Tensor allocate(TF_DataType dtype, std::span<const int64_t> dims);
  // As allocate, not zeroed: for a caller that writes every byte before the tensor is used.
  static Tensor uninitialized(TF_DataType dtype, std::span<const int64_t> dims);
  // A tensor holding a copy of `byte_size` bytes (must match the shape).
  static Tensor copy_of(TF_DataType dtype, std::span<const int64_t> dims, const void* data,
                        size_t byte_size);
  // Zero-copy over caller memory of at least the shape's byte size; `release`
  // runs once TensorFlow holds no reference any more (possibly on another
  // thread, possibly at once if TensorFlow chose to copy misaligned data).
  static Tensor wrap(TF_DataType dtype, std::span<const int64_t> dims, void* data,
                     size_t byte_size, Releaser release, void* release_arg);
  // A TF_STRING tensor; every element is copied, long strings included.
  static Tensor strings(std::span<const int64_t> dims, std::span<const std::string_view> values);

  Tensor(Tensor&&) noexcept = default;
  Tensor& operator=(Tensor&&) noexcept = default;

  TF_DataType dtype() const noexcept { return TF_TensorType(tensor_.get()); }
  int rank() const noexcept { return TF_NumDims(tensor_.get()); }
  int64_t dim(int index) const noexcept { return TF_Dim(tensor_.get(), index); }
  std::vector<int64_t> shape() const;
  int64_t num_elements() const noexcept { return TF_TensorElementCount(tensor_.get()); }
  size_t byte_size() const noexcept { return TF_TensorByteSize(tensor_.get()); }
  void* data() const noexcept { return TF_TensorData(tensor_.get()); }
  // Element `index` of a string tensor, as raw bytes (throws if out of range
  // or not a string tensor).
  std::string_view string_at(int64_t index) const;

  TF_Tensor* get() const noexcept { return tensor_.get(); }

 private:
  struct Deleter {
    void operator()(TF_Tensor* t) const noexcept { TF_DeleteTensor(t); }
  };
  explicit Tensor(TF_Tensor* tensor);

  std::unique_ptr<TF_Tensor, Deleter> tensor_;
  LiveToken token_;
};

}  // namespace tfjni
