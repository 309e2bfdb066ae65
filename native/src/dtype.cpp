#include "tfjni/dtype.h"

#include <string>

namespace tfjni {
namespace {

struct DtypeInfo {
  const char* name;
  size_t size;
};

// Indexed by TF_DataType; names as in types.proto, sizes in bytes (0 = variable).
DtypeInfo info(int code) noexcept {
  switch (code) {
    case TF_FLOAT: return {"FLOAT", 4};
    case TF_DOUBLE: return {"DOUBLE", 8};
    case TF_INT32: return {"INT32", 4};
    case TF_UINT8: return {"UINT8", 1};
    case TF_INT16: return {"INT16", 2};
    case TF_INT8: return {"INT8", 1};
    case TF_STRING: return {"STRING", 0};
    case TF_COMPLEX64: return {"COMPLEX64", 8};
    case TF_INT64: return {"INT64", 8};
    case TF_BOOL: return {"BOOL", 1};
    case TF_QINT8: return {"QINT8", 1};
    case TF_QUINT8: return {"QUINT8", 1};
    case TF_QINT32: return {"QINT32", 4};
    case TF_BFLOAT16: return {"BFLOAT16", 2};
    case TF_QINT16: return {"QINT16", 2};
    case TF_QUINT16: return {"QUINT16", 2};
    case TF_UINT16: return {"UINT16", 2};
    case TF_COMPLEX128: return {"COMPLEX128", 16};
    case TF_HALF: return {"HALF", 2};
    case TF_RESOURCE: return {"RESOURCE", 0};
    case TF_VARIANT: return {"VARIANT", 0};
    case TF_UINT32: return {"UINT32", 4};
    case TF_UINT64: return {"UINT64", 8};
    case 24: return {"FLOAT8_E5M2", 1};
    case 25: return {"FLOAT8_E4M3FN", 1};
    case 29: return {"INT4", 1};
    case 30: return {"UINT4", 1};
    default: return {nullptr, 0};
  }
}

}  // namespace

size_t dtype_size(TF_DataType dtype) noexcept { return info(dtype).size; }

std::string dtype_name(TF_DataType dtype) {
  const char* name = info(dtype).name;
  return name != nullptr ? name : "DTYPE_" + std::to_string(static_cast<int>(dtype));
}

bool is_known_dtype(int code) noexcept { return info(code).name != nullptr; }

}  // namespace tfjni
