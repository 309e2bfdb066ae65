#include "tfjni/session_config.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

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
// keeps our bytes identical to what TensorFlow Python serializes. After raw
// ConfigProto bytes, though, a default set on purpose must be written to
// override the raw value (a later field wins when protobuf merges).
struct FieldWriter {
  wire::Writer& w;
  bool write_defaults;

  void put_int(uint32_t field, int32_t value) {
    if (value != 0 || write_defaults) w.varint(field, static_cast<uint64_t>(value));
  }
  void put_bool(uint32_t field, bool value) {
    if (value || write_defaults) w.varint(field, value ? 1 : 0);
  }
};

// Our fields take precedence only if they start where a field may start. Raw
// bytes that end inside a field (a cut varint, a length past the end) would
// swallow the first of them, and TensorFlow could accept the result with that
// setting silently lost.
void check_whole_fields(std::string_view raw) {
  try {
    wire::Reader reader(raw);
    while (reader.next()) {
    }
  } catch (const Error& e) {
    throw_invalid_argument(std::string("the raw ConfigProto bytes are not a sequence of whole fields (") +
                           e.what() + ")");
  }
}

// The fields of the raw bytes that decide where the session's ops run (the
// last occurrence wins, as in protobuf's merge); nullopt if they do not parse.
struct RawThreading {
  std::optional<int32_t> inter_op_threads;
  bool use_per_session_threads = false;
  bool has_session_pools = false;
};

std::optional<RawThreading> raw_threading(std::string_view raw) {
  RawThreading found;
  try {
    wire::Reader reader(raw);
    while (reader.next()) {
      if (reader.field() == config_proto::kInterOpThreads) {
        found.inter_op_threads = static_cast<int32_t>(reader.varint());  // int32 on the wire: 64-bit sign extension
      } else if (reader.field() == config_proto::kUsePerSessionThreads) {
        found.use_per_session_threads = reader.varint() != 0;
      } else if (reader.field() == config_proto::kSessionInterOpThreadPool) {
        found.has_session_pools = true;
      }
    }
  } catch (const Error&) {
    return std::nullopt;
  }
  return found;
}

}  // namespace

bool SessionConfig::runs_on_caller_thread() const noexcept {
  RawThreading raw = raw_threading(raw_config_proto).value_or(RawThreading{});
  const std::optional<int32_t> inter_op = inter_op_threads ? inter_op_threads : raw.inter_op_threads;
  const bool per_session = use_per_session_threads.value_or(raw.use_per_session_threads);
  return inter_op.value_or(0) < 0 && !per_session && session_inter_op_thread_pools.empty() && !raw.has_session_pools;
}

std::string SessionConfig::serialize() const {
  check_whole_fields(raw_config_proto);
  const bool write_defaults = !raw_config_proto.empty();
  wire::Writer w;
  FieldWriter out{w, write_defaults};
  if (intra_op_threads) {
    out.put_int(config_proto::kIntraOpThreads, checked_threads(*intra_op_threads, "intra-op threads"));
  }
  if (inter_op_threads == kCallerThread) {
    // TensorFlow's DirectSession only looks at a negative inter-op count when
    // it uses the process-wide pool; anything else would lose the setting.
    if (use_per_session_threads.value_or(false) || !session_inter_op_thread_pools.empty()) {
      throw_invalid_argument(
          "inter-op threads -1 (run every op on the calling thread) cannot be combined with " +
          std::string(use_per_session_threads.value_or(false) ? "per-session threads"
                                                               : "session inter-op thread pools") +
          ": TensorFlow would run the ops on that pool instead");
    }
    out.put_int(config_proto::kInterOpThreads, kCallerThread);
  } else if (inter_op_threads) {
    if (*inter_op_threads < 0) {
      throw_invalid_argument(
          "inter-op threads must be >= 0 (0 lets TensorFlow choose) or -1 (run every op on the "
          "calling thread), got " +
          std::to_string(*inter_op_threads));
    }
    out.put_int(config_proto::kInterOpThreads, *inter_op_threads);
  }
  wire::Writer gpu;
  FieldWriter gpu_out{gpu, write_defaults};
  if (gpu_memory_fraction) {
    double fraction = *gpu_memory_fraction;
    if (!std::isfinite(fraction) || fraction < 0) {
      throw_invalid_argument("GPU memory fraction must be a finite number >= 0, got " +
                             std::to_string(fraction));
    }
    // proto3 leaves a double off when its bits are zero: -0.0 is written.
    if (std::bit_cast<uint64_t>(fraction) != 0 || write_defaults) {
      gpu.double_value(gpu_options::kMemoryFraction, fraction);
    }
  }
  if (gpu_allow_growth) gpu_out.put_bool(gpu_options::kAllowGrowth, *gpu_allow_growth);
  if (gpu_visible_devices && (!gpu_visible_devices->empty() || write_defaults)) {
    gpu.bytes(gpu_options::kVisibleDeviceList, *gpu_visible_devices);
  }
  if (!gpu.data().empty()) w.bytes(config_proto::kGpuOptions, gpu.data());
  if (allow_soft_placement) out.put_bool(config_proto::kAllowSoftPlacement, *allow_soft_placement);
  if (use_per_session_threads) {
    out.put_bool(config_proto::kUsePerSessionThreads, *use_per_session_threads);
  }
  for (const ThreadPoolOption& pool : session_inter_op_thread_pools) {
    wire::Writer option;
    FieldWriter{option, false}.put_int(thread_pool_option::kNumThreads,
                                       checked_threads(pool.num_threads, "session thread pool size"));
    if (!pool.global_name.empty()) option.bytes(thread_pool_option::kGlobalName, pool.global_name);
    w.bytes(config_proto::kSessionInterOpThreadPool, option.data());
  }
  return raw_config_proto + w.data();
}

}  // namespace tfjni
