// What a predictor runs: inputs and outputs resolved once, then run many times. A TensorFlow
// session's Runner and a LiteRT model's LiteRtRunner are both one, so the JNI predictor serves
// either.
#pragma once

#include <tensorflow/c/c_api.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tfjni/signature.h"
#include "tfjni/tensor.h"

namespace tfjni {

// One resolved feed or fetch, with what a fed tensor must look like.
struct Endpoint {
  std::string label;  // signature key, or graph tensor name
  TF_Output output{};  // the graph tensor; empty for a LiteRT model
  TensorSpec spec;
};

class PreparedRun {
 public:
  virtual ~PreparedRun() = default;

  virtual const std::vector<Endpoint>& inputs() const noexcept = 0;
  virtual const std::vector<Endpoint>& outputs() const noexcept = 0;

  // Checks every input against its spec, runs, and stores one tensor per output in `results`
  // (size outputs().size()), replacing what was there.
  virtual void run(std::span<const Tensor* const> inputs,
                   std::span<std::optional<Tensor>> results) const = 0;
};

}  // namespace tfjni
