#include "test_data.h"


#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace tfjni::test {
namespace fs = std::filesystem;

// ---- The models directory and manifest.json --------------------------------

fs::path models_dir() {
  const char* env = std::getenv("TFJNI_TEST_MODELS");
  if (env == nullptr || *env == '\0') {
    throw std::runtime_error(
        "TFJNI_TEST_MODELS is not set, but this test needs the generated test models. Run "
        "`~/.cache/tfjni/venv-2.18.0/bin/python scripts/goldens/generate_models.py DIR` and set "
        "TFJNI_TEST_MODELS=DIR");
  }
  fs::path dir(env);
  std::error_code ec;
  if (!fs::is_regular_file(dir / "manifest.json", ec)) {
    throw std::runtime_error("TFJNI_TEST_MODELS=" + dir.string() +
                             " holds no manifest.json; regenerate it with "
                             "scripts/goldens/generate_models.py");
  }
  return dir;
}

Json load_manifest(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {
    throw std::runtime_error("cannot parse " + file.string() + ": " + e.what());
  }
}

// Expected values hold only under the oneDNN setting they were computed with (oneDNN's and
// Eigen's kernels differ in the last bits): a process whose TF_ENABLE_ONEDNN_OPTS differs from
// the generator's is refused, naming both.
Json load_manifest_for_this_process() {
  Json parsed = load_manifest(models_dir() / "manifest.json");
  constexpr const char* kVariable = "TF_ENABLE_ONEDNN_OPTS";
  const Json& made = parsed.value("onednn", Json::object()).value(kVariable, Json());
  const std::string made_with = made.is_string() ? made.get<std::string>() : "(unset)";
  const char* env = std::getenv(kVariable);
  const std::string run_with = env == nullptr ? "(unset)" : env;
  if (made_with != run_with) {
    throw std::runtime_error("the test models were made with " + std::string(kVariable) + "=" +
                             made_with + ", this process runs with " + run_with +
                             ": run the tests under the models' setting (scripts/common.sh "
                             "exports it) or generate models for this one");
  }
  return parsed;
}

const Json& manifest() {
  static const Json parsed = load_manifest_for_this_process();
  return parsed;
}

namespace {

const Json& model_entry(const std::string& model) {
  const Json& models = manifest().at("models");
  auto it = models.find(model);
  if (it == models.end()) throw std::runtime_error("manifest.json has no model '" + model + "'");
  return *it;
}

}  // namespace

fs::path model_path(const std::string& model) {
  return models_dir() / model_entry(model).at("path").get<std::string>();
}

std::string model_kind(const std::string& model) {
  return model_entry(model).at("kind").get<std::string>();
}

std::vector<std::string> model_tags(const std::string& model) {
  return model_entry(model).at("tags").get<std::vector<std::string>>();
}

std::vector<std::string> model_names(const std::string& kind) {
  std::vector<std::string> names;
  for (const auto& [name, entry] : manifest().at("models").items()) {
    if (entry.at("kind") == kind) names.push_back(name);
  }
  return names;
}

std::unique_ptr<SavedModel> load_saved_model(const std::string& model, const SessionConfig& config) {
  // A model whose ops live in op libraries (text_ops) needs them loaded first; loading is
  // idempotent, so every load may ask.
  const Json& entry = model_entry(model);
  if (entry.contains("op_library_dir")) load_op_libraries_of(entry.at("op_library_dir").get<std::string>());
  return SavedModel::load(model_path(model).string(), model_tags(model), config);
}

std::vector<const Json*> cases_of(const std::string& model) {
  std::vector<const Json*> cases;
  for (const Json& c : manifest().at("cases")) {
    if (c.at("model") == model) cases.push_back(&c);
  }
  return cases;
}

const Json& find_case(const std::string& name) {
  for (const Json& c : manifest().at("cases")) {
    if (c.at("name") == name) return c;
  }
  throw std::runtime_error("manifest.json has no case '" + name + "'");
}

// ---- Encodings --------------------------------------------------------------

std::string base64_decode(std::string_view text) {
  auto value_of = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  if (text.size() % 4 != 0) throw std::invalid_argument("base64 length is not a multiple of 4");
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    size_t padding = 0;
    if (last && text[i + 3] == '=') padding = text[i + 2] == '=' ? 2 : 1;
    uint32_t group = 0;
    for (size_t j = 0; j < 4; ++j) {
      int v = j < 4 - padding ? value_of(text[i + j]) : 0;
      if (v < 0) throw std::invalid_argument("invalid base64 character at " + std::to_string(i + j));
      group = (group << 6) | static_cast<uint32_t>(v);
    }
    out.push_back(static_cast<char>((group >> 16) & 0xff));
    if (padding < 2) out.push_back(static_cast<char>((group >> 8) & 0xff));
    if (padding < 1) out.push_back(static_cast<char>(group & 0xff));
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t group = 0;
    for (size_t j = 0; j < 3; ++j) {
      group = (group << 8) | (j < n ? static_cast<unsigned char>(bytes[i + j]) : 0u);
    }
    for (size_t j = 0; j < 4; ++j) out += j <= n ? kAlphabet[(group >> (18 - 6 * j)) & 63] : '=';
  }
  return out;
}

