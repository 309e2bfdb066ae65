// Runner over SavedModel signatures: every manifest case, bad inputs, output
// aliasing and concurrent runs.
#include <tensorflow/c/tf_tstring.h>

#include <atomic>
#include <cstring>
#include <set>
#include <thread>

#include "test_data.h"

namespace tfjni::test {
namespace {

using RunnerTest = LeakCheckedTest;

// Models whose manifest cases have a test below.
const std::set<std::string> kCoveredModels{"digits", "multi",   "dtypes", "shapes", "strings",
                                           "wide",   "counter", "lookup", "frozen", "half_plus_two",
                                           "slow_loop", "text_ops", "checked", "versioned_a",
                                           "versioned_b", "versioned_renamed",
                                           "versioned_float64"};

void run_cases_of(const std::string& model) {
  std::vector<const Json*> cases = cases_of(model);
  ASSERT_FALSE(cases.empty()) << "manifest.json has no case for model '" << model << "'";
  for (const Json* c : cases) EXPECT_TRUE(run_case(*c));
}

TEST_F(RunnerTest, EveryManifestModelHasACaseTest) {
  for (const Json& c : manifest().at("cases")) {
    EXPECT_TRUE(kCoveredModels.count(c.at("model").get<std::string>()))
        << "case '" << c.at("name") << "' is for a model no test runs";
  }
}

TEST_F(RunnerTest, DigitsCases) { run_cases_of("digits"); }
// The exports a versioned model swaps between (Java's io.tfjni.serving tests).
TEST_F(RunnerTest, VersionedExportsCases) {
  for (const char* model : {"versioned_a", "versioned_b", "versioned_renamed", "versioned_float64"}) {
    SCOPED_TRACE(model);
    run_cases_of(model);
  }
}
TEST_F(RunnerTest, MultiCases) { run_cases_of("multi"); }
TEST_F(RunnerTest, DtypesCases) { run_cases_of("dtypes"); }
TEST_F(RunnerTest, ShapesCases) { run_cases_of("shapes"); }
TEST_F(RunnerTest, StringsCases) { run_cases_of("strings"); }
// 20 inputs and outputs: more than a run keeps on the stack (tfjni/scratch.h).
TEST_F(RunnerTest, WideCases) { run_cases_of("wide"); }
TEST_F(RunnerTest, LookupTableCases) { run_cases_of("lookup"); }
// The frozen GraphDef's cases run through GraphModel + Runner::for_tensors.
TEST_F(RunnerTest, FrozenGraphCases) { run_cases_of("frozen"); }
TEST_F(RunnerTest, HalfPlusTwoCases) { run_cases_of("half_plus_two"); }  // a TF1 SavedModel
// Finite rows through tf.debugging.check_numerics (the batching tests feed it a NaN too).
TEST_F(RunnerTest, CheckedCases) { run_cases_of("checked"); }
// About a second of tf.while_loop steps; run_options_test times it out.
TEST_F(RunnerTest, SlowLoopCases) { run_cases_of("slow_loop"); }
// TensorFlow Text ops: the model loads after its op libraries (test_data.cpp loads them).
TEST_F(RunnerTest, TextOpsCases) { run_cases_of("text_ops"); }

// The variable's state carries over between calls on one model, and a freshly
// loaded model starts from its saved value again.
TEST_F(RunnerTest, CounterSequenceIsStatefulPerModel) {
  const Json& sequence = find_case("counter_sequence");
  ASSERT_GE(sequence.at("calls").size(), 2u);
  EXPECT_TRUE(run_case(sequence));
  EXPECT_TRUE(run_case(sequence)) << "a second, fresh model must start from 0 again";
}

// A Keras 3 model written by tf.saved_model.save loads, and its first run fails as TensorFlow
// Python's session loader fails (the manifest's error), with how to export it instead.
TEST_F(RunnerTest, AModelSavedWithoutItsVariablesNamesTheExportToUse) {
  const Json& model_entry = manifest().at("models").at("keras_saved_unexported");
  auto model = load_saved_model("keras_saved_unexported");
  std::vector<std::string> inputs{model_entry.at("input_key").get<std::string>()};
  auto runner = Runner::for_signature(*model, "serving_default", inputs, {});
  std::vector<float> ones(3, 1.0f);
  Tensor x = Tensor::copy_of(TF_FLOAT, std::vector<int64_t>{1, 3}, ones.data(), 3 * sizeof(float));
  const Tensor* feeds[] = {&x};
  EXPECT_TRUE(throws_error([&] { runner->run(feeds); }, TF_FAILED_PRECONDITION,
                           {model_entry.at("error").get<std::string>(), "model.export(dir)",
                            "docs/EXPORTING.md"}));
}

// ---- Runner construction ----------------------------------------------------

class MultiRunnerTest : public RunnerTest {
 protected:
  void SetUp() override {
    RunnerTest::SetUp();
    model_ = load_saved_model("multi");
  }
  void TearDown() override {
    model_.reset();
    RunnerTest::TearDown();
  }
  std::unique_ptr<Runner> runner(const std::string& signature, std::vector<std::string> inputs,
                                 std::vector<std::string> outputs) {
    return Runner::for_signature(*model_, signature, inputs, outputs);
  }
  std::unique_ptr<SavedModel> model_;
};

// The graph tensor behind an input of a signature of "multi", as TensorFlow Python recorded it.
std::string multi_input_tensor(const std::string& signature, const std::string& key) {
  return manifest().at("signatures").at("multi").at(signature).at("inputs").at(key).at("name");
}

TEST_F(MultiRunnerTest, EndpointsFollowTheRequestedOrder) {
  auto r = runner("add", {"b", "a"}, {"sum"});
  ASSERT_EQ(r->inputs().size(), 2u);
  EXPECT_EQ(r->inputs()[0].label, "b");
  EXPECT_EQ(r->inputs()[0].spec.tensor_name, multi_input_tensor("add", "b"));
  EXPECT_EQ(r->inputs()[1].label, "a");
  EXPECT_EQ(r->inputs()[1].spec.shape, std::vector<int64_t>{-1});
  ASSERT_EQ(r->outputs().size(), 1u);
  EXPECT_EQ(r->outputs()[0].spec.dtype, TF_FLOAT);
}

TEST_F(MultiRunnerTest, NoOutputKeysFetchesAllOutputsInKeyOrder) {
  auto r = runner("scale", {"x"}, {});
  ASSERT_EQ(r->outputs().size(), 2u);
  EXPECT_EQ(r->outputs()[0].label, "scaled");
  EXPECT_EQ(r->outputs()[1].label, "total");
}

TEST_F(MultiRunnerTest, UnknownSignatureIsInvalid) {
  EXPECT_TRUE(throws_error([&] { runner("nope", {}, {}); }, TF_INVALID_ARGUMENT, {"nope", "add, any_rank"}));
}

TEST_F(MultiRunnerTest, UnknownInputOrOutputKeyNamesTheAvailableKeys) {
  EXPECT_TRUE(throws_error([&] { runner("add", {"a", "c"}, {"sum"}); }, TF_INVALID_ARGUMENT,
                           {"no input 'c'", "a, b"}));
  EXPECT_TRUE(throws_error([&] { runner("add", {"a", "b"}, {"total"}); }, TF_INVALID_ARGUMENT,
                           {"no output 'total'", "sum"}));
  // An output key is not an input key.
  EXPECT_TRUE(throws_error([&] { runner("add", {"sum"}, {}); }, TF_INVALID_ARGUMENT, {"no input 'sum'"}));
}

TEST_F(MultiRunnerTest, DuplicateKeysAreInvalid) {
  EXPECT_TRUE(throws_error([&] { runner("add", {"a", "a"}, {"sum"}); }, TF_INVALID_ARGUMENT,
                           {"'a'", "twice"}));
  EXPECT_TRUE(throws_error([&] { runner("scale", {"x"}, {"total", "total"}); }, TF_INVALID_ARGUMENT,
                           {"'total'", "twice"}));
}

TEST_F(MultiRunnerTest, TheInitOpIsNoSignatureToRun) {
  EXPECT_TRUE(throws_error([&] { runner("__saved_model_init_op", {}, {}); }, TF_INVALID_ARGUMENT,
                           {"no signature '__saved_model_init_op'"}));
}

// ---- Bad inputs at run time -------------------------------------------------

class AddRunnerTest : public MultiRunnerTest {
 protected:
  void SetUp() override {
    MultiRunnerTest::SetUp();
    add_ = runner("add", {"a", "b"}, {"sum"});
  }
  void TearDown() override {
    add_.reset();
    MultiRunnerTest::TearDown();
  }
  static Tensor floats(std::vector<float> values, std::vector<int64_t> dims) {
    return Tensor::copy_of(TF_FLOAT, dims, values.data(), values.size() * sizeof(float));
  }
  std::unique_ptr<Runner> add_;
};

TEST_F(AddRunnerTest, Runs) {
  Tensor a = floats({1, 2, 3}, {3});
  Tensor b = floats({10, 20, 30}, {3});
  const Tensor* feeds[] = {&a, &b};
  std::vector<Tensor> out = add_->run(feeds);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(tensors_equal(out[0], floats({11, 22, 33}, {3})));
}

TEST_F(AddRunnerTest, WrongDtypeIsInvalid) {
  Tensor a = floats({1}, {1});
  Tensor b = Tensor::allocate(TF_INT32, std::vector<int64_t>{1});
  const Tensor* feeds[] = {&a, &b};
  EXPECT_TRUE(throws_error([&] { add_->run(feeds); }, TF_INVALID_ARGUMENT, {"'b'", "FLOAT", "INT32"}));
}

TEST_F(AddRunnerTest, WrongShapeIsInvalid) {
  Tensor a = floats({1}, {1});
  Tensor matrix = floats({1, 2}, {1, 2});
  Tensor scalar = floats({1}, {});
  for (const Tensor* bad : {&matrix, &scalar}) {
    const Tensor* feeds[] = {&a, bad};
    EXPECT_TRUE(throws_error([&] { add_->run(feeds); }, TF_INVALID_ARGUMENT,
                             {"'b'", "[-1]", shape_string(bad->shape())}));
  }
  auto scale = runner("scale", {"x"}, {});
  Tensor four_columns = floats({1, 2, 3, 4}, {1, 4});
  const Tensor* feeds[] = {&four_columns};
  EXPECT_TRUE(throws_error([&] { scale->run(feeds); }, TF_INVALID_ARGUMENT, {"[-1,3]", "[1,4]"}));
}

// Broadcasting shapes pass our check; TensorFlow's own error comes back.
TEST_F(AddRunnerTest, IncompatibleBatchesGiveTensorFlowsError) {
  Tensor a = floats({1, 2, 3}, {3});
  Tensor b = floats({1, 2}, {2});
  const Tensor* feeds[] = {&a, &b};
  EXPECT_TRUE(throws_error([&] { add_->run(feeds); }, TF_INVALID_ARGUMENT, {"Incompatible shapes"}));
}

TEST_F(AddRunnerTest, WrongNumberOfInputsIsInvalid) {
  Tensor a = floats({1}, {1});
  const Tensor* one[] = {&a};
  EXPECT_TRUE(throws_error([&] { add_->run(one); }, TF_INVALID_ARGUMENT, {"expected 2 input tensors, got 1"}));
  const Tensor* three[] = {&a, &a, &a};
  EXPECT_TRUE(throws_error([&] { add_->run(three); }, TF_INVALID_ARGUMENT, {"got 3"}));
}

TEST_F(AddRunnerTest, NullInputIsInvalid) {
  Tensor a = floats({1}, {1});
  const Tensor* feeds[] = {&a, nullptr};
  EXPECT_TRUE(throws_error([&] { add_->run(feeds); }, TF_INVALID_ARGUMENT, {"'b' is null"}));
}

TEST_F(AddRunnerTest, TheSameTensorMayFeedTwoInputs) {
  Tensor a = floats({1, 2}, {2});
  const Tensor* feeds[] = {&a, &a};
  std::vector<Tensor> out = add_->run(feeds);
  EXPECT_TRUE(tensors_equal(out.at(0), floats({2, 4}, {2})));
}

TEST_F(AddRunnerTest, WrongNumberOfResultSlotsIsInvalid) {
  Tensor a = floats({1}, {1});
  const Tensor* feeds[] = {&a, &a};
  std::vector<std::optional<Tensor>> two(2);
  EXPECT_TRUE(throws_error([&] { add_->run(feeds, two); }, TF_INVALID_ARGUMENT, {"room for 1"}));
}

// A runner over a subset of the inputs: TensorFlow's own error names the
// placeholder that was not fed.
TEST_F(AddRunnerTest, MissingFeedGivesTensorFlowsError) {
  auto only_a = runner("add", {"a"}, {"sum"});
  Tensor a = floats({1}, {1});
  const Tensor* feeds[] = {&a};
  std::string b = multi_input_tensor("add", "b");  // "<placeholder>:0"
  std::string placeholder = b.substr(0, b.find(':'));
  EXPECT_TRUE(throws_error([&] { only_a->run(feeds); }, TF_INVALID_ARGUMENT, {placeholder}));
}

TEST_F(AddRunnerTest, ResultSlotsAreReplacedWithoutLeaks) {
  Tensor a = floats({1, 2}, {2});
  const Tensor* feeds[] = {&a, &a};
  std::vector<std::optional<Tensor>> results(1);
  add_->run(feeds, results);
  ASSERT_TRUE(results[0].has_value());
  const LiveCounts after_first = live_objects();
  for (int i = 0; i < 10; ++i) add_->run(feeds, results);
  EXPECT_TRUE(same_live_counts(after_first, live_objects()));
  EXPECT_TRUE(tensors_equal(*results[0], floats({2, 4}, {2})));
}

TEST_F(MultiRunnerTest, AnyRankAcceptsEveryRank) {
  auto r = runner("any_rank", {"x"}, {"doubled"});
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{}, std::vector<int64_t>{0}, std::vector<int64_t>{2, 1, 1, 3}}) {
    Tensor x = Tensor::allocate(TF_FLOAT, dims);
    const Tensor* feeds[] = {&x};
    std::vector<Tensor> out = r->run(feeds);
    EXPECT_EQ(out.at(0).shape(), dims);
  }
}

