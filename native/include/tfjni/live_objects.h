// Live native object accounting: every RAII type of the core holds a LiveToken,
// so a leak shows up as a count that does not return to zero.
#pragma once

#include <array>
#include <cstdint>

namespace tfjni {

enum class ObjectKind : int {
  kTensor = 0,
  kGraph,
  kSession,
  kSavedModel,
  kGraphModel,
  kRunner,
  kEagerContext,
  kTensorHandle,
  kLiteRtModel,
};
inline constexpr int kObjectKindCount = 9;

const char* kind_name(ObjectKind kind) noexcept;

struct LiveCounts {
  std::array<int64_t, kObjectKindCount> count{};
  int64_t tensor_bytes = 0;

  int64_t of(ObjectKind kind) const { return count[static_cast<int>(kind)]; }
  int64_t total() const;
};

LiveCounts live_objects() noexcept;

// Counts one live object of a kind (and, for tensors, its bytes) for as long as
// it exists. Movable, not copyable: a moved-from token counts nothing.
class LiveToken {
 public:
  explicit LiveToken(ObjectKind kind, int64_t bytes = 0) noexcept;
  LiveToken(LiveToken&& other) noexcept;
  LiveToken& operator=(LiveToken&& other) noexcept;
  LiveToken(const LiveToken&) = delete;
  LiveToken& operator=(const LiveToken&) = delete;
  ~LiveToken();

 private:
  void drop() noexcept;
  ObjectKind kind_;
  int64_t bytes_;
  bool active_;
};

}  // namespace tfjni
