// Machine instructions per eager AddV2 (two 1-element float tensors, result
// freed) through the tfjni core, counted by callgrind on the calling thread,
// for the eager context settings a pre- or post-processing pipeline may run on:
//   shared   ContextConfig{}: what io.tfjni.eager.EagerContext.shared() creates
//            (TensorFlow's thread defaults, synchronous)
//   pooled   intra-op 2, inter-op 2, synchronous: what make bench's eager
//            contenders use
//   caller   intra-op 2, inter-op -1 (kCallerThread), synchronous
// --contender=c_api counts the same op through TensorFlow's C API alone
// (TFE_NewOp, two inputs, TFE_Execute, TFE_DeleteOp, resolve, free: the floor
// of eager_dispatch_bench) on the same tfjni-made context; core (the default)
// through tfjni::Op. The Java side is io.tfjni.bench.EagerCallLoop.
// A synchronous context runs each op on the thread that executes it, so the
// calling thread's count is the whole op. Run under
//   valgrind --tool=callgrind --separate-threads=yes eager_instructions --context=NAME
// and divide the "measured" dump's count by --ops; outside valgrind it only runs.
#include <tensorflow/c/eager/c_api.h>
#include <valgrind/callgrind.h>

#include <iostream>
#include <string>
#include <vector>

#include "bench_main.h"
#include "eager_add.h"
#include "tfjni/eager.h"
#include "tfjni/error.h"

namespace {

using tfjni::bench::one_element;

tfjni::ContextConfig config_named(const std::string& name) {
  tfjni::ContextConfig config;
  if (name == "shared") return config;
  config.session.intra_op_threads = 2;
  if (name == "pooled") config.session.inter_op_threads = 2;
  else if (name == "caller") config.session.inter_op_threads = tfjni::kCallerThread;
  else throw std::invalid_argument("--context must be shared, pooled or caller, not '" + name + "'");
  return config;
}

int run(int argc, char** argv) {
  std::string context_name = "shared", contender = "core";
  long ops = 2000, warmup = 200;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq), value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (name == "--context") context_name = value;
    else if (name == "--contender") contender = value;
    else if (name == "--ops") ops = std::stol(value);
    else if (name == "--warmup") warmup = std::stol(value);
    else throw std::invalid_argument("usage: eager_instructions [--context=shared|pooled|caller] [--contender=core|c_api] [--ops=N] "
                                  "[--warmup=N]");
  }
  tfjni::Context context(config_named(context_name));
  tfjni::TensorHandle a = one_element(1), b = one_element(2);
  float sum = 0;
  TF_Status* status = TF_NewStatus();
  auto core_add = [&] {
    std::vector<tfjni::TensorHandle> out = tfjni::Op(context, "AddV2").input(a).input(b).execute();
    sum += *static_cast<const float*>(out.at(0).resolve().data());
  };
  auto c_api_add = [&] {
    TFE_TensorHandle* out = tfjni::bench::c_api_add(context.get(), a.get(), b.get(), status);
    if (out == nullptr) throw std::runtime_error(TF_Message(status));
    TF_Tensor* t = TFE_TensorHandleResolve(out, status);
    sum += *static_cast<const float*>(TF_TensorData(t));
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(out);
  };
  if (contender != "core" && contender != "c_api") throw std::invalid_argument("--contender must be core or c_api");
  auto add = [&] {
    if (contender == "core") core_add();
    else c_api_add();
  };
  for (long i = 0; i < warmup; ++i) add();
  CALLGRIND_ZERO_STATS;
  for (long i = 0; i < ops; ++i) add();
  CALLGRIND_DUMP_STATS_AT("measured");
  if (sum != 3.0f * static_cast<float>(warmup + ops)) throw std::runtime_error("AddV2 gave a wrong sum");
  TF_DeleteStatus(status);
  std::cout << "{\"context\": \"" << context_name << "\", \"contender\": \"" << contender << "\", \"ops\": " << ops
            << "}" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return tfjni::bench::run_reporting_errors("eager_instructions", argc, argv, run);
}
