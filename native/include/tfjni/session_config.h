// Session settings, serialized as a tensorflow.ConfigProto.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tfjni {

struct ThreadPoolOption {
  int32_t num_threads = 0;
  std::string global_name;  // empty: a pool owned by the session
};

struct SessionConfig {
  std::optional<int32_t> intra_op_threads;
  std::optional<int32_t> inter_op_threads;
  std::optional<bool> use_per_session_threads;
  std::vector<ThreadPoolOption> session_inter_op_thread_pools;
  std::optional<bool> allow_soft_placement;
  std::optional<bool> gpu_allow_growth;
  std::optional<double> gpu_memory_fraction;
  std::optional<std::string> gpu_visible_devices;
  // A serialized ConfigProto for everything else. The fields above are
  // written after it and so take precedence (protobuf merge semantics).
  std::string raw_config_proto;

  // The serialized ConfigProto; throws INVALID_ARGUMENT for negative thread
  // counts, a memory fraction that is not a finite number >= 0, or raw bytes
  // that are not a sequence of whole fields.
  std::string serialize() const;
};

}  // namespace tfjni
