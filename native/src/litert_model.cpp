#include "tfjni/litert_model.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>

#include "aligned_memory.h"
#include "litert_runtime.h"
#include "tfjni/dtype.h"
#include "tfjni/error.h"
#include "tfjni/scratch.h"
#include "tfjni/utf8_path.h"

namespace tfjni {

// LiteRT's handles for one loaded model, destroyed in the reverse order of their creation once
// the model and every runner are gone. `run_mutex` serialises runs: a compiled model is one
// interpreter, with one set of tensors.
struct LiteRtCompiled {
  const LiteRtApi* api = nullptr;
  // The file's bytes, which LiteRT's model reads in place (it keeps no copy).
  std::unique_ptr<void, decltype(&aligned_free)> file_bytes{nullptr, &aligned_free};
  litert_c::Environment environment = nullptr;
  litert_c::Model model = nullptr;
  litert_c::Options options = nullptr;
  litert_c::CompiledModel compiled_model = nullptr;
  // Per signature, the LiteRT type of each input and output (a host buffer is made with it).
  std::vector<std::vector<litert_c::RankedTensorType>> input_types;
  std::vector<std::vector<litert_c::RankedTensorType>> output_types;
  std::mutex run_mutex;

  ~LiteRtCompiled() {
    if (compiled_model != nullptr) api->destroy_compiled_model(compiled_model);
    if (options != nullptr) api->destroy_options(options);
    if (model != nullptr) api->destroy_model(model);
    if (environment != nullptr) api->destroy_environment(environment);
  }
};

namespace {

// TensorFlow's dtype for a LiteRT element type; 0 where tfjni cannot exchange it (strings,
// whose LiteRT layout is not TF_TString's, and 4-bit integers, resources, variants).
TF_DataType dtype_of(litert_c::ElementType type) {
  switch (type) {
    case litert_c::kElementFloat32: return TF_FLOAT;
    case litert_c::kElementFloat64: return TF_DOUBLE;
    case litert_c::kElementFloat16: return TF_HALF;
    case litert_c::kElementBFloat16: return TF_BFLOAT16;
    case litert_c::kElementInt8: return TF_INT8;
    case litert_c::kElementInt16: return TF_INT16;
    case litert_c::kElementInt32: return TF_INT32;
    case litert_c::kElementInt64: return TF_INT64;
    case litert_c::kElementUInt8: return TF_UINT8;
    case litert_c::kElementUInt16: return TF_UINT16;
    case litert_c::kElementUInt32: return TF_UINT32;
    case litert_c::kElementUInt64: return TF_UINT64;
    case litert_c::kElementBool: return TF_BOOL;
    case litert_c::kElementComplex64: return TF_COMPLEX64;
    case litert_c::kElementComplex128: return TF_COMPLEX128;
    default: return static_cast<TF_DataType>(0);
  }
}

litert_c::RankedTensorType ranked_type(const LiteRtApi& api, litert_c::Tensor tensor,
                                       const std::string& name) {
  int type_id = -1;
  api.check(api.get_tensor_type_id(tensor, &type_id), "reading a tensor's type");
  if (type_id != litert_c::kRankedTensorType) {
    throw_error(TF_UNIMPLEMENTED, "LiteRT tensor '" + name +
                                      "' has an unknown rank; tfjni runs models of static shapes");
  }
  litert_c::RankedTensorType type{};
  api.check(api.get_ranked_tensor_type(tensor, &type), "reading a tensor's shape");
  return type;
}

TensorSpec spec_of(const std::string& name, const litert_c::RankedTensorType& type) {
  TensorSpec spec;
  spec.key = name;
  spec.tensor_name = name;
  spec.dtype = dtype_of(type.element_type);
  for (unsigned int d = 0; d < type.layout.rank; ++d) spec.shape.push_back(type.layout.dimensions[d]);
  return spec;
}

// Reads one signature's key, inputs and outputs (in the subgraph's order, which is the order a
// run takes its buffers in) into `def`, and their LiteRT types.
void read_signature(const LiteRtApi& api, litert_c::Signature signature, SignatureDef& def,
                    std::vector<litert_c::RankedTensorType>& input_types,
                    std::vector<litert_c::RankedTensorType>& output_types) {
  const char* key = nullptr;
  api.check(api.get_signature_key(signature, &key), "reading a signature key");
  def.key = key;
  litert_c::Subgraph subgraph = nullptr;
  api.check(api.get_signature_subgraph(signature, &subgraph), "reading a signature's subgraph");
  size_t count = 0;
  api.check(api.get_num_signature_inputs(signature, &count), "counting a signature's inputs");
  for (size_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    api.check(api.get_signature_input_name(signature, i, &name), "reading an input's name");
    litert_c::Tensor tensor = nullptr;
    api.check(api.get_subgraph_input(subgraph, i, &tensor), "reading an input tensor");
    input_types.push_back(ranked_type(api, tensor, name));
    def.inputs.push_back(spec_of(name, input_types.back()));
  }
  api.check(api.get_num_signature_outputs(signature, &count), "counting a signature's outputs");
  for (size_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    api.check(api.get_signature_output_name(signature, i, &name), "reading an output's name");
    litert_c::Tensor tensor = nullptr;
    api.check(api.get_subgraph_output(subgraph, i, &tensor), "reading an output tensor");
    output_types.push_back(ranked_type(api, tensor, name));
    def.outputs.push_back(spec_of(name, output_types.back()));
  }
}

// Compilation options: the CPU accelerator (XNNPACK) with `threads` threads.
void make_cpu_options(const LiteRtApi& api, LiteRtCompiled& compiled, int threads) {
  api.check(api.create_options(&compiled.options), "creating compilation options");
  api.check(api.set_options_hardware_accelerators(compiled.options, litert_c::kAcceleratorCpu),
            "choosing the CPU accelerator");
  litert_c::OpaqueOptions cpu = nullptr;
  api.check(api.create_cpu_options(&cpu), "creating CPU options");
  try {
    litert_c::CpuOptions cpu_options = nullptr;
    api.check(api.find_cpu_options(cpu, &cpu_options), "finding CPU options");
    api.check(api.set_cpu_options_num_thread(cpu_options, threads), "setting the thread count");
    api.check(api.add_opaque_options(compiled.options, cpu), "adding CPU options");
  } catch (...) {
    api.destroy_opaque_options(cpu);  // not handed over to the options
    throw;
  }
}

// LiteRT verifies a model's flatbuffer only when it is given the bytes (its file loader does
// not, and crashes on a damaged file), and only below this size.
constexpr uintmax_t kVerifiableSize = 2'000'000'000;

// The whole file in 64-byte aligned memory (weights are read in place).
std::unique_ptr<void, decltype(&aligned_free)> read_model_file(const std::string& path,
                                                            size_t& size) {
  std::error_code error;
  uintmax_t file_size = std::filesystem::file_size(path, error);
  if (error) throw_error(TF_NOT_FOUND, "cannot read LiteRT model file '" + path + "': " + error.message());
  if (file_size == 0) throw_error(TF_DATA_LOSS, "LiteRT model file '" + path + "' is empty");
  if (file_size >= kVerifiableSize) {
    throw_error(TF_UNIMPLEMENTED, "LiteRT model file '" + path +
                                      "' is 2 GB or more, which LiteRT cannot verify before use");
  }
  size = static_cast<size_t>(file_size);
  const size_t rounded = (size + 63) / 64 * 64 + 64;  // never 0: aligned_alloc needs a size
  std::unique_ptr<void, decltype(&aligned_free)> bytes(aligned_allocate(64, rounded), &aligned_free);
  if (!bytes) throw std::bad_alloc();
  std::ifstream in(utf8_path(path), std::ios::binary);
  if (!in.read(static_cast<char*>(bytes.get()), static_cast<std::streamsize>(size))) {
    throw_error(TF_NOT_FOUND, "cannot read LiteRT model file '" + path + "'");
  }
  return bytes;
}

// LiteRT releases nothing of the memory a host buffer wraps: tfjni's tensors own it.
void keep_memory(void*) {}

// LiteRT's CPU path points the interpreter's tensors at a host buffer's memory only when it is
// aligned to this; it ignores a refusal and would read the previous run's memory instead.
// TensorFlow's x86-64 build (Eigen aligned to 64) already copies less aligned memory in
// TF_NewTensor, so there every tfjni tensor passes; builds with a smaller Eigen alignment
// (aarch64) may hand out tensors that need the copy.
constexpr uintptr_t kHostBufferAlignment = 64;

// Compares dimension by dimension: no vector made per run.
bool has_shape(const Tensor& tensor, const std::vector<int64_t>& shape) {
  if (static_cast<size_t>(tensor.rank()) != shape.size()) return false;
  for (int d = 0; d < tensor.rank(); ++d) {
    if (tensor.dim(d) != shape[static_cast<size_t>(d)]) return false;
  }
  return true;
}

bool is_aligned(const Tensor& tensor) {
  return reinterpret_cast<uintptr_t>(tensor.data()) % kHostBufferAlignment == 0;
}

// Destroys the host buffers of one run (LiteRT keeps its own reference where it needs one).
class RunBuffers {
 public:
  RunBuffers(const LiteRtApi& api, size_t count) : api_(api), buffers_(count), count_(count) {
    for (size_t i = 0; i < count; ++i) buffers_[i] = nullptr;
  }
  RunBuffers(const RunBuffers&) = delete;
  RunBuffers& operator=(const RunBuffers&) = delete;
  ~RunBuffers() {
    for (size_t i = 0; i < count_; ++i) {
      if (buffers_[i] != nullptr) api_.destroy_tensor_buffer(buffers_[i]);
    }
  }
  void wrap(size_t index, const litert_c::RankedTensorType& type, const Tensor& tensor) {
    api_.check(api_.create_tensor_buffer_from_host_memory(&type, tensor.data(),
                                                          tensor.byte_size(), keep_memory,
                                                          &buffers_[index]),
               "wrapping a tensor's memory");
  }
  litert_c::TensorBuffer* data() noexcept { return buffers_.data(); }

