// LiteRT's runtime library, opened with dlopen at first use and kept for the process.
#pragma once

#include <string>

#include "litert_c_api.h"

namespace tfjni {

// The entry points tfjni calls, resolved by name from the library.
struct LiteRtApi {
  litert_c::GetStatusStringFn get_status_string;
  litert_c::CreateEnvironmentFn create_environment;
  litert_c::DestroyEnvironmentFn destroy_environment;
  litert_c::CreateModelFromBufferFn create_model_from_buffer;
  litert_c::DestroyModelFn destroy_model;
  litert_c::GetNumModelSignaturesFn get_num_model_signatures;
  litert_c::GetModelSignatureFn get_model_signature;
  litert_c::GetSignatureKeyFn get_signature_key;
  litert_c::GetSignatureSubgraphFn get_signature_subgraph;
  litert_c::GetNumSignatureInputsFn get_num_signature_inputs;
  litert_c::GetSignatureInputNameFn get_signature_input_name;
  litert_c::GetNumSignatureOutputsFn get_num_signature_outputs;
  litert_c::GetSignatureOutputNameFn get_signature_output_name;
  litert_c::GetSubgraphTensorFn get_subgraph_input;
  litert_c::GetSubgraphTensorFn get_subgraph_output;
  litert_c::GetTensorTypeIdFn get_tensor_type_id;
  litert_c::GetRankedTensorTypeFn get_ranked_tensor_type;
  litert_c::CreateOptionsFn create_options;
  litert_c::DestroyOptionsFn destroy_options;
  litert_c::SetOptionsHardwareAcceleratorsFn set_options_hardware_accelerators;
  litert_c::AddOpaqueOptionsFn add_opaque_options;
  litert_c::CreateCpuOptionsFn create_cpu_options;
  litert_c::FindCpuOptionsFn find_cpu_options;
  litert_c::SetCpuOptionsNumThreadFn set_cpu_options_num_thread;
  litert_c::DestroyOpaqueOptionsFn destroy_opaque_options;
  litert_c::CreateCompiledModelFn create_compiled_model;
  litert_c::DestroyCompiledModelFn destroy_compiled_model;
  litert_c::RunCompiledModelFn run_compiled_model;
  litert_c::CreateTensorBufferFromHostMemoryFn create_tensor_buffer_from_host_memory;
  litert_c::DestroyTensorBufferFn destroy_tensor_buffer;

  // Throws tfjni::Error for a failed status: `what` names the call, LiteRT's text the cause.
  void check(litert_c::Status status, const char* what) const;
};

// Opens the library at `path` on the first call; later calls return the same entry points and
// refuse another path (one LiteRT per process: two copies would each keep their own global
// state). Throws FAILED_PRECONDITION when the file is missing or lacks an entry point; a failed
// open is not remembered, so a corrected path can follow.
const LiteRtApi& litert_api(const std::string& path);

}  // namespace tfjni
