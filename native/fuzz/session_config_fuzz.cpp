// The ConfigProto writer, as a round trip. Settings derived from the input
// (any thread counts, any memory fraction bits, any strings, any raw ConfigProto
// bytes) are serialized; the writer must refuse exactly the invalid settings
// (raw bytes that are not whole fields among them), and otherwise:
//  * the bytes are the raw ConfigProto, then our fields in field-number order,
//    proto3 defaults left out unless raw bytes came first (as protobuf writes);
//  * read back with protobuf's merge rules (a later scalar wins, a repeated
//    GPUOptions merges, session thread pools append), every setting has the
//    value it was given;
//  * TensorFlow's own parser (TF_SetConfig) accepts them whenever it accepts
//    the raw bytes alone and our strings are ASCII (proto3 refuses strings that
//    are not UTF-8).
#include <fuzzer/FuzzedDataProvider.h>
#include <tensorflow/c/c_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "tfjni/session_config.h"
#include "tfjni/wire_format.h"

namespace {

using tfjni::SessionConfig;
using tfjni::fuzz::check;
using tfjni::fuzz::succeeds;
using tfjni::wire::Reader;
using tfjni::wire::WireType;

// Field numbers from tensorflow/core/protobuf/config.proto, as in session_config.cpp.
constexpr uint32_t kIntraOp = 2, kInterOp = 5, kGpuOptions = 6, kSoftPlacement = 7, kPerSessionThreads = 9,
                   kSessionPools = 12;
constexpr uint32_t kMemoryFraction = 1, kAllowGrowth = 4, kVisibleDevices = 5;
constexpr uint32_t kPoolThreads = 1, kPoolName = 2;

SessionConfig config_from(FuzzedDataProvider& in) {
  SessionConfig c;
  if (in.ConsumeBool()) c.intra_op_threads = in.ConsumeIntegral<int32_t>();
  if (in.ConsumeBool()) c.inter_op_threads = in.ConsumeIntegral<int32_t>();
  if (in.ConsumeBool()) c.use_per_session_threads = in.ConsumeBool();
  if (in.ConsumeBool()) c.allow_soft_placement = in.ConsumeBool();
  if (in.ConsumeBool()) c.gpu_allow_growth = in.ConsumeBool();
  if (in.ConsumeBool()) {
    auto bits = in.ConsumeIntegral<uint64_t>();  // every double: NaNs, infinities, -0, denormals
    double fraction;
    std::memcpy(&fraction, &bits, sizeof fraction);
    c.gpu_memory_fraction = fraction;
  }
  if (in.ConsumeBool()) c.gpu_visible_devices = in.ConsumeRandomLengthString(40);
  for (int pools = in.ConsumeIntegralInRange(0, 3); pools > 0; --pools) {
    auto threads = in.ConsumeIntegral<int32_t>();
    c.session_inter_op_thread_pools.push_back({threads, in.ConsumeRandomLengthString(24)});
  }
  c.raw_config_proto = in.ConsumeRemainingBytesAsString();
  return c;
}

// Raw bytes that end inside a field would swallow ours.
bool whole_fields(std::string_view raw) {
  return succeeds(TF_DATA_LOSS, [&] {
    Reader r(raw);
    while (r.next()) {
    }
  });
}

bool valid(const SessionConfig& c) {
  if (!whole_fields(c.raw_config_proto)) return false;
  auto negative = [](const std::optional<int32_t>& v) { return v && *v < 0; };
  if (negative(c.intra_op_threads)) return false;
  // -1 runs every op on the calling thread, which TensorFlow honours only on the process-wide
  // pool: not with per-session threads or session pools. Any other negative count is refused.
  if (c.inter_op_threads == -1) {
    if (c.use_per_session_threads.value_or(false) || !c.session_inter_op_thread_pools.empty()) {
      return false;
    }
  } else if (negative(c.inter_op_threads)) {
    return false;
  }
  for (const auto& pool : c.session_inter_op_thread_pools) {
    if (pool.num_threads < 0) return false;
  }
  return !c.gpu_memory_fraction || (std::isfinite(*c.gpu_memory_fraction) && *c.gpu_memory_fraction >= 0);
}

uint64_t bits_of(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// ---- The layout of what the writer appends -----------------------------------

// True when the field holds proto3's default: 0, false, +0.0 (all bits zero) or empty.
bool holds_default(const Reader& r) {
  switch (r.type()) {
    case WireType::kVarint: return r.varint() == 0;
    case WireType::kFixed64: return r.fixed64() == 0;
    case WireType::kFixed32: return r.fixed32() == 0;
    case WireType::kLengthDelimited: return r.bytes().empty();
  }
  return false;
}

// Fields in increasing number (as protobuf writes them); a proto3 default only
// where `defaults_allowed`, or in field `repeated` (an element of a repeated
// field is written even when empty).
void check_fields(std::string_view message, bool defaults_allowed, uint32_t repeated = 0) {
  uint32_t previous = 0;
  Reader r(message);
  while (r.next()) {
    check(r.field() >= previous, "fields out of field-number order");
    previous = r.field();
    check(defaults_allowed || r.field() == repeated || !holds_default(r), "a proto3 default written");
  }
}

// Defaults are written only after raw bytes: there they must override raw values.
void check_layout(std::string_view ours, bool raw_first) {
  check_fields(ours, raw_first, kSessionPools);
  Reader r(ours);
  while (r.next()) {
    if (r.field() == kGpuOptions) {
      check(!r.bytes().empty(), "an empty GPUOptions written");
      check_fields(r.bytes(), raw_first);
    }
    // A pool's fields never merge with raw ones: its defaults are always left out.
    if (r.field() == kSessionPools) check_fields(r.bytes(), false);
  }
}

// ---- Values as protobuf would read them ---------------------------------------

// The last value of each scalar field of the wire type the schema gives it
// (a field of another wire type is an unknown field to protobuf).
struct ReadBack {
  std::optional<uint64_t> intra, inter, per_session, soft_placement, allow_growth, fraction_bits;
  std::optional<std::string> devices;
  std::vector<tfjni::ThreadPoolOption> pools;
};

void read_gpu_options(std::string_view bytes, ReadBack& out) {
  Reader r(bytes);
  while (r.next()) {
    if (r.field() == kMemoryFraction && r.type() == WireType::kFixed64) out.fraction_bits = r.fixed64();
    if (r.field() == kAllowGrowth && r.type() == WireType::kVarint) out.allow_growth = r.varint();
    if (r.field() == kVisibleDevices && r.type() == WireType::kLengthDelimited) out.devices = r.bytes();
  }
}

tfjni::ThreadPoolOption read_pool(std::string_view bytes) {
  tfjni::ThreadPoolOption pool;
  Reader r(bytes);
  while (r.next()) {
    if (r.field() == kPoolThreads && r.type() == WireType::kVarint) {
      pool.num_threads = static_cast<int32_t>(r.varint());
    }
    if (r.field() == kPoolName && r.type() == WireType::kLengthDelimited) pool.global_name = r.bytes();
  }
  return pool;
}

ReadBack read_back(std::string_view bytes) {
  ReadBack out;
  Reader r(bytes);
  while (r.next()) {
    const bool varint = r.type() == WireType::kVarint;
    const bool delimited = r.type() == WireType::kLengthDelimited;
    switch (r.field()) {
      case kIntraOp: if (varint) out.intra = r.varint(); break;
      case kInterOp: if (varint) out.inter = r.varint(); break;
      case kPerSessionThreads: if (varint) out.per_session = r.varint(); break;
      case kSoftPlacement: if (varint) out.soft_placement = r.varint(); break;
      case kGpuOptions: if (delimited) read_gpu_options(r.bytes(), out); break;
      case kSessionPools: if (delimited) out.pools.push_back(read_pool(r.bytes())); break;
      default: break;
    }
  }
  return out;
}

void check_int(const std::optional<int32_t>& set, const std::optional<uint64_t>& read, const char* what) {
  if (set) check(static_cast<int32_t>(read.value_or(0)) == *set, what);
}

void check_bool(const std::optional<bool>& set, const std::optional<uint64_t>& read, const char* what) {
  if (set) check((read.value_or(0) != 0) == *set, what);
}

void check_values(const SessionConfig& c, std::string_view bytes) {
  ReadBack back;
  // Raw bytes whose GPUOptions are not a message leave nothing to compare
  // beyond the layout (TensorFlow refuses them).
  if (!succeeds(TF_DATA_LOSS, [&] { back = read_back(bytes); })) return;
  check_int(c.intra_op_threads, back.intra, "intra-op threads read back differ");
  check_int(c.inter_op_threads, back.inter, "inter-op threads read back differ");
  check_bool(c.use_per_session_threads, back.per_session, "use_per_session_threads read back differs");
  check_bool(c.allow_soft_placement, back.soft_placement, "allow_soft_placement read back differs");
  check_bool(c.gpu_allow_growth, back.allow_growth, "allow_growth read back differs");
  if (c.gpu_memory_fraction && back.fraction_bits.value_or(0) != bits_of(*c.gpu_memory_fraction)) {
    tfjni::fuzz::fail("memory fraction " + std::to_string(*c.gpu_memory_fraction) + " (bits " +
                      std::to_string(bits_of(*c.gpu_memory_fraction)) + ") read back as bits " +
                      std::to_string(back.fraction_bits.value_or(0)));
  }
  if (c.gpu_visible_devices) {
    check(back.devices.value_or("") == *c.gpu_visible_devices, "visible devices read back differ");
  }
  const auto& ours = c.session_inter_op_thread_pools;
  check(back.pools.size() >= ours.size(), "session thread pools lost");
  for (size_t i = 0; i < ours.size(); ++i) {
    const auto& pool = back.pools[back.pools.size() - ours.size() + i];
    check(pool.num_threads == ours[i].num_threads && pool.global_name == ours[i].global_name,
          "a session thread pool read back differs");
  }
}

// ---- TensorFlow's parser ------------------------------------------------------

bool tensorflow_accepts(std::string_view config) {
  // protobuf logs each string field that is not UTF-8, and raw bytes from the fuzzer hold many.
  tfjni::fuzz::QuietStderr quiet;
  std::unique_ptr<TF_SessionOptions, decltype(&TF_DeleteSessionOptions)> options(TF_NewSessionOptions(),
                                                                                   TF_DeleteSessionOptions);
  std::unique_ptr<TF_Status, decltype(&TF_DeleteStatus)> status(TF_NewStatus(), TF_DeleteStatus);
  TF_SetConfig(options.get(), config.data(), config.size(), status.get());
  return TF_GetCode(status.get()) == TF_OK;
}

bool ascii(std::string_view s) {
  for (char ch : s) {
    if (static_cast<unsigned char>(ch) >= 0x80) return false;
  }
  return true;
}

bool strings_are_ascii(const SessionConfig& c) {
  if (c.gpu_visible_devices && !ascii(*c.gpu_visible_devices)) return false;
  for (const auto& pool : c.session_inter_op_thread_pools) {
    if (!ascii(pool.global_name)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const SessionConfig config = config_from(in);
  std::string bytes;
  const bool serialized = succeeds(TF_INVALID_ARGUMENT, [&] { bytes = config.serialize(); });
  check(serialized == valid(config), serialized ? "invalid settings serialized" : "valid settings refused");
  if (!serialized) return 0;

  const std::string& raw = config.raw_config_proto;
  check(bytes.starts_with(raw), "the raw ConfigProto is not the prefix");
  const std::string_view ours = std::string_view(bytes).substr(raw.size());
  check(succeeds(TF_DATA_LOSS, [&] { check_layout(ours, !raw.empty()); }), "our fields do not parse");
  check_values(config, bytes);
  if (strings_are_ascii(config) && (raw.empty() || tensorflow_accepts(raw))) {
    check(tensorflow_accepts(bytes), "TensorFlow refuses the serialized ConfigProto");
  }
  return 0;
}
