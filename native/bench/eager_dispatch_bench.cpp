// The cost of dispatching one small eager op (Add of two 1-element float
// tensors): through the tfjni core, and through the raw C API as the floor.
// Java's side of the comparison is scripts/bench-eager-dispatch.sh.
#include <benchmark/benchmark.h>
#include <tensorflow/c/eager/c_api.h>

#include <vector>

#include "tfjni/eager.h"
#include "tfjni/error.h"

namespace {

// The thread pools every contender of scripts/bench.sh uses (the Java ones too).
tfjni::ContextConfig bench_config() {
  tfjni::ContextConfig config;
  config.session.intra_op_threads = 2;
  config.session.inter_op_threads = 2;
  return config;
}

tfjni::TensorHandle one_element(float value) {
  int64_t dims[] = {1};
  tfjni::Tensor t = tfjni::Tensor::copy_of(TF_FLOAT, dims, &value, sizeof value);
  return tfjni::TensorHandle::from_tensor(t);
}

void BM_CoreAdd(benchmark::State& state) {
  tfjni::Context context(bench_config());
  tfjni::TensorHandle a = one_element(1), b = one_element(2);
  for (auto _ : state) {
    tfjni::Op op(context, "AddV2");
    op.input(a).input(b);
    std::vector<tfjni::TensorHandle> out = op.execute();
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_CoreAdd);

void BM_CApiAdd(benchmark::State& state) {
  tfjni::Context context(bench_config());
  tfjni::TensorHandle a = one_element(1), b = one_element(2);
  TF_Status* status = TF_NewStatus();
  for (auto _ : state) {
    TFE_Op* op = TFE_NewOp(context.get(), "AddV2", status);
    TFE_OpAddInput(op, a.get(), status);
    TFE_OpAddInput(op, b.get(), status);
    TFE_TensorHandle* out[1] = {nullptr};
    int n = 1;
    TFE_Execute(op, out, &n, status);
    TFE_DeleteOp(op);
    if (TF_GetCode(status) != TF_OK) {
      state.SkipWithError(TF_Message(status));
      break;
    }
    TFE_DeleteTensorHandle(out[0]);
  }
  TF_DeleteStatus(status);
}
BENCHMARK(BM_CApiAdd);

}  // namespace

BENCHMARK_MAIN();
