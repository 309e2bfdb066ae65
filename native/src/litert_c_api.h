// The part of LiteRT's C API (libLiteRtRuntimeCApi.so, ai-edge-litert 1.4.0) that tfjni calls,
// declared from LiteRT's documented headers (litert/c/*.h) as function pointer types: the
// library is opened with dlopen at first use, so libtfjni links nothing of it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tfjni::litert_c {

// LiteRtStatus: 0 is success; the codes tfjni names in messages.
using Status = int;
inline constexpr Status kOk = 0;
inline constexpr Status kInvalidArgument = 1;
inline constexpr Status kMemoryAllocationFailure = 2;
inline constexpr Status kRuntimeFailure = 3;
inline constexpr Status kUnsupported = 5;
inline constexpr Status kNotFound = 6;
inline constexpr Status kFileIo = 500;
inline constexpr Status kInvalidFlatbuffer = 501;
inline constexpr Status kIndexOutOfBounds = 1000;

// Opaque handles.
struct EnvironmentObject;
struct ModelObject;
struct SignatureObject;
struct SubgraphObject;
struct TensorObject;
struct OptionsObject;
struct OpaqueOptionsObject;
struct CpuOptionsObject;
struct CompiledModelObject;
struct TensorBufferObject;
struct LoggerObject;
using Environment = EnvironmentObject*;
using Model = ModelObject*;
using Signature = SignatureObject*;
using Subgraph = SubgraphObject*;
using Tensor = TensorObject*;
using Options = OptionsObject*;
using OpaqueOptions = OpaqueOptionsObject*;
using CpuOptions = CpuOptionsObject*;
using CompiledModel = CompiledModelObject*;
using TensorBuffer = TensorBufferObject*;
using Logger = LoggerObject*;

// LiteRtLogSeverity (an int8_t enum).
inline constexpr int8_t kLogInfo = 1;
inline constexpr int8_t kLogError = 3;

// LiteRtHwAccelerators.
inline constexpr int kAcceleratorCpu = 1;

// LiteRtElementType: TfLiteType's codes.
enum ElementType : int {
  kElementNone = 0,
  kElementFloat32 = 1,
  kElementInt32 = 2,
  kElementUInt8 = 3,
  kElementInt64 = 4,
  kElementString = 5,
  kElementBool = 6,
  kElementInt16 = 7,
  kElementComplex64 = 8,
  kElementInt8 = 9,
  kElementFloat16 = 10,
  kElementFloat64 = 11,
  kElementComplex128 = 12,
  kElementUInt64 = 13,
  kElementResource = 14,
  kElementVariant = 15,
  kElementUInt32 = 16,
  kElementUInt16 = 17,
  kElementInt4 = 18,
  kElementBFloat16 = 19,
};

// LiteRtTensorTypeId.
inline constexpr int kRankedTensorType = 0;

inline constexpr int kMaxRank = 8;
// LiteRtLayout, bit fields as LiteRT declares them.
struct Layout {
  unsigned int rank : 7;
  bool has_strides : 1;
  int32_t dimensions[kMaxRank];
  uint32_t strides[kMaxRank];
};
// Windows' ABI (MSVC's, which clang follows for Windows targets) gives each bit-field type its
// own storage unit: rank in 4 bytes, has_strides in the next, padded to 8.
#if defined(_WIN32)
static_assert(sizeof(Layout) == 72, "LiteRtLayout's size on this ABI");
#else
static_assert(sizeof(Layout) == 68, "LiteRtLayout's size on this ABI");
#endif

// LiteRtRankedTensorType.
struct RankedTensorType {
  ElementType element_type;
  Layout layout;
};

// A host-memory buffer's deallocator (LiteRtHostMemoryDeallocator).
using HostMemoryDeallocator = void (*)(void* address);

// One function pointer type per entry point, named as LiteRT names the function.
extern "C" {
using GetStatusStringFn = const char* (*)(Status status);
using CreateEnvironmentFn = Status (*)(int num_options, const void* options,
                                       Environment* environment);
using DestroyEnvironmentFn = void (*)(Environment environment);
using CreateModelFromBufferFn = Status (*)(const void* address, size_t size, Model* model);
using DestroyModelFn = void (*)(Model model);
using GetNumModelSignaturesFn = Status (*)(Model model, size_t* count);
using GetModelSignatureFn = Status (*)(Model model, size_t index, Signature* signature);
using GetSignatureKeyFn = Status (*)(Signature signature, const char** key);
using GetSignatureSubgraphFn = Status (*)(Signature signature, Subgraph* subgraph);
using GetNumSignatureInputsFn = Status (*)(Signature signature, size_t* count);
using GetSignatureInputNameFn = Status (*)(Signature signature, size_t index, const char** name);
using GetNumSignatureOutputsFn = Status (*)(Signature signature, size_t* count);
using GetSignatureOutputNameFn = Status (*)(Signature signature, size_t index, const char** name);
using GetSubgraphTensorFn = Status (*)(Subgraph subgraph, size_t index, Tensor* tensor);
using GetTensorTypeIdFn = Status (*)(Tensor tensor, int* type_id);
using GetRankedTensorTypeFn = Status (*)(Tensor tensor, RankedTensorType* type);
using CreateOptionsFn = Status (*)(Options* options);
using DestroyOptionsFn = void (*)(Options options);
using SetOptionsHardwareAcceleratorsFn = Status (*)(Options options, int accelerators);
using AddOpaqueOptionsFn = Status (*)(Options options, OpaqueOptions opaque);
using CreateCpuOptionsFn = Status (*)(OpaqueOptions* options);
using FindCpuOptionsFn = Status (*)(OpaqueOptions options, CpuOptions* cpu_options);
using SetCpuOptionsNumThreadFn = Status (*)(CpuOptions options, int num_threads);
using DestroyOpaqueOptionsFn = void (*)(OpaqueOptions options);
using CreateCompiledModelFn = Status (*)(Environment environment, Model model, Options options,
                                         CompiledModel* compiled_model);
using DestroyCompiledModelFn = void (*)(CompiledModel compiled_model);
using RunCompiledModelFn = Status (*)(CompiledModel compiled_model, size_t signature_index,
                                      size_t num_inputs, TensorBuffer* inputs,
                                      size_t num_outputs, TensorBuffer* outputs);
using CreateTensorBufferFromHostMemoryFn = Status (*)(const RankedTensorType* type, void* address,
                                                      size_t size,
                                                      HostMemoryDeallocator deallocator,
                                                      TensorBuffer* buffer);
using DestroyTensorBufferFn = void (*)(TensorBuffer buffer);
using GetDefaultLoggerFn = Logger (*)();
using SetMinLoggerSeverityFn = Status (*)(Logger logger, int8_t severity);
}

}  // namespace tfjni::litert_c
