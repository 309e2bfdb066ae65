// GraphModel (a frozen GraphDef), Graph tensor lookup and Runner::for_tensors.
#include "test_data.h"

namespace tfjni::test {
namespace {

using GraphModelTest = LeakCheckedTest;

std::string frozen_input() { return manifest().at("models").at("frozen").at("inputs").at(0); }
std::string frozen_output() { return manifest().at("models").at("frozen").at("outputs").at(0); }

std::unique_ptr<GraphModel> load_frozen() { return GraphModel::load(model_path("frozen").string()); }

// The manifest's frozen cases run in runner_test (RunnerTest.FrozenGraphCases).

TEST_F(GraphModelTest, FromBytesEqualsLoad) {
  auto model = GraphModel::from_bytes(read_file(model_path("frozen")));
  const std::vector<std::string> in{frozen_input()}, out{frozen_output()};
  auto runner = Runner::for_tensors(model->session(), in, out);
  const Json& call = cases_of("frozen").at(0)->at("calls").at(0);
  Tensor x = tensor_from_json(call.at("inputs").at(in[0]));
  const Tensor* feeds[] = {&x};
  EXPECT_TRUE(tensor_matches(runner->run(feeds).at(0), call.at("outputs").at(out[0]), FloatMatch::kTolerant));
}

TEST_F(GraphModelTest, SpecsComeFromTheGraph) {
  auto model = load_frozen();
  const std::vector<std::string> in{frozen_input()}, out{frozen_output()};
  auto runner = Runner::for_tensors(model->session(), in, out);
  const Endpoint& x = runner->inputs().at(0);
  EXPECT_EQ(x.label, in[0]);
  EXPECT_EQ(x.spec.tensor_name, in[0]);
  EXPECT_EQ(x.spec.dtype, TF_FLOAT);
  EXPECT_EQ(x.spec.shape, (std::vector<int64_t>{-1, 2}));
  EXPECT_FALSE(x.spec.unknown_rank);
  EXPECT_EQ(runner->outputs().at(0).spec.dtype, TF_FLOAT);
}

TEST_F(GraphModelTest, WrongInputsAreInvalid) {
  auto model = load_frozen();
  const std::vector<std::string> in{frozen_input()}, out{frozen_output()};
  auto runner = Runner::for_tensors(model->session(), in, out);
  Tensor three_columns = Tensor::allocate(TF_FLOAT, std::vector<int64_t>{4, 3});
  const Tensor* bad_shape[] = {&three_columns};
  EXPECT_TRUE(throws_error([&] { runner->run(bad_shape); }, TF_INVALID_ARGUMENT, {in[0], "[-1,2]", "[4,3]"}));
  Tensor doubles = Tensor::allocate(TF_DOUBLE, std::vector<int64_t>{4, 2});
  const Tensor* bad_dtype[] = {&doubles};
  EXPECT_TRUE(throws_error([&] { runner->run(bad_dtype); }, TF_INVALID_ARGUMENT, {"DOUBLE"}));
  const Tensor* none[] = {nullptr};
  EXPECT_TRUE(throws_error([&] { runner->run(none); }, TF_INVALID_ARGUMENT, {"null"}));
}

TEST_F(GraphModelTest, TensorNamesResolve) {
  auto model = load_frozen();
  const Graph& graph = model->session()->graph();
  const std::string input_op = frozen_input().substr(0, frozen_input().find(':'));
  TF_Output by_op = graph.output(input_op);  // "op" means "op:0"
  TF_Output by_tensor = graph.output(input_op + ":0");
  EXPECT_EQ(by_op.oper, by_tensor.oper);
  EXPECT_EQ(by_op.index, 0);
  EXPECT_STREQ(TF_OperationName(by_op.oper), input_op.c_str());
}

TEST_F(GraphModelTest, BadTensorNamesAreInvalid) {
  auto model = load_frozen();
  const Graph& graph = model->session()->graph();
  const std::string op = frozen_input().substr(0, frozen_input().find(':'));
  EXPECT_TRUE(throws_error([&] { graph.output("nope:0"); }, TF_INVALID_ARGUMENT, {"no operation 'nope'"}));
  EXPECT_TRUE(throws_error([&] { graph.output(op + ":1"); }, TF_INVALID_ARGUMENT, {"has 1 outputs", "no output 1"}));
  EXPECT_TRUE(throws_error([&] { graph.output(op + ":"); }, TF_INVALID_ARGUMENT));
  EXPECT_TRUE(throws_error([&] { graph.output(op + ":-1"); }, TF_INVALID_ARGUMENT));
  EXPECT_TRUE(throws_error([&] { graph.output(op + ":99999999999999999999"); }, TF_INVALID_ARGUMENT));
  EXPECT_TRUE(throws_error([&] { graph.output(op + ":999999999"); }, TF_INVALID_ARGUMENT, {"no output 999999999"}));
  EXPECT_TRUE(throws_error([&] { graph.output(""); }, TF_INVALID_ARGUMENT));
}

TEST_F(GraphModelTest, ForTensorsRejectsBadNames) {
  auto model = load_frozen();
  const std::vector<std::string> good_in{frozen_input()}, good_out{frozen_output()};
  const std::vector<std::string> unknown{"missing:0"}, twice{frozen_input(), frozen_input()}, none{};
  EXPECT_TRUE(throws_error([&] { Runner::for_tensors(model->session(), unknown, good_out); },
                           TF_INVALID_ARGUMENT, {"missing"}));
  EXPECT_TRUE(throws_error([&] { Runner::for_tensors(model->session(), good_in, unknown); },
                           TF_INVALID_ARGUMENT, {"missing"}));
  EXPECT_TRUE(throws_error([&] { Runner::for_tensors(model->session(), twice, good_out); },
                           TF_INVALID_ARGUMENT, {"twice"}));
  EXPECT_TRUE(throws_error([&] { Runner::for_tensors(model->session(), good_in, none); },
                           TF_INVALID_ARGUMENT, {"output"}));
}

TEST_F(GraphModelTest, MissingFeedGivesTensorFlowsError) {
  auto model = load_frozen();
  const std::vector<std::string> none{}, out{frozen_output()};
  auto runner = Runner::for_tensors(model->session(), none, out);
  EXPECT_TRUE(throws_error([&] { runner->run({}); }, TF_INVALID_ARGUMENT, {"x"}));
}

TEST_F(GraphModelTest, MissingFileIsNotFound) {
  TempDir dir;
  const std::string missing = (dir.path() / "missing.pb").string();
  EXPECT_TRUE(throws_error([&] { GraphModel::load(missing); }, TF_NOT_FOUND, {"missing.pb"}));
  EXPECT_TRUE(throws_error([&] { GraphModel::load(dir.path().string()); }, TF_NOT_FOUND));
}

TEST_F(GraphModelTest, GarbageGraphDefIsInvalid) {
  EXPECT_TRUE(throws_error([] { GraphModel::from_bytes("\xff\xff\xff garbage"); }, TF_INVALID_ARGUMENT));
  TempDir dir;
  std::string bytes = read_file(model_path("frozen"));
  write_file(dir.path() / "truncated.pb", std::string_view(bytes).substr(0, bytes.size() / 2));
  EXPECT_TRUE(throws_error([&] { GraphModel::load((dir.path() / "truncated.pb").string()); },
                           TF_INVALID_ARGUMENT));
}

TEST_F(GraphModelTest, ImportingTwiceClashes) {
  std::string bytes = read_file(model_path("frozen"));
  Graph graph;
  graph.import_graph_def(bytes);
  EXPECT_TRUE(throws_error([&] { graph.import_graph_def(bytes); }, TF_INVALID_ARGUMENT));
  graph.import_graph_def(bytes, "copy");  // under a prefix it is fine
  EXPECT_NO_THROW(graph.output("copy/" + frozen_input()));
}

TEST_F(GraphModelTest, EmptyGraphDefGivesAnEmptyGraph) {
  auto model = GraphModel::from_bytes("");
  EXPECT_TRUE(throws_error([&] { model->session()->graph().output(frozen_input()); }, TF_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace tfjni::test
