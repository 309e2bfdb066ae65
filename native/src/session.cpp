#include "tfjni/session.h"

#include <memory>

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
    : session_(nullptr), graph_(std::move(graph)), caller_thread_(config.runs_on_caller_thread()) {
  SessionOptions options(config);
  Status status;
  session_ = TF_NewSession(graph_->get(), options.get(), status.get());
  status.check();
}

Session::Session(TF_Session* session, std::shared_ptr<Graph> graph, bool caller_thread)
    : session_(session), graph_(std::move(graph)), caller_thread_(caller_thread) {
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
  run(feeds, feed_values, fetches, outputs, targets, {}, nullptr);
}

void Session::run(std::span<const TF_Output> feeds, std::span<TF_Tensor* const> feed_values,
                  std::span<const TF_Output> fetches, std::span<TF_Tensor*> outputs,
                  std::span<TF_Operation* const> targets, std::string_view run_options,
                  std::string* run_metadata) const {
  if (feeds.size() != feed_values.size() || fetches.size() != outputs.size()) {
    throw_invalid_argument("feeds and values (or fetches and outputs) differ in number");
  }
  for (TF_Tensor*& out : outputs) out = nullptr;
  // The options are only read during the call: a buffer over the caller's
  // bytes, on the stack, with no deallocator (no allocation per run).
  TF_Buffer options_buffer{run_options.data(), run_options.size(), nullptr};
  struct BufferDeleter {
    void operator()(TF_Buffer* b) const noexcept { TF_DeleteBuffer(b); }
  };
  std::unique_ptr<TF_Buffer, BufferDeleter> metadata(run_metadata != nullptr ? TF_NewBuffer() : nullptr);
  Status& status = thread_status();
  TF_SessionRun(session_, run_options.empty() ? nullptr : &options_buffer, feeds.data(),
                feed_values.data(), static_cast<int>(feeds.size()), fetches.data(), outputs.data(),
                static_cast<int>(fetches.size()), targets.data(), static_cast<int>(targets.size()),
                metadata.get(), status.get());
  if (metadata && metadata->data != nullptr) {
    run_metadata->assign(static_cast<const char*>(metadata->data), metadata->length);
  } else if (run_metadata != nullptr) {
    run_metadata->clear();
  }
  if (TF_GetCode(status.get()) != TF_OK) {
    for (TF_Tensor*& out : outputs) {
      if (out != nullptr) TF_DeleteTensor(out);
      out = nullptr;
    }
    status.check();
  }
}

std::vector<DeviceInfo> Session::devices() const {
  Status status;
  TF_DeviceList* list = TF_SessionListDevices(session_, status.get());
  if (TF_GetCode(status.get()) != TF_OK) {
    if (list != nullptr) TF_DeleteDeviceList(list);
    status.check();
  }
  return describe_devices(list);
}

}  // namespace tfjni
