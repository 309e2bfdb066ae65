// kCallerThread reaches TensorFlow: which thread runs an op, seen without any
// timing. The thread_probe model's read_file op opens "/proc/thread-self/stat";
// the kernel resolves /proc/thread-self for the thread that opens it, so the
// stat line's first field is the id of the thread that ran the op. A test
// compares it with gettid() of the thread that called run().
#include <unistd.h>

#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "eager_test_util.h"
#include "test_data.h"
#include "tfjni/runner.h"
#include "tfjni/wire_format.h"

namespace tfjni::test {
namespace {

using CallerThreadTest = LeakCheckedTest;

constexpr std::string_view kThreadStat = "/proc/thread-self/stat";

// The thread id at the start of a /proc/<pid>/task/<tid>/stat line.
pid_t thread_id_in(std::string_view stat) {
  size_t end = stat.find(' ');
  if (end == std::string_view::npos || end == 0) {
    throw std::runtime_error("not a stat line: " + std::string(stat));
  }
  return static_cast<pid_t>(std::stol(std::string(stat.substr(0, end))));
}

struct Observed {
  pid_t caller = 0;    // the thread that called run()
  pid_t ran_op = 0;    // the thread that ran read_file
};

// Runs the probe once on a thread of its own (not the one that loaded the
// model), so "the calling thread" cannot be confused with the loading one.
Observed probe_session(const SessionConfig& config) {
  std::unique_ptr<SavedModel> model = load_saved_model("thread_probe", config);
  const std::vector<std::string> input_keys{"path"};
  std::unique_ptr<Runner> runner = Runner::for_signature(*model, "read_file", input_keys, {});
  Observed seen;
  std::optional<std::string> failure;
  std::thread caller([&] {
    try {
      Tensor path = strings_of({}, {std::string(kThreadStat)});
      const Tensor* inputs[] = {&path};
      seen.caller = ::gettid();
      std::vector<Tensor> outputs = runner->run(inputs);
      seen.ran_op = thread_id_in(outputs.at(0).string_at(0));
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  caller.join();
  if (failure) throw std::runtime_error(*failure);
  return seen;
}

SessionConfig threads(int32_t intra, int32_t inter) {
  SessionConfig config;
  config.intra_op_threads = intra;
  config.inter_op_threads = inter;
  return config;
}

TEST_F(CallerThreadTest, SessionRunsItsOpsOnTheCallingThread) {
  Observed seen = probe_session(threads(2, kCallerThread));
  EXPECT_EQ(seen.ran_op, seen.caller);
}

// The control: with an inter-op pool the same op runs on a pool thread, so the
// probe does tell the threads apart.
TEST_F(CallerThreadTest, PooledSessionRunsItsOpsOnAnotherThread) {
  Observed seen = probe_session(threads(2, 2));
  EXPECT_NE(seen.ran_op, seen.caller);
  EXPECT_GT(seen.ran_op, 0);
}

TEST_F(CallerThreadTest, OtherNegativeInterOpCountsAreRejected) {
  for (int32_t bad : {-2, -100, std::numeric_limits<int32_t>::min()}) {
    SCOPED_TRACE(bad);
    SessionConfig config = threads(2, bad);
    EXPECT_TRUE(throws_error([&] { config.serialize(); }, TF_INVALID_ARGUMENT,
                             {"inter-op threads", std::to_string(bad), "-1 (run every op on the calling thread)"}));
  }
}

// TensorFlow reads a negative inter-op count only for sessions on the
// process-wide pool; with their own pools it silently runs ops there.
TEST_F(CallerThreadTest, CallerThreadWithOwnPoolsIsRejected) {
  SessionConfig per_session = threads(2, kCallerThread);
  per_session.use_per_session_threads = true;
  EXPECT_TRUE(throws_error([&] { per_session.serialize(); }, TF_INVALID_ARGUMENT,
                           {"calling thread", "per-session threads"}));
  SessionConfig pools = threads(2, kCallerThread);
  pools.session_inter_op_thread_pools.push_back({2, ""});
  EXPECT_TRUE(throws_error([&] { load_saved_model("thread_probe", pools); }, TF_INVALID_ARGUMENT,
                           {"calling thread", "session inter-op thread pools"}));
  SessionConfig explicit_global = threads(2, kCallerThread);
  explicit_global.use_per_session_threads = false;
  EXPECT_TRUE(explicit_global.runs_on_caller_thread());
  EXPECT_NO_THROW(explicit_global.serialize());
}

// Raw ConfigProto bytes can ask for the calling thread too (any negative
// inter-op count, as TensorFlow reads it). runs_on_caller_thread() decides
// whether a run timeout is refused, so it must agree with where TensorFlow
// actually runs the op, for raw bytes alone and merged with typed fields.
TEST_F(CallerThreadTest, RawConfigBytesAgreeWithWhereTensorFlowRunsTheOp) {
  struct Case {
    const char* what;
    std::vector<std::pair<uint32_t, int64_t>> raw_fields;  // ConfigProto field, varint value
    std::optional<int32_t> typed_inter_op;
  };
  const Case cases[] = {
      {"raw inter-op -1", {{5, -1}}, std::nullopt},
      {"raw inter-op -3", {{5, -3}}, std::nullopt},
      {"raw -1, then raw 2", {{5, -1}, {5, 2}}, std::nullopt},
      {"raw -1, typed 2", {{5, -1}}, 2},
      {"raw 2, typed -1", {{5, 2}}, kCallerThread},
      {"raw -1 with per-session threads", {{5, -1}, {9, 1}}, std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    wire::Writer raw;
    for (auto [field, value] : c.raw_fields) raw.varint(field, static_cast<uint64_t>(value));
    SessionConfig config;
    config.intra_op_threads = 2;
    config.inter_op_threads = c.typed_inter_op;
    config.raw_config_proto = raw.data();
    Observed seen = probe_session(config);
    EXPECT_EQ(config.runs_on_caller_thread(), seen.ran_op == seen.caller);
  }
}

// ---- Eager ------------------------------------------------------------------

// Runs ReadFile(kThreadStat) on `context` from the calling thread.
Observed probe_eager(const Context& context) {
  Observed seen;
  TensorHandle path = TensorHandle::from_tensor(strings_of({}, {std::string(kThreadStat)}));
  seen.caller = ::gettid();
  std::vector<TensorHandle> out = Op(context, "ReadFile").input(path).execute();
  seen.ran_op = thread_id_in(out.at(0).resolve().string_at(0));
  return seen;
}

// What EagerContext.shared() (and so every NDManager by default) is: a
// synchronous context with TensorFlow's thread defaults. Its ops run on the
// thread that executes them.
TEST_F(CallerThreadTest, DefaultEagerContextRunsOpsOnTheCallingThread) {
  Context context;
  Observed seen = probe_eager(context);
  EXPECT_EQ(seen.ran_op, seen.caller);
}

TEST_F(CallerThreadTest, SynchronousEagerContextWithCallerThreadRunsOpsOnTheCallingThread) {
  ContextConfig config;
  config.session = threads(2, kCallerThread);
  Context context(config);
  Observed seen = probe_eager(context);
  EXPECT_EQ(seen.ran_op, seen.caller);
}

// The control: an async context runs ops on its executor's thread.
TEST_F(CallerThreadTest, AsyncEagerContextRunsOpsOnItsExecutorThread) {
  ContextConfig config;
  config.async = true;
  Context context(config);
  Observed seen = probe_eager(context);
  EXPECT_NE(seen.ran_op, seen.caller);
}

TEST_F(CallerThreadTest, AsyncEagerContextRejectsCallerThread) {
  ContextConfig config;
  config.session = threads(2, kCallerThread);
  config.async = true;
  EXPECT_TRUE(throws_error([&] { Context context(config); }, TF_INVALID_ARGUMENT,
                           {"calling thread", "synchronous"}));
}

}  // namespace
}  // namespace tfjni::test
