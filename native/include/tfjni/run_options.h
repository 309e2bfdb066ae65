// Per-run settings, serialized as a tensorflow.RunOptions (config.proto).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tfjni {

// RunOptions.TraceLevel: how much a run records in RunMetadata.step_stats.
enum class TraceLevel : int32_t {
  kNoTrace = 0,
  kSoftwareTrace = 1,
  kHardwareTrace = 2,
  kFullTrace = 3,
};

// "NO_TRACE", "SOFTWARE_TRACE", ... (TensorFlow's enum names).
const char* trace_level_name(TraceLevel level) noexcept;

struct RunOptions {
  // The run fails with DEADLINE_EXCEEDED when it takes longer; TensorFlow
  // cancels its remaining ops and the session stays usable. 0 means no
  // timeout (TensorFlow's meaning, and its default). Must be >= 0. A session
  // that runs ops on the calling thread (kCallerThread) never enforces it
  // (Runner::check_options refuses the combination).
  std::optional<int64_t> timeout_ms;
  std::optional<TraceLevel> trace_level;
  // A serialized RunOptions for everything else. The fields above are written
  // after it and so take precedence (protobuf merge semantics). TensorFlow
  // parses it at each run: bytes that are not a RunOptions fail there.
  std::string raw_run_options;

  // The serialized RunOptions (empty when nothing is set); throws
  // INVALID_ARGUMENT for a negative timeout, an unknown trace level, or raw
  // bytes that are not a sequence of whole fields.
  std::string serialize() const;
};

}  // namespace tfjni
