#include "tfjni/session.h"

#include "tfjni/error.h"

namespace tfjni {

SessionOptions::SessionOptions(const SessionConfig& config) : options_(TF_NewSessionOptions()) {
  std::string proto = config.serialize();
  if (proto.empty()) return;
  Status status;
  TF_SetConfig(options_.get(), proto.data(), proto.size(), status.get());
  status.check();
}

Session::Session(std::shared_ptr<Graph> graph, const SessionConfig& config)
    : session_(nullptr), graph_(std::move(graph)) {
  SessionOptions options(config);
  Status status;
  session_ = TF_NewSession(graph_->get(), options.get(), status.get());
  status.check();
}

Session::Session(TF_Session* session, std::shared_ptr<Graph> graph)
    : session_(session), graph_(std::move(graph)) {
  if (session_ == nullptr) throw_error(TF_INTERNAL, "TensorFlow returned a null session");
}

Session::~Session() {
  Status status;
  TF_CloseSession(session_, status.get());
  status.reset();
  TF_DeleteSession(session_, status.get());
}

void Session::run(std::span<const TF_Output> feeds, std::span<TF_Tensor* const> feed_values,
                  std::span<const TF_Output> fetches, std::span<TF_Tensor*> outputs,
                  std::span<TF_Operation* const> targets) const {
  if (feeds.size() != feed_values.size() || fetches.size() != outputs.size()) {
    throw_invalid_argument("feeds and values (or fetches and outputs) differ in number");
  }
  for (TF_Tensor*& out : outputs) out = nullptr;
  Status& status = thread_status();
  TF_SessionRun(session_, nullptr, feeds.data(), feed_values.data(), static_cast<int>(feeds.size()),
                fetches.data(), outputs.data(), static_cast<int>(fetches.size()), targets.data(),
                static_cast<int>(targets.size()), nullptr, status.get());
  if (TF_GetCode(status.get()) != TF_OK) {
    for (TF_Tensor*& out : outputs) {
      if (out != nullptr) TF_DeleteTensor(out);
      out = nullptr;
    }
    status.check();
  }
}

}  // namespace tfjni
