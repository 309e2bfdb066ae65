// The benchmark cases of bench_models.json (scripts/bench/generate_bench_models.py),
// with their input data and expected outputs read into memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace floor_bench {

struct BenchCase {
  std::string name;
  std::string model_dir;      // absolute or relative to the working directory
  std::string input_tensor;   // graph tensor name, e.g. "serving_default_x:0"
  std::string output_tensor;  // e.g. "StatefulPartitionedCall:0"
  bool string_input = false;
  std::vector<int64_t> input_shape;
  std::vector<float> input_floats;         // when !string_input
  std::vector<std::string> input_strings;  // when string_input
  std::vector<int64_t> output_shape;
  std::vector<float> expected;  // TensorFlow Python's output for this input
};

// `path` is bench_models.json or the directory holding it. Throws
// std::runtime_error on anything missing or malformed.
std::vector<BenchCase> read_manifest(const std::string& path);

// The case named `name`; throws std::invalid_argument if there is none.
const BenchCase& find_case(const std::vector<BenchCase>& cases, const std::string& name);

// Throws std::runtime_error unless `got` (the case's output, expected.size()
// values) matches TensorFlow Python's within a float summation-order tolerance.
void check_against_python(const BenchCase& c, const float* got);

}  // namespace floor_bench
