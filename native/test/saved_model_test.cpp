// SavedModel loading and SignatureDef parsing, against the manifest's
// signatures (read by TensorFlow Python from the same MetaGraphDefs).
#include <tensorflow/c/c_api.h>

#include <filesystem>

#include "test_data.h"
#include "tfjni/runner.h"
#include "tfjni/utf8_path.h"
#include "tfjni/wire_format.h"

namespace tfjni::test {
namespace {

namespace fs = std::filesystem;
using SavedModelTest = LeakCheckedTest;

const std::vector<std::string> kServe{"serve"};

// Copies a model directory into `dir`, leaving out `skip` (a relative path).
fs::path copy_model(const std::string& model, const fs::path& dir, const fs::path& skip = {}) {
  fs::path source = model_path(model);
  fs::path target = dir / model;
  fs::create_directories(target);
  for (const auto& entry : fs::recursive_directory_iterator(source)) {
    fs::path relative = fs::relative(entry.path(), source);
    if (!skip.empty() && (relative == skip || relative.generic_string().starts_with(skip.generic_string() + "/"))) continue;
    if (entry.is_directory()) {
      fs::create_directories(target / relative);
    } else {
      fs::copy_file(entry.path(), target / relative);
    }
  }
  return target;
}

::testing::AssertionResult spec_matches(const TensorSpec& spec, const std::string& key, const Json& info) {
  auto fail = [&] { return ::testing::AssertionFailure() << "'" << key << "': "; };
  if (spec.key != key) return fail() << "key " << spec.key;
  if (spec.tensor_name != info.at("name").get<std::string>()) {
    return fail() << "tensor name " << spec.tensor_name << ", expected " << info.at("name");
  }
  if (static_cast<int>(spec.dtype) != info.at("dtype_enum").get<int>()) {
    return fail() << "dtype " << spec.dtype << ", expected " << info.at("dtype_enum");
  }
  const Json& shape = info.at("shape");
  if (shape.is_null()) {
    if (!spec.unknown_rank || !spec.shape.empty()) {
      return fail() << "shape " << shape_string(spec.shape, spec.unknown_rank) << ", expected unknown rank";
    }
  } else if (spec.unknown_rank || spec.shape != shape.get<std::vector<int64_t>>()) {
    return fail() << "shape " << shape_string(spec.shape, spec.unknown_rank) << ", expected " << shape.dump();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult specs_match(const std::vector<TensorSpec>& specs, const Json& infos) {
  std::vector<std::string> keys;
  for (const TensorSpec& spec : specs) keys.push_back(spec.key);
  std::vector<std::string> expected_keys = keys_of(infos);
  std::sort(expected_keys.begin(), expected_keys.end());
  if (keys != expected_keys) {
    return ::testing::AssertionFailure() << "keys " << ::testing::PrintToString(keys) << ", expected "
                                         << ::testing::PrintToString(expected_keys);
  }
  for (const TensorSpec& spec : specs) {
    auto match = spec_matches(spec, spec.key, infos.at(spec.key));
    if (!match) return match;
  }
  return ::testing::AssertionSuccess();
}

TEST_F(SavedModelTest, ManifestComesFromTheLinkedTensorFlow) {
  EXPECT_EQ(manifest().at("tensorflow_version").get<std::string>(), std::string(TF_Version()));
}

TEST_F(SavedModelTest, EveryModelLoadsWithTheManifestsSignatures) {
  std::vector<std::string> models = model_names("saved_model");
  ASSERT_GE(models.size(), 7u);
  for (const std::string& name : models) {
    SCOPED_TRACE("model " + name);
    auto model = load_saved_model(name);
    ASSERT_NE(model, nullptr);
    ASSERT_NE(model->session(), nullptr);
    const Json& expected = manifest().at("signatures").at(name);

    std::vector<std::string> keys;
    for (const SignatureDef& def : model->signatures()) keys.push_back(def.key);
    std::vector<std::string> expected_keys = keys_of(expected);
    std::erase(expected_keys, "__saved_model_init_op");  // run by the loader, not a signature
    std::sort(expected_keys.begin(), expected_keys.end());
    EXPECT_EQ(keys, expected_keys);

    for (const SignatureDef& def : model->signatures()) {
      SCOPED_TRACE("signature " + def.key);
      if (!expected.contains(def.key)) continue;
      const Json& sig = expected.at(def.key);
      EXPECT_EQ(def.method, sig.at("method").get<std::string>());
      EXPECT_TRUE(specs_match(def.inputs, sig.at("inputs"))) << "inputs";
      EXPECT_TRUE(specs_match(def.outputs, sig.at("outputs"))) << "outputs";
      EXPECT_EQ(&model->signature(def.key), &def);
    }
  }
}

TEST_F(SavedModelTest, FindInputAndOutputByKey) {
  auto model = load_saved_model("strings");
  const SignatureDef& def = model->signature("transform");
  ASSERT_NE(def.find_input("s"), nullptr);
  EXPECT_EQ(def.find_input("s")->dtype, TF_STRING);
  ASSERT_NE(def.find_output("length"), nullptr);
  EXPECT_EQ(def.find_output("length")->dtype, TF_INT32);
  EXPECT_EQ(def.find_input("length"), nullptr);
  EXPECT_EQ(def.find_output("s"), nullptr);
  EXPECT_EQ(def.find_output(""), nullptr);
}

TEST_F(SavedModelTest, UnknownSignatureKeyNamesTheAvailableOnes) {
  auto model = load_saved_model("multi");
  EXPECT_TRUE(throws_error([&] { model->signature("nope"); }, TF_INVALID_ARGUMENT,
                           {"'nope'", "add", "any_rank", "scale", "serving_default"}));
  EXPECT_TRUE(throws_error([&] { model->signature(""); }, TF_INVALID_ARGUMENT));
}

TEST_F(SavedModelTest, MissingDirectoryIsNotFound) {
  TempDir dir;
  const std::string missing = (dir.path() / "no-such-model").string();
  EXPECT_TRUE(throws_error([&] { SavedModel::load(missing, kServe); }, TF_NOT_FOUND, {"no-such-model"}));
}

TEST_F(SavedModelTest, EmptyDirectoryIsNotFound) {
  TempDir dir;
  EXPECT_TRUE(throws_error([&] { SavedModel::load(dir.path().string(), kServe); }, TF_NOT_FOUND));
}

// TensorFlow's own message advises saved_model_cli; tfjni lists the model's tag-sets.
TEST_F(SavedModelTest, WrongTagIsNotFoundAndNamesTheModelsTagSets) {
  const std::vector<std::string> train{"train", "gpu"};
  EXPECT_TRUE(throws_error([&] { SavedModel::load(model_path("multi").string(), train); }, TF_NOT_FOUND,
                           {"has no MetaGraphDef tagged {gpu, train}; its tag-sets are {serve}"}));
}

TEST_F(SavedModelTest, AFileForTheDirectoryIsNamedAsSuch) {
  const std::string pb = (model_path("multi") / "saved_model.pb").string();
  EXPECT_TRUE(throws_error([&] { SavedModel::load(pb, kServe); }, TF_INVALID_ARGUMENT,
                           {pb + "' is a file, not a directory", model_path("multi").string()}));
}

TEST_F(SavedModelTest, NoTagsIsInvalid) {
  EXPECT_TRUE(throws_error([&] { SavedModel::load(model_path("multi").string(), {}); }, TF_INVALID_ARGUMENT,
                           {"tag"}));
}

TEST_F(SavedModelTest, CorruptSavedModelPbIsRejected) {
  TempDir dir;
  fs::path copy = copy_model("multi", dir.path());
  write_file(copy / "saved_model.pb", "this is not a SavedModel protocol buffer \xff\xff\xff");
  EXPECT_TRUE(throws_error([&] { SavedModel::load(copy.string(), kServe); }, TF_DATA_LOSS));
}

// TensorFlow 2.18 reports a truncated saved_model.pb as OUT_OF_RANGE ("Read
// less bytes than requested") without naming it; the core names the file, wherever it is cut.
TEST_F(SavedModelTest, TruncatedSavedModelPbIsDataLossNamingTheFile) {
  TempDir dir;
  fs::path copy = copy_model("multi", dir.path());
  const fs::path pb = copy / "saved_model.pb";
  std::string bytes = read_file(pb);
  for (size_t size : {size_t{1}, size_t{100}, bytes.size() / 2, bytes.size() - 1}) {
    SCOPED_TRACE("cut to " + std::to_string(size) + " bytes");
    write_file(pb, std::string_view(bytes).substr(0, size));
    // Appended piece by piece: GCC 12 warns (-Wrestrict) on a chain of operator+ here.
    std::string named = pb.string();
    named += "' (";
    named += std::to_string(size);
    named += " bytes) is damaged, cut short";
    EXPECT_TRUE(throws_error([&] { SavedModel::load(copy.string(), kServe); }, TF_DATA_LOSS,
                             {named, "TensorFlow said"}));
  }
}

// An empty file is a valid, empty SavedModel message: TensorFlow says it has no
// MetaGraphDef tagged serve; the core says the file holds none at all.
TEST_F(SavedModelTest, EmptySavedModelPbIsDataLossNamingTheFile) {
  TempDir dir;
  fs::path copy = copy_model("multi", dir.path());
  write_file(copy / "saved_model.pb", "");
  EXPECT_TRUE(throws_error([&] { SavedModel::load(copy.string(), kServe); }, TF_DATA_LOSS,
                           {(copy / "saved_model.pb").string(), "(0 bytes) holds no MetaGraphDef"}));
}

// TensorFlow itself would load a model without variables/ (logging "no
// checkpoints were restored") and fail at the first use of a variable; the
// core refuses it at load, naming the missing file.
TEST_F(SavedModelTest, MissingVariablesDirectoryIsRejectedAtLoad) {
  TempDir dir;
  fs::path copy = copy_model("counter", dir.path(), "variables");
  ASSERT_FALSE(fs::exists(copy / "variables"));
  EXPECT_TRUE(throws_error([&] { SavedModel::load(copy.string(), kServe); }, TF_NOT_FOUND,
                           {"variables.index", "does not exist"}));
}

// Paths reach the core as UTF-8 (from Java's strings) and TensorFlow reads them as UTF-8 on every
// platform; on Windows a narrow std::filesystem::path or file stream would read them in the ANSI
// code page instead. A directory named with characters outside that code page, some outside
// Unicode's basic plane (four UTF-8 bytes, two UTF-16 units), must load, restore its variables
// and run, and the core's own file checks must find and name its files.
TEST_F(SavedModelTest, PathsAreUtf8OutsideTheBasicPlaneToo) {
  TempDir dir;
  const fs::path parent = dir.path() / utf8_path("模型 ü \xF0\x9F\x98\x80 \xF0\x9D\x84\x9E");
  fs::create_directories(parent);
  const std::string copy = utf8_string(copy_model("half_plus_two", parent));
  auto model = SavedModel::load(copy, kServe);
  // y = 0.5 x + 2 with a and b restored from variables/: a model whose variables TensorFlow did
  // not find would fail here.
  auto runner = Runner::for_signature(*model, "serving_default", std::vector<std::string>{"x"}, {});
  const float x[] = {1.0f, 2.0f, 5.0f};
  Tensor input = Tensor::copy_of(TF_FLOAT, std::vector<int64_t>{3, 1}, x, sizeof(x));
  const Tensor* feeds[] = {&input};
  std::vector<Tensor> y = runner->run(feeds);
  ASSERT_EQ(y.size(), 1u);
  const auto* values = static_cast<const float*>(y[0].data());
  EXPECT_EQ(std::vector<float>(values, values + 3), (std::vector<float>{2.5f, 3.0f, 4.5f}));

  const std::string pb = utf8_string(utf8_path(copy) / "saved_model.pb");
  write_file(utf8_path(pb), "");
  EXPECT_TRUE(throws_error([&] { SavedModel::load(copy, kServe); }, TF_DATA_LOSS,
                           {pb + "' (0 bytes) holds no MetaGraphDef"}));
  const std::string counter = utf8_string(copy_model("counter", parent, "variables"));
  EXPECT_TRUE(throws_error([&] { SavedModel::load(counter, kServe); }, TF_NOT_FOUND,
                           {utf8_string(utf8_path(counter) / "variables" / "variables.index") +
                            "' does not exist"}));
  const std::string missing = utf8_string(parent / utf8_path("missing \xF0\x9F\x98\x80"));
  EXPECT_TRUE(throws_error([&] { SavedModel::load(missing, kServe); }, TF_NOT_FOUND, {missing}));

  const fs::path frozen = parent / utf8_path("frozen \xF0\x9F\x98\x80.pb");
  fs::copy_file(model_path("frozen"), frozen);
  EXPECT_NE(GraphModel::load(utf8_string(frozen))->session(), nullptr);
}

TEST_F(SavedModelTest, TheInitOpIsNotASignature) {
  // TensorFlow's loader runs it at load; TensorFlow Python's `signatures` leaves it out.
  auto model = load_saved_model("lookup");
  ASSERT_TRUE(manifest().at("signatures").at("lookup").contains("__saved_model_init_op"));
  EXPECT_TRUE(throws_error([&] { model->signature("__saved_model_init_op"); }, TF_INVALID_ARGUMENT,
                           {"no signature '__saved_model_init_op'", "signatures are: lookup"}));
}

// ---- parse_signature_defs on hand-built MetaGraphDefs -----------------------
// Field numbers from meta_graph.proto / tensor_shape.proto.

std::string dim(int64_t size) {
  wire::Writer w;
  if (size != 0) w.varint(1, static_cast<uint64_t>(size));  // proto3: 0 is left off
  return w.data();
}

std::string tensor_info(const std::string& name, int dtype, const std::vector<std::string>& dims,
                        bool unknown_rank = false) {
  wire::Writer shape;
  for (const std::string& d : dims) shape.bytes(2, d);
  if (unknown_rank) shape.varint(3, 1);
  wire::Writer w;
  w.bytes(1, name);
  w.varint(2, static_cast<uint64_t>(dtype));
  w.bytes(3, shape.data());
  return w.data();
}

std::string map_entry(const std::string& key, const std::string& value) {
  wire::Writer w;
  w.bytes(1, key);
  w.bytes(2, value);
  return w.data();
}

std::string meta_graph(const std::string& key, const std::string& signature) {
  wire::Writer w;
  w.bytes(1, "meta_info_def: ignored");
  w.bytes(5, map_entry(key, signature));
  return w.data();
}

TEST_F(SavedModelTest, LoaderEntriesOfTheSignatureMapAreLeftOut) {
  wire::Writer noop;
  noop.bytes(2, map_entry("op", tensor_info("NoOp", 0, {}, true)));
  wire::Writer w;
  w.bytes(5, map_entry("__saved_model_init_op", noop.data()));
  w.bytes(5, map_entry("__saved_model_train_op", noop.data()));
  w.bytes(5, map_entry("serving_default", noop.data()));
  std::vector<SignatureDef> defs = parse_signature_defs(w.data());
  ASSERT_EQ(defs.size(), 1u);
  EXPECT_EQ(defs[0].key, "serving_default");
}

TEST_F(SavedModelTest, ParsesShapesOfAllKinds) {
  wire::Writer sig;
  sig.bytes(1, map_entry("zero", tensor_info("zero:0", TF_FLOAT, {dim(0), dim(3)})));
  sig.bytes(1, map_entry("dynamic", tensor_info("dynamic:0", TF_INT64, {dim(-1), dim(2)})));
  sig.bytes(1, map_entry("scalar", tensor_info("scalar:0", TF_BOOL, {})));
  sig.bytes(1, map_entry("any", tensor_info("any:0", TF_STRING, {}, true)));
  sig.bytes(2, map_entry("out", tensor_info("out:0", TF_DOUBLE, {dim(5)})));
  sig.bytes(3, "tensorflow/serving/predict");
  sig.varint(99, 1);  // unknown fields are skipped

  std::vector<SignatureDef> defs = parse_signature_defs(meta_graph("sig", sig.data()));
  ASSERT_EQ(defs.size(), 1u);
  const SignatureDef& def = defs[0];
  EXPECT_EQ(def.key, "sig");
  EXPECT_EQ(def.method, "tensorflow/serving/predict");
  ASSERT_EQ(def.inputs.size(), 4u);  // sorted by key
  EXPECT_EQ(def.inputs[0].key, "any");
  EXPECT_TRUE(def.inputs[0].unknown_rank);
  EXPECT_EQ(def.inputs[1].key, "dynamic");
  EXPECT_EQ(def.inputs[1].shape, (std::vector<int64_t>{-1, 2}));
  EXPECT_EQ(def.inputs[1].dtype, TF_INT64);
  EXPECT_EQ(def.inputs[2].key, "scalar");
  EXPECT_TRUE(def.inputs[2].shape.empty());
  EXPECT_FALSE(def.inputs[2].unknown_rank);
  EXPECT_EQ(def.inputs[3].key, "zero");
  EXPECT_EQ(def.inputs[3].shape, (std::vector<int64_t>{0, 3})) << "a dim of size 0 has no size field";
  EXPECT_EQ(def.inputs[3].tensor_name, "zero:0");
  ASSERT_EQ(def.outputs.size(), 1u);
  EXPECT_EQ(def.outputs[0].shape, std::vector<int64_t>{5});
  EXPECT_EQ(def.outputs[0].dtype, TF_DOUBLE);
}

// Found by signature_fuzz: proto3 enums are open, and a code outside
// TF_DataType (a reference type such as DT_FLOAT_REF = 101) must not be cast
// to the enum (undefined behaviour). It reads as 0, "no dtype".
TEST_F(SavedModelTest, DtypeCodesTfjniDoesNotKnowReadAsNone) {
  wire::Writer sig;
  sig.bytes(1, map_entry("uint4", tensor_info("a:0", TF_UINT4, {})));
  sig.bytes(1, map_entry("ref", tensor_info("b:0", 101, {})));
  sig.bytes(1, map_entry("next", tensor_info("c:0", 34, {})));  // defined by no TensorFlow yet
  sig.bytes(1, map_entry("huge", tensor_info("d:0", -1, {})));  // a ten-byte varint
  sig.bytes(1, map_entry("float4_e2m1fn", tensor_info("e:0", 33, {})));  // TensorFlow 2.21's newest
  std::vector<SignatureDef> defs = parse_signature_defs(meta_graph("sig", sig.data()));
  ASSERT_EQ(defs.size(), 1u);
  ASSERT_EQ(defs[0].inputs.size(), 5u);
  EXPECT_EQ(defs[0].find_input("uint4")->dtype, TF_UINT4);
  EXPECT_EQ(static_cast<int>(defs[0].find_input("float4_e2m1fn")->dtype), 33);
  for (const char* key : {"ref", "next", "huge"}) {
    SCOPED_TRACE(key);
    EXPECT_EQ(static_cast<int>(defs[0].find_input(key)->dtype), 0);
    EXPECT_EQ(defs[0].find_input(key)->tensor_name.size(), 3u);  // the rest is still read
  }
}

TEST_F(SavedModelTest, SignaturesAreSortedByKey) {
  wire::Writer w;
  for (const char* key : {"b", "c", "a"}) w.bytes(5, map_entry(key, ""));
  std::vector<SignatureDef> defs = parse_signature_defs(w.data());
  ASSERT_EQ(defs.size(), 3u);
  EXPECT_EQ(defs[0].key, "a");
  EXPECT_EQ(defs[2].key, "c");
  EXPECT_TRUE(defs[0].inputs.empty());
}

TEST_F(SavedModelTest, MalformedMetaGraphIsDataLoss) {
  EXPECT_TRUE(throws_error([] { parse_signature_defs("\x2a\x10short"); }, TF_DATA_LOSS));
  // A signature whose shape field is a varint instead of a message.
  wire::Writer info;
  info.varint(3, 5);
  wire::Writer sig;
  sig.bytes(1, map_entry("x", info.data()));
  std::string bad = meta_graph("s", sig.data());
  EXPECT_TRUE(throws_error([&] { parse_signature_defs(bad); }, TF_DATA_LOSS));
  EXPECT_TRUE(parse_signature_defs("").empty());
}

TEST_F(SavedModelTest, ShapeString) {
  EXPECT_EQ(shape_string({}), "[]");
  EXPECT_EQ(shape_string({-1, 4}), "[-1,4]");
  EXPECT_EQ(shape_string({3}, true), "<unknown rank>");
}

}  // namespace
}  // namespace tfjni::test