TF_DataType dtype_from_name(std::string_view name) {
  struct Entry {
    std::string_view name;
    int code;
  };
  static constexpr std::array<Entry, 20> kTable{{
      {"invalid", 0},      {"float32", TF_FLOAT},    {"float64", TF_DOUBLE},
      {"int32", TF_INT32}, {"uint8", TF_UINT8},      {"int16", TF_INT16},
      {"int8", TF_INT8},   {"string", TF_STRING},    {"complex64", TF_COMPLEX64},
      {"int64", TF_INT64}, {"bool", TF_BOOL},        {"bfloat16", TF_BFLOAT16},
      {"uint16", TF_UINT16}, {"complex128", TF_COMPLEX128}, {"float16", TF_HALF},
      {"resource", TF_RESOURCE}, {"variant", TF_VARIANT}, {"uint32", TF_UINT32},
      {"uint64", TF_UINT64}, {"qint8", TF_QINT8},
  }};
  for (const Entry& e : kTable) {
    if (e.name == name) return static_cast<TF_DataType>(e.code);
  }
  throw std::invalid_argument("unknown dtype name '" + std::string(name) + "'");
}

namespace {

// The manifest's name of a dtype: the inverse of dtype_from_name.
std::string name_of_dtype(TF_DataType dtype) {
  for (std::string_view name : {"invalid", "float32", "float64", "int32", "uint8", "int16", "int8",
                                "string", "complex64", "int64", "bool", "bfloat16", "uint16",
                                "complex128", "float16", "resource", "variant", "uint32", "uint64",
                                "qint8"}) {
    if (dtype_from_name(name) == dtype) return std::string(name);
  }
  throw std::invalid_argument("no manifest name for dtype " + dtype_name(dtype));
}

}  // namespace

std::vector<int64_t> shape_of(const Json& tensor) {
  return tensor.at("shape").get<std::vector<int64_t>>();
}

std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

// ---- Tensors ----------------------------------------------------------------

Tensor tensor_from_json(const Json& tensor) {
  TF_DataType dtype = dtype_from_name(tensor.at("dtype").get<std::string>());
  std::vector<int64_t> shape = shape_of(tensor);
  if (dtype == TF_STRING) {
    std::vector<std::string> values;
    for (const Json& s : tensor.at("strings")) values.push_back(base64_decode(s.get<std::string>()));
    std::vector<std::string_view> views(values.begin(), values.end());
    return Tensor::strings(shape, views);
  }
  std::string data = base64_decode(tensor.at("data").get<std::string>());
  return Tensor::copy_of(dtype, shape, data.data(), data.size());
}

Json tensor_to_json(const Tensor& tensor) {
  Json out{{"dtype", name_of_dtype(tensor.dtype())}, {"shape", tensor.shape()}};
  if (tensor.dtype() == TF_STRING) {
    Json strings = Json::array();
    for (int64_t i = 0; i < tensor.num_elements(); ++i) strings.push_back(base64_encode(tensor.string_at(i)));
    out["strings"] = std::move(strings);
  } else {
    out["data"] = base64_encode({static_cast<const char*>(tensor.data()), tensor.byte_size()});
  }
  return out;
}

namespace {

std::string hex(const void* bytes, size_t size) {
  std::ostringstream out;
  out << "0x";
  // Little-endian: print the most significant byte first.
  for (size_t i = size; i-- > 0;) {
    out << std::hex << std::setw(2) << std::setfill('0')
        << static_cast<int>(static_cast<const unsigned char*>(bytes)[i]);
  }
  return out.str();
}

std::string printable(std::string_view s) {
  std::ostringstream out;
  out << '"';
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '"' && c != '\\') {
      out << c;
    } else {
      out << "\\x" << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(u);
    }
  }
  return out.str() + '"';
}

template <typename T>
bool floats_close(T actual, T expected) {
  if (actual == expected) return true;
  if (std::isnan(actual) && std::isnan(expected)) return true;
  if (!std::isfinite(actual) || !std::isfinite(expected)) return false;
  // 1e-6 absolute plus relative, as the Java suite's TestModels compares.
  const T tolerance = static_cast<T>(1e-6);
  return std::fabs(actual - expected) <= tolerance + tolerance * std::fabs(expected);
}

