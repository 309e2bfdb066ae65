// Shared helpers of the core tests: the generated models and their manifest
// (TensorFlow Python is the oracle), TENSOR json <-> tfjni::Tensor, error
// expectations, and a fixture that checks live native objects for leaks.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tfjni/tfjni.h"

namespace tfjni::test {

// Keeps the manifest's key order: a case feeds its inputs in that order.
using Json = nlohmann::ordered_json;

// ---- The models directory (TFJNI_TEST_MODELS) and manifest.json -------------
// Both throw std::runtime_error with instructions when TFJNI_TEST_MODELS is not
// set or holds no manifest, so a test that needs the models fails (never skips).
std::filesystem::path models_dir();
const Json& manifest();
Json load_manifest(const std::filesystem::path& file);

std::filesystem::path model_path(const std::string& model);
std::string model_kind(const std::string& model);  // "saved_model" | "graph_def"
std::vector<std::string> model_tags(const std::string& model);
// Names of the models of one kind, in manifest order.
std::vector<std::string> model_names(const std::string& kind);
std::unique_ptr<SavedModel> load_saved_model(const std::string& model,
                                             const SessionConfig& config = {});
// The manifest cases of one model.
std::vector<const Json*> cases_of(const std::string& model);
const Json& find_case(const std::string& name);

// ---- Encodings --------------------------------------------------------------
// Standard base64 with padding; decode throws std::invalid_argument on bad input.
std::string base64_decode(std::string_view text);
std::string base64_encode(std::string_view bytes);
// numpy-style dtype names of the manifest ("float32", "bfloat16", "string",
// "invalid", ...); throws std::invalid_argument for a name it does not know.
TF_DataType dtype_from_name(std::string_view name);
std::vector<int64_t> shape_of(const Json& tensor);
std::vector<std::string> keys_of(const Json& object);

// ---- Tensors ----------------------------------------------------------------
// A tensor holding a TENSOR json's values, and back.
Tensor tensor_from_json(const Json& tensor);
Json tensor_to_json(const Tensor& tensor);

enum class FloatMatch {
  kExact,     // bit-exact (identity, reverse, ...)
  kTolerant,  // float32/float64 within 1e-6 absolute + relative (results of computation)
};
// Same dtype, shape and values as the TENSOR json. Integers, bool, strings,
// 16-bit floats and complex are always compared bit for bit.
::testing::AssertionResult tensor_matches(const Tensor& actual, const Json& expected,
                                          FloatMatch floats = FloatMatch::kExact);
// Same dtype, shape and bytes (or strings).
::testing::AssertionResult tensors_equal(const Tensor& a, const Tensor& b);

// ---- Running manifest cases -------------------------------------------------
// Runs every call of a case, in order, on one freshly loaded model: saved_model
// cases through Runner::for_signature (inputs in manifest order, outputs by key),
// graph_def cases through GraphModel + Runner::for_tensors. Returns a failure
// naming the case, call and output that differ. The model gets `config`.
::testing::AssertionResult run_case(const Json& test_case, const SessionConfig& config = {});
// Cases of the dtypes model are identity/reverse: exact; others tolerant.
FloatMatch float_match_for(const Json& test_case);

// ---- Errors -----------------------------------------------------------------
// Success if `f` throws tfjni::Error with `code` and a message containing every
// one of `fragments`.
::testing::AssertionResult throws_error(const std::function<void()>& f, TF_Code code,
                                        std::initializer_list<std::string_view> fragments = {});

// ---- Files ------------------------------------------------------------------
// A fresh directory under the system temp dir, removed with its content.
class TempDir {
 public:
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

std::string read_file(const std::filesystem::path& file);
void write_file(const std::filesystem::path& file, std::string_view bytes);

// ---- Leak checking ----------------------------------------------------------
// Base fixture: every test must leave live_objects() as it found it.
class LeakCheckedTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

 private:
  LiveCounts baseline_;
};

::testing::AssertionResult same_live_counts(const LiveCounts& expected, const LiveCounts& actual);

}  // namespace tfjni::test
