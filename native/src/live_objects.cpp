#include "tfjni/live_objects.h"

#include <atomic>

namespace tfjni {
namespace {

std::array<std::atomic<int64_t>, kObjectKindCount> live_count{};
std::atomic<int64_t> live_tensor_bytes{0};

}  // namespace

const char* kind_name(ObjectKind kind) noexcept {
  switch (kind) {
    case ObjectKind::kTensor: return "tensor";
    case ObjectKind::kGraph: return "graph";
    case ObjectKind::kSession: return "session";
    case ObjectKind::kSavedModel: return "saved_model";
    case ObjectKind::kGraphModel: return "graph_model";
    case ObjectKind::kRunner: return "runner";
    case ObjectKind::kEagerContext: return "eager_context";
    case ObjectKind::kTensorHandle: return "tensor_handle";
    case ObjectKind::kLiteRtModel: return "litert_model";
  }
  return "unknown";
}

int64_t LiveCounts::total() const {
  int64_t sum = 0;
  for (int64_t n : count) sum += n;
  return sum;
}

LiveCounts live_objects() noexcept {
  LiveCounts counts;
  for (int i = 0; i < kObjectKindCount; ++i) {
    counts.count[i] = live_count[i].load(std::memory_order_relaxed);
  }
  counts.tensor_bytes = live_tensor_bytes.load(std::memory_order_relaxed);
  return counts;
}

LiveToken::LiveToken(ObjectKind kind, int64_t bytes) noexcept
    : kind_(kind), bytes_(bytes), active_(true) {
  live_count[static_cast<int>(kind_)].fetch_add(1, std::memory_order_relaxed);
  if (bytes_ != 0) live_tensor_bytes.fetch_add(bytes_, std::memory_order_relaxed);
}

LiveToken::LiveToken(LiveToken&& other) noexcept
    : kind_(other.kind_), bytes_(other.bytes_), active_(other.active_) {
  other.active_ = false;
}

LiveToken& LiveToken::operator=(LiveToken&& other) noexcept {
  if (this != &other) {
    drop();
    kind_ = other.kind_;
    bytes_ = other.bytes_;
    active_ = other.active_;
    other.active_ = false;
  }
  return *this;
}

LiveToken::~LiveToken() { drop(); }

void LiveToken::drop() noexcept {
  if (!active_) return;
  active_ = false;
  live_count[static_cast<int>(kind_)].fetch_sub(1, std::memory_order_relaxed);
  if (bytes_ != 0) live_tensor_bytes.fetch_sub(bytes_, std::memory_order_relaxed);
}

}  // namespace tfjni
