#include "tfjni/runner.h"

#include <algorithm>
#include <set>
#include <utility>

#include "tfjni/dtype.h"
#include "tfjni/error.h"
#include "tfjni/scratch.h"

namespace tfjni {
namespace {

TensorSpec spec_from_graph(const Graph& graph, const std::string& name, TF_Output output) {
  TensorSpec spec;
  spec.key = name;
  spec.tensor_name = name;
  spec.dtype = TF_OperationOutputType(output);
  Status status;
  int rank = TF_GraphGetTensorNumDims(graph.get(), output, status.get());
  status.check();
  if (rank < 0) {
    spec.unknown_rank = true;
  } else {
    spec.shape.resize(static_cast<size_t>(rank));
    TF_GraphGetTensorShape(graph.get(), output, spec.shape.data(), rank, status.get());
    status.check();
  }
  return spec;
}

void check_unique(std::span<const std::string> names, const char* what) {
  std::set<std::string_view> seen;
  for (const std::string& name : names) {
    if (!seen.insert(name).second) throw_invalid_argument(std::string(what) + " '" + name + "' is given twice");
  }
}

std::string keys_of(const std::vector<TensorSpec>& specs) {
  std::string keys;
  for (const TensorSpec& spec : specs) keys += (keys.empty() ? "" : ", ") + spec.key;
  return keys.empty() ? "(none)" : keys;
}

Endpoint signature_endpoint(const Graph& graph, const SignatureDef& def, const std::string& key,
                            bool input) {
  const TensorSpec* spec = input ? def.find_input(key) : def.find_output(key);
  const char* what = input ? "input" : "output";
  if (spec == nullptr) {
    throw_invalid_argument("signature '" + def.key + "' has no " + what + " '" + key + "'; its " +
                           what + "s are: " + keys_of(input ? def.inputs : def.outputs));
  }
  if (spec->tensor_name.empty()) {
    throw_error(TF_UNIMPLEMENTED, std::string(what) + " '" + key + "' of signature '" + def.key +
                                      "' is not a dense tensor");
  }
  return Endpoint{key, graph.output(spec->tensor_name), *spec};
}

bool shape_matches(const TensorSpec& spec, const Tensor& tensor) {
  if (spec.unknown_rank) return true;
  if (static_cast<int>(spec.shape.size()) != tensor.rank()) return false;
  for (int i = 0; i < tensor.rank(); ++i) {
    if (spec.shape[i] >= 0 && spec.shape[i] != tensor.dim(i)) return false;
  }
  return true;
}

// True if `output` points into the memory of one of `inputs` (an Identity,
// say): such an output would change when the caller refills the input.
bool aliases_an_input(const Tensor& output, std::span<const Tensor* const> inputs) {
  if (output.byte_size() == 0) return false;
  auto* begin = static_cast<const char*>(output.data());
  for (const Tensor* input : inputs) {
    auto* in_begin = static_cast<const char*>(input->data());
    if (begin >= in_begin && begin < in_begin + input->byte_size()) return true;
  }
  return false;
}

// A copy of `tensor` in memory of its own (string elements included).
Tensor deep_copy(const Tensor& tensor) {
  if (tensor.dtype() == TF_STRING) {
    std::vector<std::string_view> values;
    values.reserve(static_cast<size_t>(tensor.num_elements()));
    for (int64_t i = 0; i < tensor.num_elements(); ++i) values.push_back(tensor.string_at(i));
    return Tensor::strings(tensor.shape(), values);
  }
  return Tensor::copy_of(tensor.dtype(), tensor.shape(), tensor.data(), tensor.byte_size());
}

}  // namespace

Runner::Runner(std::shared_ptr<Session> session, std::vector<Endpoint> inputs,
               std::vector<Endpoint> outputs)
    : session_(std::move(session)), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {
  for (const Endpoint& e : inputs_) feed_outputs_.push_back(e.output);
  for (const Endpoint& e : outputs_) fetch_outputs_.push_back(e.output);
}

std::unique_ptr<Runner> Runner::for_signature(const SavedModel& model, std::string_view signature_key,
                                              std::span<const std::string> input_keys,
                                              std::span<const std::string> output_keys) {
  const SignatureDef& def = model.signature(signature_key);
  check_unique(input_keys, "input");
  check_unique(output_keys, "output");
  const Graph& graph = model.session()->graph();
  std::vector<Endpoint> inputs, outputs;
  for (const std::string& key : input_keys) inputs.push_back(signature_endpoint(graph, def, key, true));
  if (output_keys.empty()) {
    for (const TensorSpec& spec : def.outputs) outputs.push_back(signature_endpoint(graph, def, spec.key, false));
  }
  for (const std::string& key : output_keys) outputs.push_back(signature_endpoint(graph, def, key, false));
  return std::unique_ptr<Runner>(new Runner(model.session(), std::move(inputs), std::move(outputs)));
}

std::unique_ptr<Runner> Runner::for_tensors(std::shared_ptr<Session> session,
                                            std::span<const std::string> input_names,
                                            std::span<const std::string> output_names) {
  check_unique(input_names, "input");
  if (output_names.empty()) throw_invalid_argument("at least one output tensor name is needed");
  const Graph& graph = session->graph();
  std::vector<Endpoint> inputs, outputs;
  for (const std::string& name : input_names) {
    TF_Output out = graph.output(name);
    inputs.push_back(Endpoint{name, out, spec_from_graph(graph, name, out)});
  }
  for (const std::string& name : output_names) {
    TF_Output out = graph.output(name);
    outputs.push_back(Endpoint{name, out, spec_from_graph(graph, name, out)});
  }
  return std::unique_ptr<Runner>(new Runner(std::move(session), std::move(inputs), std::move(outputs)));
}

std::unique_ptr<Runner> Runner::clone() const {
  return std::unique_ptr<Runner>(new Runner(session_, inputs_, outputs_));
}

void Runner::check_options(const RunOptions& options) const {
  if (options.timeout_ms.value_or(0) > 0 && session_->runs_on_caller_thread()) {
    throw_invalid_argument(
        "a run timeout has no effect on a session that runs ops on the calling thread (inter-op "
        "threads -1): TensorFlow runs the step to its end whatever the deadline");
  }
}

void Runner::check_inputs(std::span<const Tensor* const> inputs) const {
  if (inputs.size() != inputs_.size()) {
    throw_invalid_argument("expected " + std::to_string(inputs_.size()) + " input tensors, got " +
                           std::to_string(inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Endpoint& e = inputs_[i];
    const Tensor* t = inputs[i];
    if (t == nullptr) throw_invalid_argument("input '" + e.label + "' is null");
    if (t->dtype() != e.spec.dtype || !shape_matches(e.spec, *t)) {
      throw_invalid_argument("input '" + e.label + "' expects a " + dtype_name(e.spec.dtype) +
                             " tensor of shape " + shape_string(e.spec.shape, e.spec.unknown_rank) +
                             ", got " + dtype_name(t->dtype()) + " " + shape_string(t->shape()));
    }
  }
}

void Runner::run(std::span<const Tensor* const> inputs, std::span<std::optional<Tensor>> results) const {
  run(inputs, results, {}, nullptr);
}

void Runner::run(std::span<const Tensor* const> inputs, std::span<std::optional<Tensor>> results,
                 std::string_view run_options, std::string* run_metadata) const {
  check_inputs(inputs);
  if (results.size() != outputs_.size()) {
    throw_invalid_argument("expected room for " + std::to_string(outputs_.size()) + " outputs, got " +
                           std::to_string(results.size()));
  }
  Scratch<TF_Tensor*> feed_values(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) feed_values[i] = inputs[i]->get();
  Scratch<TF_Tensor*> fetched(outputs_.size());
  session_->run(feed_outputs_, feed_values.span(), fetch_outputs_, fetched.span(), {}, run_options,
                run_metadata);
  for (size_t i = 0; i < outputs_.size(); ++i) {
    results[i].reset();
    results[i].emplace(Tensor::adopt(std::exchange(fetched[i], nullptr)));
  }
  for (std::optional<Tensor>& result : results) {
    if (aliases_an_input(*result, inputs)) {
      Tensor copy = deep_copy(*result);
      result.emplace(std::move(copy));
    }
  }
}

std::vector<Tensor> Runner::run(std::span<const Tensor* const> inputs) const {
  std::vector<std::optional<Tensor>> results(outputs_.size());
  run(inputs, results);
  std::vector<Tensor> tensors;
  tensors.reserve(results.size());
  for (std::optional<Tensor>& r : results) tensors.push_back(std::move(*r));
  return tensors;
}

}  // namespace tfjni
