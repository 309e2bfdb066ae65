#include "tfjni/run_options.h"

#include "tfjni/error.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

// Field numbers from tensorflow/core/protobuf/config.proto (checked against
// TensorFlow Python's RunOptions descriptor).
namespace run_options_proto {
constexpr uint32_t kTraceLevel = 1;
constexpr uint32_t kTimeoutInMs = 2;
}  // namespace run_options_proto

// As for ConfigProto: raw bytes that end inside a field would swallow the
// typed fields written after them.
void check_whole_fields(const std::string& raw) {
  try {
    wire::Reader reader(raw);
    while (reader.next()) {
    }
  } catch (const Error& e) {
    throw_invalid_argument(std::string("the raw RunOptions bytes are not a sequence of whole fields (") +
                           e.what() + ")");
  }
}

}  // namespace

const char* trace_level_name(TraceLevel level) noexcept {
  switch (level) {
    case TraceLevel::kNoTrace: return "NO_TRACE";
    case TraceLevel::kSoftwareTrace: return "SOFTWARE_TRACE";
    case TraceLevel::kHardwareTrace: return "HARDWARE_TRACE";
    case TraceLevel::kFullTrace: return "FULL_TRACE";
  }
  return "UNKNOWN";
}

std::string RunOptions::serialize() const {
  check_whole_fields(raw_run_options);
  // proto3 leaves defaults off the wire (our bytes then equal TensorFlow
  // Python's); after raw bytes a default set on purpose must be written.
  const bool write_defaults = !raw_run_options.empty();
  wire::Writer w;
  if (trace_level) {
    auto level = static_cast<int32_t>(*trace_level);
    if (level < 0 || level > static_cast<int32_t>(TraceLevel::kFullTrace)) {
      throw_invalid_argument("unknown trace level " + std::to_string(level) +
                             " (0 NO_TRACE .. 3 FULL_TRACE)");
    }
    if (level != 0 || write_defaults) w.varint(run_options_proto::kTraceLevel, static_cast<uint64_t>(level));
  }
  if (timeout_ms) {
    if (*timeout_ms < 0) {
      throw_invalid_argument("the run timeout must be >= 0 ms (0: no timeout), got " +
                             std::to_string(*timeout_ms));
    }
    if (*timeout_ms != 0 || write_defaults) w.varint(run_options_proto::kTimeoutInMs, static_cast<uint64_t>(*timeout_ms));
  }
  return raw_run_options + w.data();
}

}  // namespace tfjni
