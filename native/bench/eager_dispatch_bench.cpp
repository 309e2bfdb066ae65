// The cost of dispatching one small eager op (Add of two 1-element float
// tensors): through the tfjni core, and through the raw C API as the floor.
// Java's side of the comparison is io.tfjni.bench.EagerBench; scripts/bench.sh runs both.
#include <benchmark/benchmark.h>
#include <tensorflow/c/eager/c_api.h>

#include <vector>

#include "eager_add.h"
#include "tfjni/eager.h"
#include "tfjni/error.h"

namespace {

using tfjni::bench::one_element;

// The thread pools every contender of scripts/bench.sh uses (the Java ones too).
tfjni::ContextConfig bench_config() {
  tfjni::ContextConfig config;
  config.session.intra_op_threads = 2;
  config.session.inter_op_threads = 2;
  return config;
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
    TFE_TensorHandle* sum = tfjni::bench::c_api_add(context.get(), a.get(), b.get(), status);
    if (sum == nullptr) {
      state.SkipWithError(TF_Message(status));
      break;
    }
    TFE_DeleteTensorHandle(sum);
  }
  TF_DeleteStatus(status);
}
BENCHMARK(BM_CApiAdd);

}  // namespace

BENCHMARK_MAIN();
