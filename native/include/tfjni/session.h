// RAII over TF_Session. TF_SessionRun may be called from many threads at once;
// destruction must not overlap with runs (the owner guarantees that).
#pragma once

#include <tensorflow/c/c_api.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfjni/device_list.h"
#include "tfjni/graph.h"
#include "tfjni/live_objects.h"
#include "tfjni/session_config.h"
#include "tfjni/tensor.h"

namespace tfjni {

// RAII over TF_SessionOptions with a ConfigProto applied.
class SessionOptions {
 public:
  explicit SessionOptions(const SessionConfig& config);
  TF_SessionOptions* get() const noexcept { return options_.get(); }

 private:
  struct Deleter {
    void operator()(TF_SessionOptions* o) const noexcept { TF_DeleteSessionOptions(o); }
  };
  std::unique_ptr<TF_SessionOptions, Deleter> options_;
};

class Session {
 public:
  Session(std::shared_ptr<Graph> graph, const SessionConfig& config);
  // Takes ownership of a session the C API created over `graph`, with
  // `caller_thread` if its config runs ops on the calling thread.
  Session(TF_Session* session, std::shared_ptr<Graph> graph, bool caller_thread = false);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  // One TF_SessionRun. Outputs are written to `outputs` (size of `fetches`).
  void run(std::span<const TF_Output> feeds, std::span<TF_Tensor* const> feed_values,
           std::span<const TF_Output> fetches, std::span<TF_Tensor*> outputs,
           std::span<TF_Operation* const> targets = {}) const;
  // The same with a serialized RunOptions (empty: none, as above) and, if
  // `run_metadata` is not null, the serialized RunMetadata TensorFlow reports
  // (written also when the run fails, if TensorFlow gave any).
  void run(std::span<const TF_Output> feeds, std::span<TF_Tensor* const> feed_values,
           std::span<const TF_Output> fetches, std::span<TF_Tensor*> outputs,
           std::span<TF_Operation* const> targets, std::string_view run_options,
           std::string* run_metadata) const;

  // Whether the session's typed config asked for kCallerThread. TensorFlow
  // then runs a step synchronously and never enforces RunOptions.timeout_in_ms.
  bool runs_on_caller_thread() const noexcept { return caller_thread_; }

  // The devices the session can place ops on (TF_SessionListDevices).
  std::vector<DeviceInfo> devices() const;

  TF_Session* get() const noexcept { return session_; }
  const Graph& graph() const noexcept { return *graph_; }
  const std::shared_ptr<Graph>& shared_graph() const noexcept { return graph_; }

 private:
  TF_Session* session_;
  std::shared_ptr<Graph> graph_;
  bool caller_thread_ = false;
  LiveToken token_{ObjectKind::kSession};
};

}  // namespace tfjni