// ---- Output aliasing --------------------------------------------------------

// Overwrites every element of `t` in place (numbers: each byte inverted;
// strings: each element replaced).
void refill_in_place(Tensor& t) {
  if (t.dtype() == TF_STRING) {
    auto* elements = static_cast<TF_TString*>(t.data());
    for (int64_t i = 0; i < t.num_elements(); ++i) TF_StringCopy(&elements[i], "refilled", 8);
    return;
  }
  auto* bytes = static_cast<unsigned char*>(t.data());
  for (size_t i = 0; i < t.byte_size(); ++i) {
    bytes[i] = t.dtype() == TF_BOOL ? static_cast<unsigned char>(bytes[i] ^ 1) : static_cast<unsigned char>(~bytes[i]);
  }
}

// dtypes/<x> "same" is an Identity: TensorFlow hands back the input's buffer.
// The runner must copy it, so refilling the input leaves the result alone.
TEST_F(RunnerTest, IdentityOutputsDoNotAliasInputs) {
  auto model = load_saved_model("dtypes");
  int checked = 0;
  for (const Json* c : cases_of("dtypes")) {
    const std::string signature = c->at("signature").get<std::string>();
    SCOPED_TRACE("dtypes/" + signature);
    const Json& call = c->at("calls").at(0);
    auto runner = Runner::for_signature(*model, signature, std::vector<std::string>{"x"},
                                        std::vector<std::string>{"same", "reversed"});
    Tensor x = tensor_from_json(call.at("inputs").at("x"));
    const Tensor* feeds[] = {&x};
    std::vector<Tensor> out = runner->run(feeds);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_NE(out[0].data(), x.data());
    refill_in_place(x);
    EXPECT_TRUE(tensor_matches(out[0], call.at("outputs").at("same"), FloatMatch::kExact)) << "same";
    EXPECT_TRUE(tensor_matches(out[1], call.at("outputs").at("reversed"), FloatMatch::kExact)) << "reversed";
    ++checked;
  }
  EXPECT_EQ(checked, 16);
}