template <typename T>
::testing::AssertionResult compare_floats(const void* actual, const void* expected, size_t count,
                                          FloatMatch floats) {
  for (size_t i = 0; i < count; ++i) {
    T a, e;
    std::memcpy(&a, static_cast<const char*>(actual) + i * sizeof(T), sizeof(T));
    std::memcpy(&e, static_cast<const char*>(expected) + i * sizeof(T), sizeof(T));
    bool ok = floats == FloatMatch::kExact ? std::memcmp(&a, &e, sizeof(T)) == 0 : floats_close(a, e);
    if (!ok) {
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << std::setprecision(17) << a << " (" << hex(&a, sizeof a)
             << "), expected " << e << " (" << hex(&e, sizeof e) << ")"
             << (floats == FloatMatch::kExact ? " [bit-exact]" : " [1e-6 absolute + relative]");
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult compare_bytes(const void* actual, const void* expected, size_t size,
                                         size_t element_size) {
  const auto* a = static_cast<const unsigned char*>(actual);
  const auto* e = static_cast<const unsigned char*>(expected);
  for (size_t offset = 0; offset < size; ++offset) {
    if (a[offset] != e[offset]) {
      size_t index = offset / element_size;
      size_t start = index * element_size;
      return ::testing::AssertionFailure()
             << "element " << index << ": got " << hex(a + start, element_size) << ", expected "
             << hex(e + start, element_size);
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult same_dtype_and_shape(const Tensor& actual, TF_DataType dtype,
                                                const std::vector<int64_t>& shape) {
  if (actual.dtype() != dtype) {
    return ::testing::AssertionFailure() << "dtype: got " << dtype_name(actual.dtype())
                                         << ", expected " << dtype_name(dtype);
  }
  if (actual.shape() != shape) {
    return ::testing::AssertionFailure() << "shape: got " << shape_string(actual.shape())
                                         << ", expected " << shape_string(shape);
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult tensor_matches(const Tensor& actual, const Json& expected,
                                          FloatMatch floats) {
  TF_DataType dtype = dtype_from_name(expected.at("dtype").get<std::string>());
  auto same = same_dtype_and_shape(actual, dtype, shape_of(expected));
  if (!same) return same;
  if (dtype == TF_STRING) {
    const Json& strings = expected.at("strings");
    if (static_cast<int64_t>(strings.size()) != actual.num_elements()) {
      return ::testing::AssertionFailure() << "the expected TENSOR has " << strings.size()
                                           << " strings for " << actual.num_elements() << " elements";
    }
    for (size_t i = 0; i < strings.size(); ++i) {
      std::string want = base64_decode(strings[i].get<std::string>());
      std::string_view got = actual.string_at(static_cast<int64_t>(i));
      if (got != want) {
        return ::testing::AssertionFailure() << "string " << i << ": got " << printable(got)
                                             << ", expected " << printable(want);
      }
    }
    return ::testing::AssertionSuccess();
  }
  std::string data = base64_decode(expected.at("data").get<std::string>());
  if (actual.byte_size() != data.size()) {
    return ::testing::AssertionFailure() << "byte size: got " << actual.byte_size() << ", expected "
                                         << data.size();
  }
  size_t count = static_cast<size_t>(actual.num_elements());
  if (dtype == TF_FLOAT) return compare_floats<float>(actual.data(), data.data(), count, floats);
  if (dtype == TF_DOUBLE) return compare_floats<double>(actual.data(), data.data(), count, floats);
  return compare_bytes(actual.data(), data.data(), data.size(), dtype_size(dtype));
}

::testing::AssertionResult tensors_equal(const Tensor& a, const Tensor& b) {
  auto same = same_dtype_and_shape(a, b.dtype(), b.shape());
  if (!same) return same;
  if (a.dtype() == TF_STRING) {
    for (int64_t i = 0; i < a.num_elements(); ++i) {
      if (a.string_at(i) != b.string_at(i)) {
        return ::testing::AssertionFailure() << "string " << i << ": " << printable(a.string_at(i))
                                             << " vs " << printable(b.string_at(i));
      }
    }
    return ::testing::AssertionSuccess();
  }
  if (a.byte_size() != b.byte_size()) {
    return ::testing::AssertionFailure() << "byte size " << a.byte_size() << " vs " << b.byte_size();
  }
  return compare_bytes(a.data(), b.data(), a.byte_size(), std::max<size_t>(1, dtype_size(a.dtype())));
}

// ---- Running manifest cases -------------------------------------------------

FloatMatch float_match_for(const Json& test_case) {
  return test_case.at("model") == "dtypes" ? FloatMatch::kExact : FloatMatch::kTolerant;
}

::testing::AssertionResult run_case(const Json& test_case, const SessionConfig& config) {
  const std::string name = test_case.at("name").get<std::string>();
  const std::string model = test_case.at("model").get<std::string>();
  const Json& calls = test_case.at("calls");
  if (calls.empty()) return ::testing::AssertionFailure() << "case '" << name << "' has no calls";
  FloatMatch floats = float_match_for(test_case);

  std::unique_ptr<SavedModel> saved;
  std::unique_ptr<GraphModel> graph;
  if (model_kind(model) == "saved_model") {
    saved = load_saved_model(model, config);
  } else {
    graph = GraphModel::load(model_path(model).string(), config);
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    const Json& call = calls[i];
    std::string signature = call.value("signature", test_case.value("signature", std::string()));
    std::vector<std::string> input_keys = keys_of(call.at("inputs"));
    std::vector<std::string> output_keys = keys_of(call.at("outputs"));
    std::string where = "case '" + name + "', call " + std::to_string(i) +
                        (signature.empty() ? "" : " (signature '" + signature + "')");

    std::unique_ptr<Runner> runner =
        saved ? Runner::for_signature(*saved, signature, input_keys, output_keys)
              : Runner::for_tensors(graph->session(), input_keys, output_keys);
    std::vector<Tensor> inputs;
    std::vector<const Tensor*> feeds;
    for (const std::string& key : input_keys) inputs.push_back(tensor_from_json(call.at("inputs").at(key)));
    for (const Tensor& t : inputs) feeds.push_back(&t);

    std::vector<Tensor> outputs = runner->run(feeds);
    if (outputs.size() != output_keys.size()) {
      return ::testing::AssertionFailure() << where << ": " << outputs.size() << " outputs for "
                                           << output_keys.size() << " keys";
    }
    for (size_t j = 0; j < outputs.size(); ++j) {
      auto match = tensor_matches(outputs[j], call.at("outputs").at(output_keys[j]), floats);
      if (!match) {
        return ::testing::AssertionFailure() << where << ", output '" << output_keys[j]
                                             << "': " << match.message();
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// ---- Errors -----------------------------------------------------------------

::testing::AssertionResult throws_error(const std::function<void()>& f, TF_Code code,
                                        std::initializer_list<std::string_view> fragments) {
  try {
    f();
  } catch (const Error& e) {
    if (e.code() != code) {
      return ::testing::AssertionFailure() << "threw " << code_name(e.code()) << " instead of "
                                           << code_name(code) << ": " << e.what();
    }
    std::string_view message = e.what();
    for (std::string_view fragment : fragments) {
      if (message.find(fragment) == std::string_view::npos) {
        return ::testing::AssertionFailure() << code_name(code) << " message \"" << message
                                             << "\" does not mention \"" << fragment << "\"";
      }
    }
    return ::testing::AssertionSuccess() << code_name(code) << ": " << message;
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-tfjni exception instead of "
                                         << code_name(code) << ": " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw (expected " << code_name(code) << ")";
}

// ---- Files ------------------------------------------------------------------

TempDir::TempDir() {
  // mkdtemp's way on every platform (Windows has none): a random name, and create_directory
  // tells whether this call made it.
  std::random_device random;
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path candidate = fs::temp_directory_path() / ("tfjni-test-" + std::to_string(random()));
    if (fs::create_directory(candidate)) {
      path_ = candidate.string();
      return;
    }
  }
  throw std::runtime_error("no new directory could be made in " + fs::temp_directory_path().string());
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void write_file(const fs::path& file, std::string_view bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

// ---- Leak checking ----------------------------------------------------------

::testing::AssertionResult same_live_counts(const LiveCounts& expected, const LiveCounts& actual) {
  std::ostringstream diff;
  for (int i = 0; i < kObjectKindCount; ++i) {
    if (expected.count[i] != actual.count[i]) {
      diff << " " << kind_name(static_cast<ObjectKind>(i)) << ": " << expected.count[i] << " -> "
           << actual.count[i] << ";";
    }
  }
  if (expected.tensor_bytes != actual.tensor_bytes) {
    diff << " tensor bytes: " << expected.tensor_bytes << " -> " << actual.tensor_bytes << ";";
  }
  if (diff.str().empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "live native objects changed:" << diff.str();
}

void LeakCheckedTest::SetUp() { baseline_ = live_objects(); }

void LeakCheckedTest::TearDown() {
  EXPECT_TRUE(same_live_counts(baseline_, live_objects())) << "(leaked by this test)";
}

}  // namespace tfjni::test
