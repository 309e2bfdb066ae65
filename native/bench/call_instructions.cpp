// Machine instructions per model call, counted by callgrind rather than timed,
// so that the count does not depend on what else the shared machine is doing.
// One contender per process: the C API floor (floor_call.h, the same call as
// model_floor_bench's) or tfjni's C++ core (Runner::run, the call under
// io.tfjni.Predictor). Each runs --warmup calls, then zeroes callgrind's
// counters, makes --calls calls and dumps the counters (every thread's, as
// TensorFlow's pools do part of the work), so loading and warm-up are left out.
// The Java contenders are counted the same way by io.tfjni.bench.CallLoop.
#include <tensorflow/c/c_api.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bench_main.h"
#include "bench_manifest.h"
#include "c_api_model.h"
#include "floor_call.h"
#include "tfjni/runner.h"
#include "tfjni/saved_model.h"
#include "tfjni/tensor.h"

namespace floor_bench {
namespace {

constexpr const char* kUsage = R"(Usage:
  call_instructions --models=PATH --case=NAME --contender=c_api|core [--calls=N] [--warmup=N]
                    [--inter_op_threads=N]

Runs --warmup calls (default 100), then --calls calls (default 1000) between
callgrind client requests that zero and then dump the counters ("measured").
Run it under valgrind --tool=callgrind and divide the dump's instruction count
by --calls: scripts/bench/bench-instructions.sh does. Outside valgrind it only runs.
Both contenders use an intra_op pool of 2 threads and --inter_op_threads inter-op
threads (default 2, as the benchmarks' pooled configuration; -1 runs every op on the
calling thread, their caller-thread configuration).
)";

constexpr int kIntraOpThreads = 2;

struct Options {
  std::string models, case_name, contender;
  long calls = 1000, warmup = 100;
  int inter_op_threads = 2;
};

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq), value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (name == "--models") o.models = value;
    else if (name == "--case") o.case_name = value;
    else if (name == "--contender") o.contender = value;
    else if (name == "--calls") o.calls = std::stol(value);
    else if (name == "--warmup") o.warmup = std::stol(value);
    else if (name == "--inter_op_threads") o.inter_op_threads = std::stoi(value);
    else if (name == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument " + arg + "\n" + kUsage);
    }
  }
  if (o.models.empty() || o.case_name.empty()) throw std::invalid_argument(std::string("--models and --case are needed\n") + kUsage);
  if (o.calls <= 0 || o.warmup < 0) throw std::invalid_argument("--calls must be positive, --warmup not negative");
  return o;
}

// One call of each contender: run, copy the output into `into`, free what the
// run returned (the core frees the previous output at the start of the next run,
// as Predictor does).
struct CApiCall {
  CApiCall(const BenchCase& c, const Options& o)
      : model(c, kIntraOpThreads, o.inter_op_threads), input(model.make_input()) {}

  void operator()(std::vector<float>& into) {
    if (!floor_call(model, input.get(), into, status.get())) throw std::runtime_error(TF_Message(status.get()));
  }

  CApiModel model;
  TensorPtr input;
  StatusPtr status{TF_NewStatus()};
};

tfjni::Tensor core_input(const BenchCase& c) {
  if (!c.string_input) {
    return tfjni::Tensor::copy_of(TF_FLOAT, c.input_shape, c.input_floats.data(), c.input_floats.size() * sizeof(float));
  }
  std::vector<std::string_view> values(c.input_strings.begin(), c.input_strings.end());
  return tfjni::Tensor::strings(c.input_shape, values);
}

struct CoreCall {
  CoreCall(const BenchCase& c, const Options& o)
      : model(load(c.model_dir, o.inter_op_threads)),
        runner(tfjni::Runner::for_tensors(model->session(), std::vector<std::string>{c.input_tensor},
                                          std::vector<std::string>{c.output_tensor})),
        input(core_input(c)) {}

  static std::unique_ptr<tfjni::SavedModel> load(const std::string& dir, int inter_op_threads) {
    tfjni::SessionConfig config;
    config.intra_op_threads = kIntraOpThreads;
    config.inter_op_threads = inter_op_threads;
    const std::string tags[] = {"serve"};
    return tfjni::SavedModel::load(dir, tags, config);
  }

  void operator()(std::vector<float>& into) {
    const tfjni::Tensor* inputs[] = {&input};
    runner->run(inputs, result);
    const tfjni::Tensor& output = *result[0];
    std::memcpy(into.data(), output.data(), std::min(output.byte_size(), into.size() * sizeof(float)));
  }

  std::unique_ptr<tfjni::SavedModel> model;
  std::unique_ptr<tfjni::Runner> runner;
  tfjni::Tensor input;
  std::optional<tfjni::Tensor> result[1];
};

template <typename Call>
void run_contender(const BenchCase& c, const Options& o) {
  Call call(c, o);
  std::vector<float> output(c.expected.size());
  for (long i = 0; i < o.warmup; ++i) call(output);
  CALLGRIND_ZERO_STATS;
  for (long i = 0; i < o.calls; ++i) call(output);
  CALLGRIND_DUMP_STATS_AT("measured");
  check_against_python(c, output.data());
  std::cout << "{\"contender\": \"" << o.contender << "\", \"case\": \"" << c.name << "\", \"calls\": " << o.calls
            << ", \"inter_op_threads\": " << o.inter_op_threads << "}" << std::endl;
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const std::vector<BenchCase> cases = read_manifest(o.models);
  const BenchCase& found = find_case(cases, o.case_name);
  if (o.contender == "c_api") run_contender<CApiCall>(found, o);
  else if (o.contender == "core") run_contender<CoreCall>(found, o);
  else throw std::invalid_argument("--contender must be c_api or core, not '" + o.contender + "'");
  return 0;
}

}  // namespace
}  // namespace floor_bench

int main(int argc, char** argv) {
  return tfjni::bench::run_reporting_errors("call_instructions", argc, argv, floor_bench::run);
}
