// The C++ floor: the benchmark models run through TensorFlow's C API directly,
// with the thread pools the Java contenders use. A call does what each Java
// contender's call does: run, copy the whole output into a buffer made once,
// free the output tensor. Per case: latency per call (p50, p99) at 1 thread
// and calls/s at 1, 2 and 4 threads sharing one session; or, with --rss, the
// process RSS after a number of calls. scripts/bench.sh drives it.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <tensorflow/c/c_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench_main.h"
#include "bench_manifest.h"
#include "c_api_model.h"
#include "floor_call.h"
#include "latency_samples.h"

namespace floor_bench {
namespace {

constexpr const char* kUsage = R"(Usage:
  model_floor_bench [--models=PATH] [--cases=a,b] [--threads=1,2,4] [--latency_time=S]
                    [--throughput_time=S] [--warmup_time=S] [Google Benchmark flags]
  model_floor_bench [--models=PATH] --rss=CASE [--rss_calls=10000,1000000]

  --models           bench_models.json or its directory (default: $TFJNI_BENCH_MODELS)
  --cases            cases to run (default: all in the manifest)
  --threads          caller threads sharing one session (default 1,2,4)
  --latency_time     minimum measured seconds at 1 thread (default 5)
  --throughput_time  minimum measured seconds at more threads (default 2)
  --warmup_time      seconds run before each measurement (default 1)
  --intra_op_threads, --inter_op_threads   TensorFlow's pools (default 2 and 2; inter-op -1
                     runs every op on the calling thread)
  --rss              print VmRSS after each --rss_calls count of calls, as JSON lines
Counters: p50_us, p99_us, mean_us per call; calls; calls_per_s over all threads.
)";

struct Options {
  std::string models;
  std::vector<std::string> cases;
  std::vector<int> threads{1, 2, 4};
  double latency_time = 5, throughput_time = 2, warmup_time = 1;
  int intra_op_threads = 2, inter_op_threads = 2;
  std::string rss_case;
  std::vector<long> rss_calls{10000, 1000000};
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

template <typename T>
std::vector<T> split_numbers(const std::string& list) {
  std::vector<T> numbers;
  for (const std::string& item : split(list)) {
    numbers.push_back(static_cast<T>(std::stol(item)));
    if (numbers.back() <= 0) throw std::invalid_argument("not a positive number: " + item);
  }
  return numbers;
}

// Takes our flags out of argv; the rest is left for Google Benchmark.
Options parse_options(int& argc, char** argv) {
  Options o;
  if (const char* env = std::getenv("TFJNI_BENCH_MODELS")) o.models = env;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq), value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (name == "--models") o.models = value;
    else if (name == "--cases") o.cases = split(value);
    else if (name == "--threads") o.threads = split_numbers<int>(value);
    else if (name == "--latency_time") o.latency_time = std::stod(value);
    else if (name == "--throughput_time") o.throughput_time = std::stod(value);
    else if (name == "--warmup_time") o.warmup_time = std::stod(value);
    else if (name == "--intra_op_threads") o.intra_op_threads = std::stoi(value);
    else if (name == "--inter_op_threads") o.inter_op_threads = std::stoi(value);
    else if (name == "--rss") o.rss_case = value;
    else if (name == "--rss_calls") o.rss_calls = split_numbers<long>(value);
    else {
      if (name == "--help") std::cout << kUsage << "\nGoogle Benchmark's flags:\n";
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return o;
}

// Any failed call fails the whole program, not only its line of the report.
std::atomic<bool> run_failed{false};

struct LoadedCase {
  LoadedCase(const BenchCase& c, const Options& o) : bench_case(c), model(c, o.intra_op_threads, o.inter_op_threads) {}

