#include "tfjni/dtype.h"

#include <iterator>
#include <string>

namespace tfjni {
namespace {

struct DtypeInfo {
  const char* name;
  size_t size;
};

// Indexed by TF_DataType code, as in TensorFlow 2.21's tf_datatype.h and types.proto. Names are
// types.proto's without "DT_"; sizes are bytes per element (0 = variable size), as
// TF_DataTypeSize reports them. The 4- and 2-bit integers and float4 take one byte per element:
// TensorFlow does not pack them.
constexpr DtypeInfo kDtypes[] = {
    {nullptr, 0},                  // 0: DT_INVALID, no tensor has it
    {"FLOAT", 4},                  // 1
    {"DOUBLE", 8},                 // 2
    {"INT32", 4},                  // 3
    {"UINT8", 1},                  // 4
    {"INT16", 2},                  // 5
    {"INT8", 1},                   // 6
    {"STRING", 0},                 // 7
    {"COMPLEX64", 8},              // 8
    {"INT64", 8},                  // 9
    {"BOOL", 1},                   // 10
    {"QINT8", 1},                  // 11
    {"QUINT8", 1},                 // 12
    {"QINT32", 4},                 // 13
    {"BFLOAT16", 2},               // 14
    {"QINT16", 2},                 // 15
    {"QUINT16", 2},                // 16
    {"UINT16", 2},                 // 17
    {"COMPLEX128", 16},            // 18
    {"HALF", 2},                   // 19
    {"RESOURCE", 0},               // 20
    {"VARIANT", 0},                // 21
    {"UINT32", 4},                 // 22
    {"UINT64", 8},                 // 23
    {"FLOAT8_E5M2", 1},            // 24
    {"FLOAT8_E4M3FN", 1},          // 25
    {"FLOAT8_E4M3FNUZ", 1},        // 26
    {"FLOAT8_E4M3B11FNUZ", 1},     // 27
    {"FLOAT8_E5M2FNUZ", 1},        // 28
    {"INT4", 1},                   // 29
    {"UINT4", 1},                  // 30
    {"INT2", 1},                   // 31
    {"UINT2", 1},                  // 32
    {"FLOAT4_E2M1FN", 1},          // 33
};

DtypeInfo info(int code) noexcept {
  if (code < 0 || code >= static_cast<int>(std::size(kDtypes))) return {nullptr, 0};
  return kDtypes[code];
}

}  // namespace

size_t dtype_size(int dtype) noexcept { return info(dtype).size; }

std::string dtype_name(int dtype) {
  const char* name = info(dtype).name;
  return name != nullptr ? name : "DTYPE_" + std::to_string(dtype);
}

bool is_known_dtype(int code) noexcept { return info(code).name != nullptr; }

}  // namespace tfjni
