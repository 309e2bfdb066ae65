#include "bench_manifest.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "npy.h"

namespace floor_bench {
namespace {

namespace fs = std::filesystem;

BenchCase parse_case(const nlohmann::json& json, const fs::path& dir) {
  BenchCase c;
  c.name = json.at("name").get<std::string>();
  c.model_dir = (dir / json.at("model").get<std::string>()).string();
  c.input_tensor = json.at("input_tensor").get<std::string>();
  c.output_tensor = json.at("output_tensor").get<std::string>();
  c.input_shape = json.at("input_shape").get<std::vector<int64_t>>();
  c.output_shape = json.at("output_shape").get<std::vector<int64_t>>();

  const std::string dtype = json.at("input_dtype").get<std::string>();
  if (dtype == "string") {
    c.string_input = true;
    c.input_strings = json.at("input_strings").get<std::vector<std::string>>();
    int64_t count = 1;
    for (int64_t dim : c.input_shape) count *= dim;
    if (count != static_cast<int64_t>(c.input_strings.size())) {
      throw std::runtime_error(c.name + ": input_strings do not fill input_shape");
    }
  } else if (dtype == "float32") {
    FloatArray input = read_npy_float32((dir / json.at("input_npy").get<std::string>()).string());
    if (input.shape != c.input_shape) throw std::runtime_error(c.name + ": input .npy shape differs from input_shape");
    c.input_floats = std::move(input.values);
  } else {
    throw std::runtime_error(c.name + ": unsupported input_dtype " + dtype);
  }

  FloatArray expected = read_npy_float32((dir / json.at("expected_npy").get<std::string>()).string());
  if (expected.shape != c.output_shape) throw std::runtime_error(c.name + ": expected .npy shape differs from output_shape");
  c.expected = std::move(expected.values);
  return c;
}

}  // namespace

std::vector<BenchCase> read_manifest(const std::string& path) {
  fs::path file = path;
  if (fs::is_directory(file)) file /= "bench_models.json";
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  nlohmann::json manifest;
  try {
    manifest = nlohmann::json::parse(in);
    std::vector<BenchCase> cases;
    for (const auto& json : manifest.at("cases")) cases.push_back(parse_case(json, file.parent_path()));
    return cases;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

const BenchCase& find_case(const std::vector<BenchCase>& cases, const std::string& name) {
  for (const BenchCase& c : cases) {
    if (c.name == name) return c;
  }
  throw std::invalid_argument("no case " + name + " in the manifest");
}

void check_against_python(const BenchCase& c, const float* got) {
  // Python ran with its own thread pools, which may sum in another order.
  for (size_t i = 0; i < c.expected.size(); ++i) {
    const float want = c.expected[i];
    if (!(std::fabs(got[i] - want) <= 1e-6f + 1e-4f * std::fabs(want))) {
      throw std::runtime_error(c.name + ": output[" + std::to_string(i) + "] = " + std::to_string(got[i]) +
                               ", TensorFlow Python gave " + std::to_string(want));
    }
  }
}

}  // namespace floor_bench
