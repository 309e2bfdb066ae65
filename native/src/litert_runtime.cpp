#include "litert_runtime.h"

#include <cstdlib>
#include <mutex>

#include "tfjni/error.h"
#include "tfjni/shared_library.h"

namespace tfjni {
namespace {

std::mutex load_mutex;
LiteRtApi loaded_api{};
std::string loaded_path;  // empty until the library is open

TF_Code code_of(litert_c::Status status) noexcept {
  switch (status) {
    case litert_c::kInvalidArgument: return TF_INVALID_ARGUMENT;
    case litert_c::kMemoryAllocationFailure: return TF_RESOURCE_EXHAUSTED;
    case litert_c::kUnsupported: return TF_UNIMPLEMENTED;
    case litert_c::kNotFound: return TF_NOT_FOUND;
    case litert_c::kFileIo: return TF_NOT_FOUND;
    case litert_c::kInvalidFlatbuffer: return TF_DATA_LOSS;
    case litert_c::kIndexOutOfBounds: return TF_OUT_OF_RANGE;
    default: return TF_INTERNAL;
  }
}

template <typename Fn>
void resolve(void* library, const std::string& path, const char* name, Fn& slot) {
  void* symbol = shared_library::symbol(library, name);
  if (symbol == nullptr) {
    throw_error(TF_FAILED_PRECONDITION, "LiteRT runtime library " + path + " has no " + name +
                                            ": tfjni needs ai-edge-litert 1.4.0's "
                                            "libLiteRtRuntimeCApi.so");
  }
  slot = reinterpret_cast<Fn>(symbol);
}

// LiteRT logs every load at INFO and WARNING (accelerators tfjni never asks for, such as NPU and
// GPU, are not found). It logs errors only, unless TensorFlow's own level asks for everything
// (TF_CPP_MIN_LOG_LEVEL=0, which tfjni.logLevel sets too).
void quiet_logging(void* library) {
  auto get_logger = reinterpret_cast<litert_c::GetDefaultLoggerFn>(
      shared_library::symbol(library, "LiteRtGetDefaultLogger"));
  auto set_severity = reinterpret_cast<litert_c::SetMinLoggerSeverityFn>(
      shared_library::symbol(library, "LiteRtSetMinLoggerSeverity"));
  if (get_logger == nullptr || set_severity == nullptr) return;
  const char* level = std::getenv("TF_CPP_MIN_LOG_LEVEL");
  const bool everything = level != nullptr && std::string(level) == "0";
  set_severity(get_logger(), everything ? litert_c::kLogInfo : litert_c::kLogError);
}

LiteRtApi open_library(const std::string& path) {
  std::string reason;
  void* library = shared_library::open(path, reason);
  if (library == nullptr) {
    throw_error(TF_FAILED_PRECONDITION,
                "cannot open the LiteRT runtime library '" + path + "': " + reason +
                    " (scripts/setup.sh downloads it; see docs/LITERT.md)");
  }
  LiteRtApi api{};
  try {
    resolve(library, path, "LiteRtGetStatusString", api.get_status_string);
    resolve(library, path, "LiteRtCreateEnvironment", api.create_environment);
    resolve(library, path, "LiteRtDestroyEnvironment", api.destroy_environment);
    resolve(library, path, "LiteRtCreateModelFromBuffer", api.create_model_from_buffer);
    resolve(library, path, "LiteRtDestroyModel", api.destroy_model);
    resolve(library, path, "LiteRtGetNumModelSignatures", api.get_num_model_signatures);
    resolve(library, path, "LiteRtGetModelSignature", api.get_model_signature);
    resolve(library, path, "LiteRtGetSignatureKey", api.get_signature_key);
    resolve(library, path, "LiteRtGetSignatureSubgraph", api.get_signature_subgraph);
    resolve(library, path, "LiteRtGetNumSignatureInputs", api.get_num_signature_inputs);
    resolve(library, path, "LiteRtGetSignatureInputName", api.get_signature_input_name);
    resolve(library, path, "LiteRtGetNumSignatureOutputs", api.get_num_signature_outputs);
    resolve(library, path, "LiteRtGetSignatureOutputName", api.get_signature_output_name);
    resolve(library, path, "LiteRtGetSubgraphInput", api.get_subgraph_input);
    resolve(library, path, "LiteRtGetSubgraphOutput", api.get_subgraph_output);
    resolve(library, path, "LiteRtGetTensorTypeId", api.get_tensor_type_id);
    resolve(library, path, "LiteRtGetRankedTensorType", api.get_ranked_tensor_type);
    resolve(library, path, "LiteRtCreateOptions", api.create_options);
    resolve(library, path, "LiteRtDestroyOptions", api.destroy_options);
    resolve(library, path, "LiteRtSetOptionsHardwareAccelerators",
            api.set_options_hardware_accelerators);
    resolve(library, path, "LiteRtAddOpaqueOptions", api.add_opaque_options);
    resolve(library, path, "LiteRtCreateCpuOptions", api.create_cpu_options);
    resolve(library, path, "LiteRtFindCpuOptions", api.find_cpu_options);
    resolve(library, path, "LiteRtSetCpuOptionsNumThread", api.set_cpu_options_num_thread);
    resolve(library, path, "LiteRtDestroyOpaqueOptions", api.destroy_opaque_options);
    resolve(library, path, "LiteRtCreateCompiledModel", api.create_compiled_model);
    resolve(library, path, "LiteRtDestroyCompiledModel", api.destroy_compiled_model);
    resolve(library, path, "LiteRtRunCompiledModel", api.run_compiled_model);
    resolve(library, path, "LiteRtCreateTensorBufferFromHostMemory",
            api.create_tensor_buffer_from_host_memory);
    resolve(library, path, "LiteRtDestroyTensorBuffer", api.destroy_tensor_buffer);
  } catch (...) {
    shared_library::close(library);
    throw;
  }
  quiet_logging(library);
  return api;  // the library stays open for the process: nothing it made may outlive it
}

}  // namespace

void LiteRtApi::check(litert_c::Status status, const char* what) const {
  if (status == litert_c::kOk) return;
  const char* text = get_status_string(status);
  throw_error(code_of(status), std::string("LiteRT: ") + what + " failed: " +
                                   (text != nullptr ? text : "unknown status") + " (status " +
                                   std::to_string(status) + ")");
}

const LiteRtApi& litert_api(const std::string& path) {
  if (path.empty()) {
    throw_error(TF_FAILED_PRECONDITION,
                "no LiteRT runtime library given (scripts/setup.sh downloads it; see "
                "docs/LITERT.md)");
  }
  std::lock_guard lock(load_mutex);
  if (loaded_path.empty()) {
    loaded_api = open_library(path);
    loaded_path = path;
  } else if (path != loaded_path) {
    throw_error(TF_FAILED_PRECONDITION, "the LiteRT runtime library is already loaded from '" +
                                            loaded_path + "'; cannot load another from '" + path +
                                            "'");
  }
  return loaded_api;
}

}  // namespace tfjni
