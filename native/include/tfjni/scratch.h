// Per-call scratch arrays that stay off the heap for the common small case.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace tfjni {

// Calls with up to this many inputs or outputs keep their scratch on the stack.
inline constexpr size_t kStackTensors = 16;

// Room for `size` elements: on the stack up to N, on the heap beyond. The stack
// part is default-initialized (left as is for pointers and integers).
template <typename T, size_t N = kStackTensors>
class Scratch {
 public:
  explicit Scratch(size_t size)
      : heap_(size > N ? size : 0), data_(size > N ? heap_.data() : stack_.data()), size_(size) {}
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  T* data() noexcept { return data_; }
  T& operator[](size_t i) noexcept { return data_[i]; }
  std::span<T> span() noexcept { return {data_, size_}; }

 private:
  std::array<T, N> stack_;
  std::vector<T> heap_;
  T* data_;
  size_t size_;
};

}  // namespace tfjni
