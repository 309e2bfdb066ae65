// Live native object accounting.
#include <thread>

#include "test_data.h"

namespace tfjni::test {
namespace {

using LiveObjectsTest = LeakCheckedTest;

int64_t live(ObjectKind kind) { return live_objects().of(kind); }

TEST_F(LiveObjectsTest, KindNames) {
  EXPECT_STREQ(kind_name(ObjectKind::kTensor), "tensor");
  EXPECT_STREQ(kind_name(ObjectKind::kGraph), "graph");
  EXPECT_STREQ(kind_name(ObjectKind::kSession), "session");
  EXPECT_STREQ(kind_name(ObjectKind::kSavedModel), "saved_model");
  EXPECT_STREQ(kind_name(ObjectKind::kGraphModel), "graph_model");
  EXPECT_STREQ(kind_name(ObjectKind::kRunner), "runner");
  EXPECT_STREQ(kind_name(ObjectKind::kLiteRtModel), "litert_model");
  EXPECT_STREQ(kind_name(static_cast<ObjectKind>(kObjectKindCount)), "unknown");
}

TEST_F(LiveObjectsTest, TotalSumsAllKinds) {
  LiveCounts counts;
  for (int i = 0; i < kObjectKindCount; ++i) counts.count[i] = i + 1;
  counts.tensor_bytes = 1000;  // bytes are not objects
  EXPECT_EQ(counts.total(), kObjectKindCount * (kObjectKindCount + 1) / 2);
  EXPECT_EQ(counts.of(ObjectKind::kRunner), 6);
}

TEST_F(LiveObjectsTest, TokenCountsWhileAlive) {
  const int64_t graphs = live(ObjectKind::kGraph);
  const int64_t bytes = live_objects().tensor_bytes;
  {
    LiveToken token(ObjectKind::kGraph);
    EXPECT_EQ(live(ObjectKind::kGraph), graphs + 1);
    LiveToken tensor(ObjectKind::kTensor, 100);
    EXPECT_EQ(live_objects().tensor_bytes, bytes + 100);
  }
  EXPECT_EQ(live(ObjectKind::kGraph), graphs);
  EXPECT_EQ(live_objects().tensor_bytes, bytes);
}

TEST_F(LiveObjectsTest, MovedFromTokenCountsNothing) {
  const LiveCounts before = live_objects();
  {
    LiveToken a(ObjectKind::kTensor, 64);
    LiveToken b(std::move(a));
    EXPECT_EQ(live(ObjectKind::kTensor), before.of(ObjectKind::kTensor) + 1);
    EXPECT_EQ(live_objects().tensor_bytes, before.tensor_bytes + 64);

    LiveToken c(ObjectKind::kSession);
    c = std::move(b);  // drops the session, takes over the tensor
    EXPECT_EQ(live(ObjectKind::kSession), before.of(ObjectKind::kSession));
    EXPECT_EQ(live(ObjectKind::kTensor), before.of(ObjectKind::kTensor) + 1);

    LiveToken& self = c;
    c = std::move(self);  // self-move keeps counting once
    EXPECT_EQ(live(ObjectKind::kTensor), before.of(ObjectKind::kTensor) + 1);
    EXPECT_EQ(live_objects().tensor_bytes, before.tensor_bytes + 64);
  }
  EXPECT_TRUE(same_live_counts(before, live_objects()));
}

TEST_F(LiveObjectsTest, CountsAreExactUnderConcurrency) {
  const LiveCounts before = live_objects();
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < 20000; ++i) {
        LiveToken token(ObjectKind::kTensor, 8);
        LiveToken moved(std::move(token));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_TRUE(same_live_counts(before, live_objects()));
}

TEST_F(LiveObjectsTest, SavedModelCountsItsParts) {
  const LiveCounts before = live_objects();
  auto model = load_saved_model("multi");
  EXPECT_EQ(live(ObjectKind::kSavedModel), before.of(ObjectKind::kSavedModel) + 1);
  EXPECT_EQ(live(ObjectKind::kSession), before.of(ObjectKind::kSession) + 1);
  EXPECT_EQ(live(ObjectKind::kGraph), before.of(ObjectKind::kGraph) + 1);
  EXPECT_EQ(live_objects().total(), before.total() + 3);
  model.reset();
  EXPECT_TRUE(same_live_counts(before, live_objects()));
}

TEST_F(LiveObjectsTest, GraphModelCountsItsParts) {
  const LiveCounts before = live_objects();
  auto model = GraphModel::load(model_path("frozen").string());
  EXPECT_EQ(live(ObjectKind::kGraphModel), before.of(ObjectKind::kGraphModel) + 1);
  EXPECT_EQ(live(ObjectKind::kSession), before.of(ObjectKind::kSession) + 1);
  EXPECT_EQ(live(ObjectKind::kGraph), before.of(ObjectKind::kGraph) + 1);
  model.reset();
  EXPECT_TRUE(same_live_counts(before, live_objects()));
}

// A runner shares the session: it outlives the SavedModel object and keeps the
// session and graph alive (and counted) until it goes away itself.
TEST_F(LiveObjectsTest, RunnerKeepsTheSessionAlive) {
  const LiveCounts before = live_objects();
  const Json& test_case = find_case("multi_add");
  const Json& call = test_case.at("calls").at(0);
  auto model = load_saved_model("multi");
  const std::vector<std::string> inputs{"a", "b"}, outputs{"sum"};
  auto runner = Runner::for_signature(*model, "add", inputs, outputs);
  EXPECT_EQ(live(ObjectKind::kRunner), before.of(ObjectKind::kRunner) + 1);
  model.reset();
  EXPECT_EQ(live(ObjectKind::kSavedModel), before.of(ObjectKind::kSavedModel));
  EXPECT_EQ(live(ObjectKind::kSession), before.of(ObjectKind::kSession) + 1);
  EXPECT_EQ(live(ObjectKind::kGraph), before.of(ObjectKind::kGraph) + 1);
  {
    Tensor a = tensor_from_json(call.at("inputs").at("a"));
    Tensor b = tensor_from_json(call.at("inputs").at("b"));
    const Tensor* feeds[] = {&a, &b};
    std::vector<Tensor> results = runner->run(feeds);
    EXPECT_EQ(live(ObjectKind::kTensor), before.of(ObjectKind::kTensor) + 3);
    EXPECT_TRUE(tensor_matches(results.at(0), call.at("outputs").at("sum"), FloatMatch::kTolerant));
  }
  runner.reset();
  EXPECT_TRUE(same_live_counts(before, live_objects()));
}

}  // namespace
}  // namespace tfjni::test
