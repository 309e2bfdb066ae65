// The eager op both eager benchmarks time or count: AddV2 of two 1-element
// float tensors, through TensorFlow's C API alone (the floor tfjni's eager
// dispatch is compared with) and the inputs it adds.
#pragma once

#include <tensorflow/c/eager/c_api.h>

#include <cstdint>

#include "tfjni/eager.h"

namespace tfjni::bench {

inline TensorHandle one_element(float value) {
  int64_t dims[] = {1};
  return TensorHandle::from_tensor(Tensor::copy_of(TF_FLOAT, dims, &value, sizeof value));
}

// TFE_NewOp, two inputs, TFE_Execute, TFE_DeleteOp. Returns the sum's handle
// (the caller deletes it), or null with `status` set.
inline TFE_TensorHandle* c_api_add(TFE_Context* context, TFE_TensorHandle* a, TFE_TensorHandle* b,
                                   TF_Status* status) {
  TFE_Op* op = TFE_NewOp(context, "AddV2", status);
  if (TF_GetCode(status) != TF_OK) return nullptr;
  TFE_OpAddInput(op, a, status);
  TFE_OpAddInput(op, b, status);
  TFE_TensorHandle* out[1] = {nullptr};
  int n = 1;
  TFE_Execute(op, out, &n, status);
  TFE_DeleteOp(op);
  return TF_GetCode(status) == TF_OK ? out[0] : nullptr;
}

}  // namespace tfjni::bench
