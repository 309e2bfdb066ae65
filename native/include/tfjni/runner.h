// A prepared run: feeds and fetches resolved once, then run many times, from
// many threads at once (it holds no mutable state).
#pragma once

#include <tensorflow/c/c_api.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfjni/live_objects.h"
#include "tfjni/prepared_run.h"
#include "tfjni/run_options.h"
#include "tfjni/saved_model.h"
#include "tfjni/session.h"
#include "tfjni/signature.h"
#include "tfjni/tensor.h"

namespace tfjni {

class Runner final : public PreparedRun {
 public:
  // Feeds `input_keys` and fetches `output_keys` of a signature; with no
  // output keys, fetches every output in key order.
  static std::unique_ptr<Runner> for_signature(const SavedModel& model,
                                               std::string_view signature_key,
                                               std::span<const std::string> input_keys,
                                               std::span<const std::string> output_keys);
  // Feeds and fetches graph tensors by name ("op:index").
  static std::unique_ptr<Runner> for_tensors(std::shared_ptr<Session> session,
                                             std::span<const std::string> input_names,
                                             std::span<const std::string> output_names);

  // A runner with the same feeds and fetches on the same session.
  std::unique_ptr<Runner> clone() const;

  const std::vector<Endpoint>& inputs() const noexcept override { return inputs_; }
  const std::vector<Endpoint>& outputs() const noexcept override { return outputs_; }

  // Checks every input against its spec, runs, and stores one tensor per
  // output in `results` (size outputs().size()), replacing what was there.
  // An output that shares memory with an input is copied, so refilling the
  // input later cannot change it.
  void run(std::span<const Tensor* const> inputs,
           std::span<std::optional<Tensor>> results) const override;
  std::vector<Tensor> run(std::span<const Tensor* const> inputs) const;
  // The same with a serialized RunOptions (RunOptions::serialize(); empty:
  // none, exactly the run above) and, if `run_metadata` is not null,
  // TensorFlow's serialized RunMetadata (parse_step_stats reads it). A run
  // that times out throws DEADLINE_EXCEEDED; the runner stays usable.
  void run(std::span<const Tensor* const> inputs, std::span<std::optional<Tensor>> results,
           std::string_view run_options, std::string* run_metadata) const;

  const Session& session() const noexcept { return *session_; }

  // Throws INVALID_ARGUMENT for options this runner's session would ignore:
  // a timeout on a session that runs ops on the calling thread (TensorFlow
  // runs such a step to the end whatever the deadline).
  void check_options(const RunOptions& options) const;

 private:
  Runner(std::shared_ptr<Session> session, std::vector<Endpoint> inputs,
         std::vector<Endpoint> outputs);
  void check_inputs(std::span<const Tensor* const> inputs) const;

  std::shared_ptr<Session> session_;
  std::vector<Endpoint> inputs_;
  std::vector<Endpoint> outputs_;
  std::vector<TF_Output> feed_outputs_;
  std::vector<TF_Output> fetch_outputs_;
  LiveToken token_{ObjectKind::kRunner};
};

}  // namespace tfjni