 private:
  const LiteRtApi& api_;
  Scratch<litert_c::TensorBuffer> buffers_;
  size_t count_;
};

}  // namespace

LiteRtModel::LiteRtModel(std::shared_ptr<LiteRtCompiled> compiled,
                         std::vector<SignatureDef> signatures)
    : compiled_(std::move(compiled)), signatures_(std::move(signatures)) {}

LiteRtModel::~LiteRtModel() = default;

std::unique_ptr<LiteRtModel> LiteRtModel::load(const std::string& library_path,
                                               const std::string& tflite_path, int threads) {
  if (threads < 1) {
    throw_invalid_argument("a LiteRT model needs at least 1 thread, got " + std::to_string(threads));
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(utf8_path(tflite_path), error)) {
    throw_error(TF_NOT_FOUND, "no LiteRT model file '" + tflite_path + "'");
  }
  const LiteRtApi& api = litert_api(library_path);
  auto compiled = std::make_shared<LiteRtCompiled>();
  compiled->api = &api;
  api.check(api.create_environment(0, nullptr, &compiled->environment), "creating an environment");
  size_t size = 0;
  compiled->file_bytes = read_model_file(tflite_path, size);
  api.check(api.create_model_from_buffer(compiled->file_bytes.get(), size, &compiled->model),
            ("loading '" + tflite_path + "'").c_str());
  size_t count = 0;
  api.check(api.get_num_model_signatures(compiled->model, &count), "counting signatures");
  std::vector<SignatureDef> signatures(count);
  compiled->input_types.resize(count);
  compiled->output_types.resize(count);
  for (size_t i = 0; i < count; ++i) {
    litert_c::Signature signature = nullptr;
    api.check(api.get_model_signature(compiled->model, i, &signature), "reading a signature");
    read_signature(api, signature, signatures[i], compiled->input_types[i],
                   compiled->output_types[i]);
  }
  make_cpu_options(api, *compiled, threads);
  api.check(api.create_compiled_model(compiled->environment, compiled->model, compiled->options,
                                      &compiled->compiled_model),
            ("compiling '" + tflite_path + "' for the CPU").c_str());
  return std::unique_ptr<LiteRtModel>(new LiteRtModel(std::move(compiled), std::move(signatures)));
}

const SignatureDef& LiteRtModel::signature(std::string_view key) const {
  for (const SignatureDef& def : signatures_) {
    if (def.key == key) return def;
  }
  std::string keys;
  for (const SignatureDef& def : signatures_) keys += (keys.empty() ? "" : ", ") + def.key;
  throw_invalid_argument("no signature '" + std::string(key) + "' in the LiteRT model; its signatures are: " +
                         (keys.empty() ? "(none)" : keys));
}

LiteRtRunner::LiteRtRunner(std::shared_ptr<LiteRtCompiled> compiled, size_t signature_index,
                           std::vector<Endpoint> inputs, std::vector<Endpoint> outputs)
    : compiled_(std::move(compiled)),
      signature_index_(signature_index),
      inputs_(std::move(inputs)),
      outputs_(std::move(outputs)) {}

std::unique_ptr<LiteRtRunner> LiteRtRunner::for_signature(const LiteRtModel& model,
                                                          std::string_view signature_key) {
  const SignatureDef& def = model.signature(signature_key);
  auto index = static_cast<size_t>(&def - model.signatures().data());
  std::vector<Endpoint> inputs, outputs;
  for (const TensorSpec& spec : def.inputs) inputs.push_back(Endpoint{spec.key, {}, spec});
  for (const TensorSpec& spec : def.outputs) {
    if (spec.dtype == 0) {
      throw_error(TF_UNIMPLEMENTED, "output '" + spec.key + "' of LiteRT signature '" + def.key +
                                        "' has a type tfjni cannot exchange with LiteRT");
    }
    outputs.push_back(Endpoint{spec.key, {}, spec});
  }
  for (const TensorSpec& spec : def.inputs) {
    if (spec.dtype == 0) {
      throw_error(TF_UNIMPLEMENTED, "input '" + spec.key + "' of LiteRT signature '" + def.key +
                                        "' has a type tfjni cannot exchange with LiteRT");
    }
  }
  return std::unique_ptr<LiteRtRunner>(
      new LiteRtRunner(model.compiled_, index, std::move(inputs), std::move(outputs)));
}

void LiteRtRunner::check_inputs(std::span<const Tensor* const> inputs) const {
  if (inputs.size() != inputs_.size()) {
    throw_invalid_argument("expected " + std::to_string(inputs_.size()) + " input tensors, got " +
                           std::to_string(inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorSpec& spec = inputs_[i].spec;
    const Tensor* t = inputs[i];
    if (t == nullptr) throw_invalid_argument("input '" + spec.key + "' is null");
    if (t->dtype() != spec.dtype || !has_shape(*t, spec.shape)) {
      throw_invalid_argument("input '" + spec.key + "' expects a " + dtype_name(spec.dtype) +
                             " tensor of shape " + shape_string(spec.shape) + ", got " +
                             dtype_name(t->dtype()) + " " + shape_string(t->shape()));
    }
  }
}

void LiteRtRunner::run(std::span<const Tensor* const> inputs,
                       std::span<std::optional<Tensor>> results) const {
  check_inputs(inputs);
  if (results.size() != outputs_.size()) {
    throw_invalid_argument("expected room for " + std::to_string(outputs_.size()) +
                           " outputs, got " + std::to_string(results.size()));
  }
  const LiteRtApi& api = *compiled_->api;
  const auto& input_types = compiled_->input_types[signature_index_];
  const auto& output_types = compiled_->output_types[signature_index_];
  Scratch<std::optional<Tensor>> made(outputs_.size());
  Scratch<std::optional<Tensor>> aligned_copies(inputs.size());
  RunBuffers input_buffers(api, inputs.size());
  RunBuffers output_buffers(api, outputs_.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor* input = inputs[i];
    if (!is_aligned(*input)) {
      aligned_copies[i].emplace(Tensor::copy_of(input->dtype(), input->shape(), input->data(),
                                                input->byte_size()));
      input = &*aligned_copies[i];
    }
    input_buffers.wrap(i, input_types[i], *input);
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    made[i].emplace(Tensor::uninitialized(outputs_[i].spec.dtype, outputs_[i].spec.shape));
    output_buffers.wrap(i, output_types[i], *made[i]);
  }
  {
    std::lock_guard lock(compiled_->run_mutex);
    api.check(api.run_compiled_model(compiled_->compiled_model, signature_index_, inputs.size(),
                                     input_buffers.data(), outputs_.size(), output_buffers.data()),
              "running the model");
  }
  for (size_t i = 0; i < outputs_.size(); ++i) results[i] = std::move(made[i]);
}

}  // namespace tfjni
