// LiteRtModel and LiteRtRunner: signatures and outputs against the manifest's LiteRT section
// (TensorFlow Python's answers for the converted test models), bad files, bad inputs, lifetimes.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include "test_data.h"
#include "tfjni/litert_model.h"

namespace tfjni::test {
namespace {

using LiteRtModelTest = LeakCheckedTest;

// LiteRT's runtime library: TFJNI_LITERT_LIBRARY (scripts/common.sh's litert_library).
std::string litert_library() {
  const char* env = std::getenv("TFJNI_LITERT_LIBRARY");
  if (env == nullptr || *env == '\0') {
    throw std::runtime_error(
        "TFJNI_LITERT_LIBRARY is not set, but this test needs LiteRT's libLiteRtRuntimeCApi.so "
        "(`source scripts/common.sh; litert_library` fetches it and prints the path)");
  }
  return env;
}

const Json& litert_section() { return manifest().at("litert"); }

const Json& find_case_in(const Json& cases, const std::string& name) {
  for (const Json& c : cases) {
    if (c.at("name") == name) return c;
  }
  throw std::runtime_error("manifest.json has no LiteRT case '" + name + "'");
}

std::filesystem::path litert_path(const std::string& model) {
  return models_dir() / litert_section().at("models").at(model).at("path").get<std::string>();
}

std::unique_ptr<LiteRtModel> load(const std::string& model, int threads = 1) {
  return LiteRtModel::load(litert_library(), litert_path(model).string(), threads);
}

// Every output within the case's tolerance (absolute) of TensorFlow Python's, same dtype and
// shape. Runs the case's inputs through a runner fed in the runner's own input order.
::testing::AssertionResult run_litert_case(const LiteRtModel& model, const Json& test_case) {
  auto runner = LiteRtRunner::for_signature(model, test_case.at("signature").get<std::string>());
  std::vector<Tensor> inputs;
  for (const Endpoint& input : runner->inputs()) {
    inputs.push_back(tensor_from_json(test_case.at("inputs").at(input.label)));
  }
  std::vector<const Tensor*> pointers;
  for (const Tensor& t : inputs) pointers.push_back(&t);
  std::vector<std::optional<Tensor>> results(runner->outputs().size());
  runner->run(pointers, results);
  const double tolerance = test_case.at("tolerance").get<double>();
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string& key = runner->outputs()[i].label;
    Tensor expected = tensor_from_json(test_case.at("outputs").at(key));
    const Tensor& actual = *results[i];
    if (actual.dtype() != TF_FLOAT || expected.dtype() != TF_FLOAT ||
        actual.shape() != expected.shape()) {
      return ::testing::AssertionFailure()
             << test_case.at("name") << " output " << key << ": got " << dtype_name(actual.dtype())
             << " " << shape_string(actual.shape()) << ", TensorFlow gave "
             << dtype_name(expected.dtype()) << " " << shape_string(expected.shape());
    }
    const auto* a = static_cast<const float*>(actual.data());
    const auto* e = static_cast<const float*>(expected.data());
    for (int64_t j = 0; j < actual.num_elements(); ++j) {
      if (!(std::fabs(static_cast<double>(a[j]) - e[j]) <= tolerance)) {
        return ::testing::AssertionFailure()
               << test_case.at("name") << " output " << key << "[" << j << "] = " << a[j]
               << ", TensorFlow Python gave " << e[j] << " (tolerance " << tolerance << ")";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

std::string corrupted_copy(const TempDir& dir, const std::string& name, std::string bytes) {
  auto path = dir.path() / name;
  write_file(path, bytes);
  return path.string();
}

TEST_F(LiteRtModelTest, SignaturesAreTheConvertersOwn) {
  for (const auto& [name, entry] : litert_section().at("models").items()) {
    auto model = load(name);
    const Json& expected = entry.at("signatures");
    ASSERT_EQ(model->signatures().size(), expected.size()) << name;
    for (const SignatureDef& def : model->signatures()) {
      ASSERT_TRUE(expected.contains(def.key)) << name << " has no signature " << def.key;
      const Json& want = expected.at(def.key);
      for (const auto* side : {&def.inputs, &def.outputs}) {
        const Json& specs = want.at(side == &def.inputs ? "inputs" : "outputs");
        ASSERT_EQ(side->size(), specs.size()) << name << " " << def.key;
        for (const TensorSpec& spec : *side) {
          ASSERT_TRUE(specs.contains(spec.key)) << name << " " << def.key << " " << spec.key;
          EXPECT_EQ(spec.dtype, dtype_from_name(specs.at(spec.key).at("dtype").get<std::string>()));
          EXPECT_EQ(spec.shape, specs.at(spec.key).at("shape").get<std::vector<int64_t>>())
              << name << " " << def.key << " " << spec.key;
          EXPECT_EQ(spec.tensor_name, spec.key);
        }
      }
    }
  }
}

TEST_F(LiteRtModelTest, EveryCaseAgreesWithTensorFlowPython) {
  const Json& cases = litert_section().at("cases");
  ASSERT_GE(cases.size(), 5u);
  for (const Json& c : cases) {
    auto model = load(c.at("model").get<std::string>(), 2);
    EXPECT_TRUE(run_litert_case(*model, c));
  }
}

// The same runner again and again, and a second runner of the same model: each run's outputs
// are its own (new tensors), and LiteRT's state does not leak from one run into the next.
TEST_F(LiteRtModelTest, RunsRepeatAndOutputsStayTheirs) {
  const Json& c = find_case_in(litert_section().at("cases"), "litert_digits_b4");
  auto model = load("digits_b4");
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(run_litert_case(*model, c));
  auto runner = LiteRtRunner::for_signature(*model, "serving_default");
  Tensor input = tensor_from_json(c.at("inputs").at("images"));
  const Tensor* inputs[] = {&input};
  std::optional<Tensor> first[1], second[1];
  runner->run(inputs, first);
  std::vector<char> before(static_cast<const char*>(first[0]->data()),
                           static_cast<const char*>(first[0]->data()) + first[0]->byte_size());
  std::memset(input.data(), 0, input.byte_size());
  runner->run(inputs, second);
  EXPECT_NE(first[0]->data(), second[0]->data());
  EXPECT_EQ(std::memcmp(before.data(), first[0]->data(), before.size()), 0)
      << "a later run changed an earlier run's output";
}

// Two inputs that do not commute, fed by the runner's order: a swapped feed would differ.
TEST_F(LiteRtModelTest, InputsFollowTheRunnersOrder) {
  auto model = load("half_plus_two");
  auto runner = LiteRtRunner::for_signature(*model, "plus_offset");
  ASSERT_EQ(runner->inputs().size(), 2u);
  EXPECT_TRUE(run_litert_case(*model, find_case_in(litert_section().at("cases"),
                                                   "litert_half_plus_two_plus_offset")));
}

TEST_F(LiteRtModelTest, WrongInputsAreRefusedByName) {
  auto model = load("digits_b1");
  auto runner = LiteRtRunner::for_signature(*model, "serving_default");
  std::optional<Tensor> results[1];
  Tensor wrong_shape = Tensor::allocate(TF_FLOAT, std::vector<int64_t>{2, 8, 8, 1});
  const Tensor* shape_inputs[] = {&wrong_shape};
  EXPECT_TRUE(throws_error([&] { runner->run(shape_inputs, results); }, TF_INVALID_ARGUMENT,
                           {"'images'", "[1,8,8,1]", "[2,8,8,1]"}));
  Tensor wrong_dtype = Tensor::allocate(TF_DOUBLE, std::vector<int64_t>{1, 8, 8, 1});
  const Tensor* dtype_inputs[] = {&wrong_dtype};
  EXPECT_TRUE(throws_error([&] { runner->run(dtype_inputs, results); }, TF_INVALID_ARGUMENT,
                           {"'images'", "FLOAT", "DOUBLE"}));
  std::vector<const Tensor*> none;
  EXPECT_TRUE(throws_error([&] { runner->run(none, results); }, TF_INVALID_ARGUMENT,
                           {"expected 1 input"}));
  EXPECT_TRUE(throws_error([&] { LiteRtRunner::for_signature(*model, "nope"); },
                           TF_INVALID_ARGUMENT, {"'nope'", "serving_default"}));
}

// LiteRT's own file loader does not verify the flatbuffer (random bytes crash it); tfjni hands
// it the bytes, which it verifies.
TEST_F(LiteRtModelTest, DamagedFilesAreErrorsNotCrashes) {
  TempDir dir;
  std::string good = read_file(litert_path("digits_b1"));
  std::vector<std::pair<std::string, std::string>> damaged{
      {"truncated.tflite", good.substr(0, good.size() / 2)}, {"empty.tflite", ""}};
  std::string identifier = good;  // "TFL3" at bytes 4..7 names the format
  identifier[4] = 'X';
  damaged.emplace_back("identifier.tflite", identifier);
  std::mt19937 random(1234);
  for (int i = 0; i < 20; ++i) {
    std::string noise(good.size(), '\0');
    for (char& byte : noise) byte = static_cast<char>(random() & 0xff);
    damaged.emplace_back("noise" + std::to_string(i) + ".tflite", noise);
  }
  for (const auto& [name, bytes] : damaged) {
    std::string path = corrupted_copy(dir, name, bytes);
    try {
      LiteRtModel::load(litert_library(), path, 1);
      ADD_FAILURE() << name << " loaded";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), TF_DATA_LOSS) << e.what();
      EXPECT_NE(std::string(e.what()).find("LiteRT"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
}

TEST_F(LiteRtModelTest, MissingFileAndBadThreadsAreRefused) {
  EXPECT_TRUE(throws_error([] { LiteRtModel::load(litert_library(), "/nonexistent.tflite", 1); },
                           TF_NOT_FOUND, {"/nonexistent.tflite"}));
  EXPECT_TRUE(throws_error([] { load("digits_b1", 0); }, TF_INVALID_ARGUMENT, {"thread"}));
}

// One LiteRT per process: once opened, another library path is refused, not opened beside it.
TEST_F(LiteRtModelTest, AnotherRuntimeLibraryIsRefused) {
  load("dense_b4");  // opens the configured library if no test has yet
  EXPECT_TRUE(throws_error(
      [] { LiteRtModel::load("/elsewhere/libLiteRtRuntimeCApi.so", litert_path("dense_b4").string(), 1); },
      TF_FAILED_PRECONDITION, {"already loaded", "/elsewhere"}));
}

// A runner keeps LiteRT's handles: it runs after its model object is gone, and the last of the
// two frees them (the leak check counts the model and the runner).
TEST_F(LiteRtModelTest, RunnerOutlivesItsModel) {
  const Json& c = find_case_in(litert_section().at("cases"), "litert_dense_b4");
  std::unique_ptr<LiteRtRunner> runner;
  {
    auto model = load("dense_b4");
    runner = LiteRtRunner::for_signature(*model, "serving_default");
    EXPECT_EQ(live_objects().of(ObjectKind::kLiteRtModel) >= 1, true);
  }
  Tensor input = tensor_from_json(c.at("inputs").at("x"));
  const Tensor* inputs[] = {&input};
  std::optional<Tensor> results[1];
  runner->run(inputs, results);
  EXPECT_TRUE(tensor_matches(*results[0], c.at("outputs").at("y"), FloatMatch::kTolerant));
}

}  // namespace
}  // namespace tfjni::test
