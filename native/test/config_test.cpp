// SessionConfig -> ConfigProto bytes, checked byte for byte against
// ConfigProto.SerializeToString() of TensorFlow Python (manifest config_protos).
#include <cmath>
#include <limits>

#include "test_data.h"
#include "tfjni/wire_format.h"

namespace tfjni::test {
namespace {

using ConfigTest = LeakCheckedTest;

// The SessionConfig for a manifest `options` object; fails on unknown keys so
// that a new option in the generator cannot go untested.
SessionConfig config_from_options(const Json& options) {
  SessionConfig config;
  for (const auto& [key, value] : options.items()) {
    if (key == "intra_op_threads") {
      config.intra_op_threads = value.get<int32_t>();
    } else if (key == "inter_op_threads") {
      config.inter_op_threads = value.get<int32_t>();
    } else if (key == "use_per_session_threads") {
      config.use_per_session_threads = value.get<bool>();
    } else if (key == "session_inter_op_thread_pool") {
      for (const Json& pool : value) {
        config.session_inter_op_thread_pools.push_back(
            {pool.at("num_threads").get<int32_t>(), pool.value("global_name", std::string())});
      }
    } else if (key == "allow_soft_placement") {
      config.allow_soft_placement = value.get<bool>();
    } else if (key == "gpu_allow_growth") {
      config.gpu_allow_growth = value.get<bool>();
    } else if (key == "gpu_memory_fraction") {
      config.gpu_memory_fraction = value.get<double>();
    } else if (key == "gpu_visible_devices") {
      config.gpu_visible_devices = value.get<std::string>();
    } else {
      ADD_FAILURE() << "unknown config option '" << key << "' in manifest.json";
    }
  }
  return config;
}

std::string hex_dump(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    auto u = static_cast<unsigned char>(c);
    out += digits[u >> 4];
    out += digits[u & 15];
    out += ' ';
  }
  return out.empty() ? "(empty)" : out;
}

TEST_F(ConfigTest, SerializesLikeTensorFlowPython) {
  const Json& protos = manifest().at("config_protos");
  ASSERT_FALSE(protos.empty());
  for (const Json& proto : protos) {
    SCOPED_TRACE("config_protos '" + proto.at("name").get<std::string>() + "': " +
                 proto.at("options").dump());
    std::string expected = base64_decode(proto.at("bytes").get<std::string>());
    std::string actual = config_from_options(proto.at("options")).serialize();
    EXPECT_EQ(hex_dump(actual), hex_dump(expected));
  }
}

TEST_F(ConfigTest, TensorFlowAcceptsEveryManifestConfig) {
  for (const Json& proto : manifest().at("config_protos")) {
    SCOPED_TRACE(proto.at("name").get<std::string>());
    EXPECT_NO_THROW(SessionOptions options(config_from_options(proto.at("options"))));
  }
}

TEST_F(ConfigTest, EmptyConfigIsEmptyProto) { EXPECT_EQ(SessionConfig{}.serialize(), ""); }

TEST_F(ConfigTest, DefaultValuesAreLeftOffTheWireLikeProto3) {
  SessionConfig config;
  config.intra_op_threads = 0;
  config.inter_op_threads = 0;
  config.use_per_session_threads = false;
  config.allow_soft_placement = false;
  config.gpu_allow_growth = false;
  config.gpu_memory_fraction = 0.0;
  config.gpu_visible_devices = "";
  EXPECT_EQ(hex_dump(config.serialize()), hex_dump(""));
}

// Found by session_config_fuzz: -0.0 compares equal to 0 but is not protobuf's
// default (a double is left off only when all its bits are zero), so protobuf,
// and TensorFlow Python with it, writes it; leaving it off lost the sign.
TEST_F(ConfigTest, NegativeZeroMemoryFractionIsWritten) {
  SessionConfig config;
  config.gpu_memory_fraction = -0.0;
  wire::Writer gpu;
  gpu.double_value(1, -0.0);
  wire::Writer expected;
  expected.bytes(6, gpu.data());
  EXPECT_EQ(hex_dump(config.serialize()), hex_dump(expected.data()));
  EXPECT_NO_THROW(SessionOptions options(config));
}

TEST_F(ConfigTest, NegativeThreadCountsAreInvalid) {
  SessionConfig intra;
  intra.intra_op_threads = -1;
  EXPECT_TRUE(throws_error([&] { intra.serialize(); }, TF_INVALID_ARGUMENT, {"intra-op", "-1"}));
  SessionConfig inter;
  inter.inter_op_threads = std::numeric_limits<int32_t>::min();
  EXPECT_TRUE(throws_error([&] { inter.serialize(); }, TF_INVALID_ARGUMENT, {"inter-op"}));
  SessionConfig pool;
  pool.session_inter_op_thread_pools.push_back({-2, "p"});
  EXPECT_TRUE(throws_error([&] { pool.serialize(); }, TF_INVALID_ARGUMENT, {"pool", "-2"}));
}

TEST_F(ConfigTest, MemoryFractionMustBeFiniteAndNonNegative) {
  for (double bad : {std::nan(""), -0.5, -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::infinity()}) {
    SCOPED_TRACE(bad);
    SessionConfig config;
    config.gpu_memory_fraction = bad;
    EXPECT_TRUE(throws_error([&] { config.serialize(); }, TF_INVALID_ARGUMENT, {"memory fraction"}));
  }
}

TEST_F(ConfigTest, InvalidConfigFailsBeforeTensorFlowSeesIt) {
  SessionConfig config;
  config.intra_op_threads = -4;
  EXPECT_TRUE(throws_error([&] { SessionOptions options(config); }, TF_INVALID_ARGUMENT, {"-4"}));
}

TEST_F(ConfigTest, RawConfigProtoIsPrependedSoTypedFieldsWin) {
  SessionConfig typed;
  typed.intra_op_threads = 3;
  typed.allow_soft_placement = true;
  const std::string typed_bytes = typed.serialize();

  wire::Writer raw;
  raw.varint(2, 7);   // intra_op_parallelism_threads = 7, overridden by the typed 3
  raw.varint(11, 5);  // operation_timeout_in_ms: no typed field for it
  SessionConfig config = typed;
  config.raw_config_proto = raw.data();
  EXPECT_EQ(hex_dump(config.serialize()), hex_dump(raw.data() + typed_bytes));

  // Protobuf merge semantics: the last intra_op value is the typed one.
  uint64_t intra = 0;
  const std::string merged = config.serialize();
  wire::Reader r(merged);
  while (r.next()) {
    if (r.field() == 2) intra = r.varint();
  }
  EXPECT_EQ(intra, 3u);
  EXPECT_NO_THROW(SessionOptions options(config));

  SessionConfig raw_only;
  raw_only.raw_config_proto = raw.data();
  EXPECT_EQ(raw_only.serialize(), raw.data());
}

// After raw bytes, a typed field set to its default (0, false) must still be
// written: left off the wire it would not override the raw value.
TEST_F(ConfigTest, TypedDefaultsOverrideRawConfigProto) {
  wire::Writer raw;
  raw.varint(2, 7);  // intra_op_parallelism_threads = 7
  raw.varint(7, 1);  // allow_soft_placement = true
  SessionConfig config;
  config.raw_config_proto = raw.data();
  config.intra_op_threads = 0;
  config.allow_soft_placement = false;
  uint64_t intra = 99, soft = 99;
  const std::string merged = config.serialize();
  wire::Reader r(merged);
  while (r.next()) {
    if (r.field() == 2) intra = r.varint();
    if (r.field() == 7) soft = r.varint();
  }
  EXPECT_EQ(intra, 0u);
  EXPECT_EQ(soft, 0u);
}

// Found by session_config_fuzz: raw bytes ending inside a field swallowed the
// typed fields after them. Raw 0xf8 (a cut field key) + allow_soft_placement
// gave f8 38 01, which protobuf reads as field 911 = 1: soft placement lost.
TEST_F(ConfigTest, RawConfigProtoCutInsideAFieldIsRejected) {
  wire::Writer whole;
  whole.varint(2, 7);
  whole.bytes(8, "device filter");
  const std::string cut_key = "\xf8";
  const std::string cut_value = whole.data().substr(0, 1) + "\x80";
  const std::string cut_length = whole.data().substr(0, whole.data().size() - 1);
  for (const std::string& raw : {cut_key, cut_value, cut_length}) {
    SCOPED_TRACE(hex_dump(raw));
    SessionConfig config;
    config.allow_soft_placement = true;
    config.raw_config_proto = raw;
    EXPECT_TRUE(throws_error([&] { config.serialize(); }, TF_INVALID_ARGUMENT,
                             {"raw ConfigProto", "whole fields", "malformed"}));
  }
  SessionConfig config;
  config.allow_soft_placement = true;
  config.raw_config_proto = whole.data();
  EXPECT_EQ(config.serialize(), whole.data() + "\x38\x01");
}

TEST_F(ConfigTest, GarbageRawConfigIsRejected) {
  SessionConfig config;
  config.raw_config_proto = std::string("\xff\xff\xff", 3);
  EXPECT_TRUE(throws_error([&] { SessionOptions options(config); }, TF_INVALID_ARGUMENT));
}

TEST_F(ConfigTest, SavedModelLoadsWithAConfig) {
  SessionConfig config;
  config.intra_op_threads = 1;
  config.inter_op_threads = 1;
  config.use_per_session_threads = true;
  EXPECT_TRUE(run_case(find_case("shapes_row_sums"), config));
  EXPECT_TRUE(run_case(find_case("frozen_tanh_batch4"), config));
}

TEST_F(ConfigTest, SavedModelRejectsAnInvalidConfig) {
  SessionConfig config;
  config.gpu_memory_fraction = -1.0;
  EXPECT_TRUE(throws_error([&] { load_saved_model("shapes", config); }, TF_INVALID_ARGUMENT,
                           {"memory fraction"}));
}

}  // namespace
}  // namespace tfjni::test
