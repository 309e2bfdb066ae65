// Session settings, serialized as a tensorflow.ConfigProto.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tfjni {

// The inter_op_threads value that makes a session run every op of a run on the
// thread that called it (TF_SessionRun), instead of handing each op to an
// inter-op pool and waiting: ConfigProto inter_op_parallelism_threads < 0.
// Ops still use the intra-op pool for parallelism inside one op. TensorFlow
// honours it only for sessions on the process-wide inter-op pool: with
// use_per_session_threads or session_inter_op_thread_pools it silently runs
// ops on those pools, so serialize() rejects these combinations. For an eager
// context it requires synchronous dispatch (ContextConfig::async == false).
inline constexpr int32_t kCallerThread = -1;

struct ThreadPoolOption {
  int32_t num_threads = 0;
  std::string global_name;  // empty: a pool owned by the session
};

struct SessionConfig {
  std::optional<int32_t> intra_op_threads;
  std::optional<int32_t> inter_op_threads;  // >= 0, or kCallerThread
  std::optional<bool> use_per_session_threads;
  std::vector<ThreadPoolOption> session_inter_op_thread_pools;
  std::optional<bool> allow_soft_placement;
  std::optional<bool> gpu_allow_growth;
  std::optional<double> gpu_memory_fraction;
  std::optional<std::string> gpu_visible_devices;
  // A serialized ConfigProto for everything else. The fields above are
  // written after it and so take precedence (protobuf merge semantics).
  std::string raw_config_proto;

  // True if the session will run its ops on the calling thread: inter-op
  // threads negative (the typed field, else the raw bytes' last value, as
  // protobuf merges them) and neither per-session threads nor session pools,
  // with which TensorFlow ignores it. Raw bytes that do not parse count as
  // absent: serialize() refuses them.
  bool runs_on_caller_thread() const noexcept;

  // The serialized ConfigProto; throws INVALID_ARGUMENT for negative thread
  // counts (but inter_op_threads == kCallerThread), kCallerThread with
  // per-session threads or session thread pools, a memory fraction that is not
  // a finite number >= 0, or raw bytes that are not a sequence of whole fields.
  std::string serialize() const;
};

}  // namespace tfjni
