// One call of the C API floor, the same in every program that measures it
// (model_floor_bench, call_instructions, floor_loop_jni): run the model, copy
// the whole output into a buffer made once, free the output tensor. That is
// what each Java contender's call does, without any binding's own code.
#pragma once

#include <tensorflow/c/c_api.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "c_api_model.h"

namespace floor_bench {

// `into` has room for the output (checked once by CApiModel::check_output()).
// Returns false, with the error in `status`, if the run failed.
inline bool floor_call(const CApiModel& model, TF_Tensor* const& input, std::vector<float>& into, TF_Status* status) {
  TF_Tensor* output = nullptr;
  TF_SessionRun(model.session(), nullptr, &model.input(), &input, 1, &model.output(), &output, 1, nullptr, 0, nullptr,
                status);
  if (TF_GetCode(status) != TF_OK) return false;
  std::memcpy(into.data(), TF_TensorData(output), std::min(TF_TensorByteSize(output), into.size() * sizeof(float)));
  TF_DeleteTensor(output);
  return true;
}

}  // namespace floor_bench
