// A LiteRT model (.tflite) compiled for the CPU (XNNPACK) through LiteRT's C API, whose runtime
// library is opened at first use (litert_runtime.h): its signatures as tfjni specs, and
// runners that take and return tfjni Tensors.
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfjni/live_objects.h"
#include "tfjni/prepared_run.h"
#include "tfjni/signature.h"

namespace tfjni {

struct LiteRtCompiled;  // LiteRT's handles, shared by a model and its runners

class LiteRtModel {
 public:
  // Loads `tflite_path` with LiteRT's runtime library at `library_path` (opened on the first
  // call of the process) and compiles it for the CPU with `threads` threads (>= 1). Throws
  // NOT_FOUND for a missing file, FAILED_PRECONDITION without the runtime library, and LiteRT's
  // status otherwise (a damaged file: DATA_LOSS or INTERNAL).
  static std::unique_ptr<LiteRtModel> load(const std::string& library_path,
                                           const std::string& tflite_path, int threads);
  ~LiteRtModel();

  // Every signature in the model's order; a TensorSpec's key is the signature's name for the
  // tensor, its tensor_name the same (LiteRT names them alike) and its shape static.
  const std::vector<SignatureDef>& signatures() const noexcept { return signatures_; }
  // Throws INVALID_ARGUMENT listing the available keys if `key` is unknown.
  const SignatureDef& signature(std::string_view key) const;

 private:
  friend class LiteRtRunner;
  LiteRtModel(std::shared_ptr<LiteRtCompiled> compiled, std::vector<SignatureDef> signatures);

  std::shared_ptr<LiteRtCompiled> compiled_;
  std::vector<SignatureDef> signatures_;
  LiveToken token_{ObjectKind::kLiteRtModel};
};

// Runs one signature of a LiteRT model. Inputs are handed to LiteRT as host-memory buffers over
// the tensors' own memory and outputs are written straight into new tfjni tensors: no copy
// either way. Runs of one model take turns (a compiled model is one interpreter); each holds
// the model's LiteRT handles, so a runner may outlive its LiteRtModel object.
class LiteRtRunner final : public PreparedRun {
 public:
  // Feeds every input and fetches every output of the signature, in the model's order.
  static std::unique_ptr<LiteRtRunner> for_signature(const LiteRtModel& model,
                                                     std::string_view signature_key);

  const std::vector<Endpoint>& inputs() const noexcept override { return inputs_; }
  const std::vector<Endpoint>& outputs() const noexcept override { return outputs_; }

  // Inputs must have exactly the spec's dtype and shape; the outputs replace what `results`
  // held (new tensors every run).
  void run(std::span<const Tensor* const> inputs,
           std::span<std::optional<Tensor>> results) const override;

 private:
  LiteRtRunner(std::shared_ptr<LiteRtCompiled> compiled, size_t signature_index,
               std::vector<Endpoint> inputs, std::vector<Endpoint> outputs);
  void check_inputs(std::span<const Tensor* const> inputs) const;

  std::shared_ptr<LiteRtCompiled> compiled_;
  size_t signature_index_;
  std::vector<Endpoint> inputs_;
  std::vector<Endpoint> outputs_;
  LiveToken token_{ObjectKind::kRunner};
};

}  // namespace tfjni
