// Per-call latency samples of one Google Benchmark run, merged across its
// threads, so the run reports exact per-call percentiles and total calls/s.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

namespace floor_bench {

class LatencySamples {
 public:
  // Call from thread 0 before the timed loop (every thread passes a barrier
  // when the loop starts, so no thread of this run has added samples yet).
  void reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    samples_us_.clear();
    finished_threads_ = 0;
    longest_wall_s_ = 0;
  }

  // Call from every thread after its timed loop. The last thread to finish
  // sets the counters; Google Benchmark sums counters over threads, and the
  // others set none, so the sums are the merged values.
  void add(benchmark::State& state, const std::vector<double>& thread_samples_us, double wall_s) {
    std::lock_guard<std::mutex> lock(mutex_);
    samples_us_.insert(samples_us_.end(), thread_samples_us.begin(), thread_samples_us.end());
    longest_wall_s_ = std::max(longest_wall_s_, wall_s);
    if (++finished_threads_ < state.threads() || samples_us_.empty()) return;
    std::sort(samples_us_.begin(), samples_us_.end());
    double sum = 0;
    for (double s : samples_us_) sum += s;
    state.counters["p50_us"] = percentile(0.50);
    state.counters["p99_us"] = percentile(0.99);
    state.counters["mean_us"] = sum / static_cast<double>(samples_us_.size());
    state.counters["calls"] = static_cast<double>(samples_us_.size());
    state.counters["calls_per_s"] = static_cast<double>(samples_us_.size()) / longest_wall_s_;
  }

 private:
  // Linear interpolation between closest ranks (numpy's default).
  double percentile(double q) const {
    const double rank = q * static_cast<double>(samples_us_.size() - 1);
    const auto low = static_cast<size_t>(std::floor(rank));
    const size_t high = std::min(low + 1, samples_us_.size() - 1);
    return samples_us_[low] + (rank - static_cast<double>(low)) * (samples_us_[high] - samples_us_[low]);
  }

  std::mutex mutex_;
  std::vector<double> samples_us_;
  int finished_threads_ = 0;
  double longest_wall_s_ = 0;
};

}  // namespace floor_bench
