#include "tfjni/session_config.h"

#include <cmath>

#include "tfjni/error.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

// Field numbers from tensorflow/core/protobuf/config.proto.
namespace config_proto {
constexpr uint32_t kIntraOpThreads = 2;
constexpr uint32_t kInterOpThreads = 5;
constexpr uint32_t kGpuOptions = 6;
constexpr uint32_t kAllowSoftPlacement = 7;
constexpr uint32_t kUsePerSessionThreads = 9;
constexpr uint32_t kSessionInterOpThreadPool = 12;
}  // namespace config_proto
namespace gpu_options {
constexpr uint32_t kMemoryFraction = 1;
constexpr uint32_t kAllowGrowth = 4;
constexpr uint32_t kVisibleDeviceList = 5;
}  // namespace gpu_options
namespace thread_pool_option {
constexpr uint32_t kNumThreads = 1;
constexpr uint32_t kGlobalName = 2;
}  // namespace thread_pool_option

int32_t checked_threads(int32_t threads, const char* what) {
  if (threads < 0) {
    throw_invalid_argument(std::string(what) + " must be >= 0 (0 lets TensorFlow choose), got " +
                           std::to_string(threads));
  }
  return threads;
}

// proto3 leaves fields at their default value off the wire; so do we, which
// keeps our bytes identical to what TensorFlow Python serializes.
void put_int(wire::Writer& w, uint32_t field, int32_t value) {
  if (value != 0) w.varint(field, static_cast<uint64_t>(value));
}
void put_bool(wire::Writer& w, uint32_t field, bool value) {
  if (value) w.varint(field, 1);
}

}  // namespace

std::string SessionConfig::serialize() const {
  wire::Writer w;
  if (intra_op_threads) {
    put_int(w, config_proto::kIntraOpThreads, checked_threads(*intra_op_threads, "intra-op threads"));
  }
  if (inter_op_threads) {
    put_int(w, config_proto::kInterOpThreads, checked_threads(*inter_op_threads, "inter-op threads"));
  }
  wire::Writer gpu;
  if (gpu_memory_fraction) {
    double fraction = *gpu_memory_fraction;
    if (!std::isfinite(fraction) || fraction < 0) {
      throw_invalid_argument("GPU memory fraction must be a finite number >= 0, got " +
                             std::to_string(fraction));
    }
    if (fraction != 0) gpu.double_value(gpu_options::kMemoryFraction, fraction);
  }
  if (gpu_allow_growth) put_bool(gpu, gpu_options::kAllowGrowth, *gpu_allow_growth);
  if (gpu_visible_devices && !gpu_visible_devices->empty()) {
    gpu.bytes(gpu_options::kVisibleDeviceList, *gpu_visible_devices);
  }
  if (!gpu.data().empty()) w.bytes(config_proto::kGpuOptions, gpu.data());
  if (allow_soft_placement) put_bool(w, config_proto::kAllowSoftPlacement, *allow_soft_placement);
  if (use_per_session_threads) {
    put_bool(w, config_proto::kUsePerSessionThreads, *use_per_session_threads);
  }
  for (const ThreadPoolOption& pool : session_inter_op_thread_pools) {
    wire::Writer option;
    put_int(option, thread_pool_option::kNumThreads,
            checked_threads(pool.num_threads, "session thread pool size"));
    if (!pool.global_name.empty()) option.bytes(thread_pool_option::kGlobalName, pool.global_name);
    w.bytes(config_proto::kSessionInterOpThreadPool, option.data());
  }
  return raw_config_proto + w.data();
}

}  // namespace tfjni