// The same with caller memory wrapped zero-copy.
TEST_F(RunnerTest, IdentityOutputsDoNotAliasWrappedMemory) {
  auto model = load_saved_model("dtypes");
  auto runner = Runner::for_signature(*model, "float32", std::vector<std::string>{"x"},
                                      std::vector<std::string>{"same"});
  alignas(64) std::array<float, 6> buffer{1, 2, 3, 4, 5, 6};
  Tensor x = Tensor::wrap(TF_FLOAT, std::vector<int64_t>{2, 3}, buffer.data(), sizeof buffer, nullptr, nullptr);
  const Tensor* feeds[] = {&x};
  std::vector<Tensor> out = runner->run(feeds);
  auto* begin = reinterpret_cast<const char*>(buffer.data());
  auto* result = static_cast<const char*>(out.at(0).data());
  EXPECT_FALSE(result >= begin && result < begin + sizeof buffer) << "the result points into caller memory";
  buffer.fill(-1);
  EXPECT_EQ(static_cast<const float*>(out[0].data())[5], 6.0f);
}

// ---- Concurrency ------------------------------------------------------------

// 8 threads share one runner; each result equals the serial run's bit for bit.
TEST_F(RunnerTest, ConcurrentRunsGiveTheSerialResults) {
  auto model = load_saved_model("digits");
  const Json& batch1 = find_case("digits_batch1").at("calls").at(0);
  const Json& batch7 = find_case("digits_batch7").at("calls").at(0);
  const std::vector<std::string> input_keys = keys_of(batch1.at("inputs"));
  const std::vector<std::string> output_keys = keys_of(batch1.at("outputs"));
  auto runner = Runner::for_signature(*model, "serving_default", input_keys, output_keys);

  std::vector<Tensor> inputs;
  inputs.push_back(tensor_from_json(batch1.at("inputs").at(input_keys[0])));
  inputs.push_back(tensor_from_json(batch7.at("inputs").at(input_keys[0])));
  std::vector<Tensor> serial;
  for (const Tensor& input : inputs) {
    const Tensor* feeds[] = {&input};
    serial.push_back(std::move(runner->run(feeds).at(0)));
  }
  EXPECT_TRUE(tensor_matches(serial[0], batch1.at("outputs").at(output_keys[0]), FloatMatch::kTolerant));
  EXPECT_TRUE(tensor_matches(serial[1], batch7.at("outputs").at(output_keys[0]), FloatMatch::kTolerant));

  constexpr int kThreads = 8, kRuns = 25;
  std::atomic<int> mismatches{0}, errors{0}, runs{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      std::vector<std::optional<Tensor>> results(1);  // reused across runs
      for (int i = 0; i < kRuns; ++i) {
        size_t which = static_cast<size_t>((t + i) % 2);
        const Tensor* feeds[] = {&inputs[which]};
        try {
          runner->run(feeds, results);
          if (!tensors_equal(*results[0], serial[which])) ++mismatches;
          ++runs;
        } catch (const std::exception&) {
          ++errors;
        }
      }
    });
  }
  go = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(runs.load(), kThreads * kRuns);
}

}  // namespace
}  // namespace tfjni::test