  const BenchCase& bench_case;
  CApiModel model;
  LatencySamples samples;
};

void time_calls(benchmark::State& state, LoadedCase& loaded) {
  if (state.thread_index() == 0) loaded.samples.reset();
  const CApiModel& model = loaded.model;
  TensorPtr input = model.make_input();  // one per thread, as each Java thread has its own
  TF_Tensor* const input_value = input.get();
  std::vector<float> output(loaded.bench_case.expected.size());
  StatusPtr status(TF_NewStatus());
  std::vector<double> samples_us;
  samples_us.reserve(1 << 16);
  using Clock = std::chrono::steady_clock;
  Clock::time_point first{}, last{};

  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    if (!floor_call(model, input_value, output, status.get())) {
      run_failed = true;
      state.SkipWithError(TF_Message(status.get()));
      break;
    }
    last = Clock::now();
    if (samples_us.empty()) first = start;
    samples_us.push_back(std::chrono::duration<double, std::micro>(last - start).count());
  }
  state.SetLabel(loaded.bench_case.name);
  loaded.samples.add(state, samples_us, std::chrono::duration<double>(last - first).count());
}

std::unique_ptr<LoadedCase> load(const BenchCase& c, const Options& o) {
  const auto start = std::chrono::steady_clock::now();
  auto loaded = std::make_unique<LoadedCase>(c, o);
  loaded->model.check_output();
  std::cerr << "loaded " << c.name << " and checked its output against TensorFlow Python's in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s\n";
  return loaded;
}

long vm_rss_kb() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// Same JSON lines as the Java RSS probe (scripts/bench/bench-java.sh rss), which
// has a Java heap and GCs where we have only malloc.
int probe_rss(const std::vector<BenchCase>& cases, const Options& o) {
  std::unique_ptr<LoadedCase> loaded = load(find_case(cases, o.rss_case), o);
  TensorPtr input = loaded->model.make_input();
  TF_Tensor* const input_value = input.get();
  std::vector<float> output(loaded->bench_case.expected.size());
  StatusPtr status(TF_NewStatus());
  long calls = 0;
  for (long checkpoint : o.rss_calls) {
    for (; calls < checkpoint; ++calls) {
      if (!floor_call(loaded->model, input_value, output, status.get())) {
        throw std::runtime_error(TF_Message(status.get()));
      }
    }
    const struct mallinfo2 heap = mallinfo2();
    nlohmann::ordered_json line = {{"contender", "c_api"},
                                   {"case", o.rss_case},
                                   {"calls", calls},
                                   {"rss_kb", vm_rss_kb()},
                                   {"heap_used_bytes", nullptr},
                                   {"gc_count", nullptr},
                                   {"malloc_used_bytes", heap.uordblks + heap.hblkhd}};
    std::cout << line.dump() << std::endl;
  }
  return 0;
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (o.models.empty()) throw std::invalid_argument("no models: pass --models=PATH or set TFJNI_BENCH_MODELS");
  const std::vector<BenchCase> cases = read_manifest(o.models);
  if (!o.rss_case.empty()) return probe_rss(cases, o);

  std::vector<std::unique_ptr<LoadedCase>> loaded;
  std::vector<std::string> names = o.cases;
  if (names.empty()) {
    for (const BenchCase& c : cases) names.push_back(c.name);
  }
  for (const std::string& name : names) {
    LoadedCase* l = loaded.emplace_back(load(find_case(cases, name), o)).get();
    for (int threads : o.threads) {
      benchmark::RegisterBenchmark(("c_api/" + name).c_str(),
                                   [l](benchmark::State& state) { time_calls(state, *l); })
          ->Threads(threads)
          ->UseRealTime()
          ->MinTime(threads == 1 ? o.latency_time : o.throughput_time)
          ->MinWarmUpTime(o.warmup_time);
    }
  }
  benchmark::AddCustomContext("tensorflow", TF_Version());
  benchmark::AddCustomContext("intra_op_threads", std::to_string(o.intra_op_threads));
  benchmark::AddCustomContext("inter_op_threads", std::to_string(o.inter_op_threads));
  benchmark::AddCustomContext("models", o.models);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return run_failed ? 1 : 0;
}

}  // namespace
}  // namespace floor_bench

int main(int argc, char** argv) {
  return tfjni::bench::run_reporting_errors("model_floor_bench", argc, argv, floor_bench::run);
}
