// Run options (timeout, trace level, raw bytes), run metadata's step
// statistics and device listing. Expected bytes, node names and devices come
// from TensorFlow Python (manifest.json: run_options_protos,
// frozen_traced_nodes, devices).
#include <map>

#include "test_data.h"
#include "tfjni/eager.h"
#include "tfjni/wire_format.h"

namespace tfjni::test {
namespace {

using RunOptionsTest = LeakCheckedTest;

std::string expected_bytes(const std::string& name) {
  for (const Json& c : manifest().at("run_options_protos")) {
    if (c.at("name") == name) return base64_decode(c.at("bytes").get<std::string>());
  }
  throw std::runtime_error("no run_options_protos case " + name);
}

TEST_F(RunOptionsTest, SerializesAsTensorFlowPythonDoes) {
  for (const Json& c : manifest().at("run_options_protos")) {
    const Json& fields = c.at("options");
    RunOptions options;
    if (fields.contains("timeout_in_ms")) options.timeout_ms = fields.at("timeout_in_ms").get<int64_t>();
    if (fields.contains("trace_level")) options.trace_level = static_cast<TraceLevel>(fields.at("trace_level").get<int>());
    EXPECT_EQ(options.serialize(), expected_bytes(c.at("name"))) << c.at("name");
  }
}

TEST_F(RunOptionsTest, TypedFieldsFollowRawBytesAndWinEvenAtZero) {
  RunOptions options;
  options.raw_run_options = expected_bytes("both");  // trace 1, timeout 250
  options.timeout_ms = 0;
  // Python: RunOptions.FromString(raw + b"\x10\x00").timeout_in_ms == 0.
  EXPECT_EQ(options.serialize(), expected_bytes("both") + std::string("\x10\x00", 2));
}

TEST_F(RunOptionsTest, BadValuesAreInvalid) {
  RunOptions negative;
  negative.timeout_ms = -1;
  EXPECT_TRUE(throws_error([&] { (void)negative.serialize(); }, TF_INVALID_ARGUMENT, {"timeout", "-1"}));
  RunOptions unknown_level;
  unknown_level.trace_level = static_cast<TraceLevel>(7);
  EXPECT_TRUE(throws_error([&] { (void)unknown_level.serialize(); }, TF_INVALID_ARGUMENT, {"trace level 7"}));
  RunOptions cut;
  cut.raw_run_options = "\x10";  // a tag whose varint is missing
  EXPECT_TRUE(throws_error([&] { (void)cut.serialize(); }, TF_INVALID_ARGUMENT, {"whole fields"}));
}

struct SlowLoop {
  std::unique_ptr<SavedModel> model = load_saved_model("slow_loop");
  std::vector<std::string> inputs{"seed", "iterations"};
  std::vector<std::string> outputs{"value"};
  std::unique_ptr<Runner> runner = Runner::for_signature(*model, "spin", inputs, outputs);
  const Json& call = cases_of("slow_loop").at(0)->at("calls").at(0);
  Tensor seed = tensor_from_json(call.at("inputs").at("seed"));
  Tensor iterations = tensor_from_json(call.at("inputs").at("iterations"));
  const Tensor* feeds[2] = {&seed, &iterations};
};

// The loop runs about a second; a 1 ms deadline always expires inside it.
TEST_F(RunOptionsTest, TimeoutGivesDeadlineExceededAndTheModelStaysUsable) {
  SlowLoop slow;
  RunOptions options;
  options.timeout_ms = 1;
  const std::string encoded = options.serialize();
  std::optional<Tensor> result[1];
  EXPECT_TRUE(throws_error([&] { slow.runner->run(slow.feeds, result, encoded, nullptr); },
                           TF_DEADLINE_EXCEEDED));
  EXPECT_FALSE(result[0].has_value());
  slow.runner->run(slow.feeds, result);  // no options: runs to the end
  ASSERT_TRUE(result[0].has_value());
  EXPECT_TRUE(tensor_matches(*result[0], slow.call.at("outputs").at("value")));
}

// TensorFlow Python 2.18 checked: with inter_op_parallelism_threads -1 the
// same call and a 1 ms timeout runs to its end (about 2 s) without an error.
// The slow_loop runner of a session with `config`: a 1 ms timeout must be
// refused (the session runs ops on the calling thread); no timeout is accepted.
void expect_timeout_refused(const SessionConfig& config) {
  auto model = load_saved_model("slow_loop", config);
  const std::vector<std::string> inputs{"seed", "iterations"}, outputs{"value"};
  auto runner = Runner::for_signature(*model, "spin", inputs, outputs);
  RunOptions options;
  options.timeout_ms = 1;
  EXPECT_TRUE(throws_error([&] { runner->check_options(options); }, TF_INVALID_ARGUMENT,
                           {"calling thread"}));
  options.timeout_ms = 0;  // no timeout: nothing to ignore
  runner->check_options(options);
}

TEST_F(RunOptionsTest, ATimeoutOnACallerThreadSessionIsRefused) {
  SessionConfig config;
  config.inter_op_threads = kCallerThread;
  expect_timeout_refused(config);
  SlowLoop pooled;
  RunOptions options;
  options.timeout_ms = 1;
  pooled.runner->check_options(options);
}

// The same session asked for through raw ConfigProto bytes (inter-op -1).
TEST_F(RunOptionsTest, ATimeoutIsRefusedWhenRawConfigBytesAskForTheCallingThread) {
  wire::Writer raw;
  raw.varint(5, static_cast<uint64_t>(int64_t{-1}));  // inter_op_parallelism_threads
  SessionConfig config;
  config.raw_config_proto = raw.data();
  expect_timeout_refused(config);
}

TEST_F(RunOptionsTest, RawBytesThatAreNotRunOptionsFailWithTensorFlowsError) {
  SlowLoop slow;
  RunOptions options;
  // Whole fields, but `experimental` (field 8) holds a cut varint: TensorFlow
  // Python's RunOptions.FromString refuses these bytes too.
  options.raw_run_options = std::string("\x42\x01\x80", 3);
  std::optional<Tensor> result[1];
  EXPECT_TRUE(throws_error([&] { slow.runner->run(slow.feeds, result, options.serialize(), nullptr); },
                           TF_INVALID_ARGUMENT, {"RunOptions"}));
}

struct Frozen {
  std::unique_ptr<GraphModel> model = GraphModel::load(model_path("frozen").string());
  std::vector<std::string> inputs{manifest().at("models").at("frozen").at("inputs").at(0)};
  std::vector<std::string> outputs{manifest().at("models").at("frozen").at("outputs").at(0)};
  std::unique_ptr<Runner> runner = Runner::for_tensors(model->session(), inputs, outputs);
  std::vector<int64_t> dims{4, 2};
  Tensor x = Tensor::allocate(TF_FLOAT, dims);
  const Tensor* feeds[1] = {&x};
};

TEST_F(RunOptionsTest, StepStatsNameTheNodesTensorFlowPythonTraced) {
  Frozen frozen;
  RunOptions options;
  options.trace_level = TraceLevel::kSoftwareTrace;
  std::string metadata;
  std::optional<Tensor> result[1];
  frozen.runner->run(frozen.feeds, result, options.serialize(), &metadata);
  ASSERT_FALSE(metadata.empty());
  std::map<std::string, NodeStats> by_name;
  for (NodeStats& node : parse_step_stats(metadata, &frozen.model->session()->graph())) {
    by_name.emplace(node.node_name, node);
  }
  const Json& expected = manifest().at("frozen_traced_nodes");
  ASSERT_FALSE(expected.empty());
  for (const auto& [name, op] : expected.items()) {
    auto found = by_name.find(name);
    ASSERT_NE(found, by_name.end()) << "node " << name << " is not in the step stats";
    EXPECT_EQ(found->second.op, op.get<std::string>()) << name;
    EXPECT_EQ(found->second.device, manifest().at("devices").at(0).at("name").get<std::string>());
    EXPECT_GT(found->second.all_start_micros, 0) << name;
    EXPECT_GE(found->second.all_end_rel_micros, found->second.op_end_rel_micros) << name;
  }
}

TEST_F(RunOptionsTest, WithoutTracingTheStepStatsAreEmpty) {
  Frozen frozen;
  std::string metadata = "stale";
  std::optional<Tensor> result[1];
  frozen.runner->run(frozen.feeds, result, {}, &metadata);
  EXPECT_TRUE(parse_step_stats(metadata, nullptr).empty());
}

TEST_F(RunOptionsTest, MalformedRunMetadataIsDataLoss) {
  EXPECT_TRUE(throws_error([] { (void)parse_step_stats("\x0a\x05", nullptr); }, TF_DATA_LOSS));
}

void expect_python_devices(const std::vector<DeviceInfo>& devices) {
  const Json& expected = manifest().at("devices");
  ASSERT_EQ(devices.size(), expected.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    EXPECT_EQ(devices[i].name, expected[i].at("name").get<std::string>());
    EXPECT_EQ(devices[i].type, expected[i].at("type").get<std::string>());
    EXPECT_EQ(devices[i].memory_bytes, expected[i].at("memory_limit_bytes").get<int64_t>());
  }
}

TEST_F(RunOptionsTest, SessionDevicesAreTensorFlowPythons) {
  expect_python_devices(load_saved_model("multi")->session()->devices());
  expect_python_devices(Frozen().model->session()->devices());
}

TEST_F(RunOptionsTest, EagerContextDevicesAreTensorFlowPythons) {
  Context context;
  std::vector<DeviceInfo> devices = context.device_infos();
  expect_python_devices(devices);
  ASSERT_EQ(context.devices().size(), devices.size());
  EXPECT_EQ(context.devices().at(0), devices.at(0).name);
}

}  // namespace
}  // namespace tfjni::test
