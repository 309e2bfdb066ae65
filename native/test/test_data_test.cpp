// The test helpers themselves: a comparison that cannot fail proves nothing.
#include "test_data.h"

namespace tfjni::test {
namespace {

using TestDataTest = LeakCheckedTest;

TEST_F(TestDataTest, Base64DecodesRfc4648Vectors) {
  EXPECT_EQ(base64_decode(""), "");
  EXPECT_EQ(base64_decode("Zg=="), "f");
  EXPECT_EQ(base64_decode("Zm8="), "fo");
  EXPECT_EQ(base64_decode("Zm9v"), "foo");
  EXPECT_EQ(base64_decode("Zm9vYg=="), "foob");
  EXPECT_EQ(base64_decode("Zm9vYmFy"), "foobar");
  EXPECT_EQ(base64_decode("AP8A/w=="), std::string("\x00\xff\x00\xff", 4));
  EXPECT_EQ(base64_decode("+/+/"), std::string("\xfb\xff\xbf", 3));
}

TEST_F(TestDataTest, Base64EncodeRoundTrips) {
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n < 8; ++n) EXPECT_EQ(base64_decode(base64_encode(all.substr(n))), all.substr(n));
}

TEST_F(TestDataTest, Base64RejectsMalformedText) {
  for (const char* bad : {"Zg=", "Zm9v!A==", "Zm9vY", "=Zm9", "Zg==Zg==", "Z===", "Zm 9v"}) {
    EXPECT_THROW(base64_decode(bad), std::invalid_argument) << bad;
  }
}

TEST_F(TestDataTest, ManifestHasTheExpectedSections) {
  const Json& m = manifest();
  for (const char* key : {"tensorflow_version", "models", "signatures", "cases", "config_protos"}) {
    EXPECT_TRUE(m.contains(key)) << key;
  }
  EXPECT_FALSE(m.at("cases").empty());
  EXPECT_EQ(model_kind("frozen"), "graph_def");
  EXPECT_EQ(model_tags("multi"), std::vector<std::string>{"serve"});
  EXPECT_THROW(model_path("no-such-model"), std::runtime_error);
  EXPECT_THROW(find_case("no-such-case"), std::runtime_error);
}

TEST_F(TestDataTest, LoadManifestReportsBadFiles) {
  TempDir dir;
  EXPECT_THROW(load_manifest(dir.path() / "missing.json"), std::runtime_error);
  write_file(dir.path() / "bad.json", "{ not json");
  EXPECT_THROW(load_manifest(dir.path() / "bad.json"), std::runtime_error);
  write_file(dir.path() / "ok.json", R"({"b": 1, "a": 2})");
  EXPECT_EQ(keys_of(load_manifest(dir.path() / "ok.json")), (std::vector<std::string>{"b", "a"}))
      << "manifest order is kept";
}

// Every TENSOR of the manifest builds a tensor that matches itself.
TEST_F(TestDataTest, EveryManifestTensorRoundTrips) {
  int tensors = 0;
  for (const Json& c : manifest().at("cases")) {
    for (const Json& call : c.at("calls")) {
      for (const char* side : {"inputs", "outputs"}) {
        for (const auto& [key, tensor] : call.at(side).items()) {
          SCOPED_TRACE(c.at("name").get<std::string>() + " " + side + " " + key);
          Tensor t = tensor_from_json(tensor);
          EXPECT_TRUE(tensor_matches(t, tensor, FloatMatch::kExact));
          ++tensors;
        }
      }
    }
  }
  EXPECT_GT(tensors, 50);
}

Json float_tensor(std::vector<float> values) {
  return tensor_to_json(Tensor::copy_of(TF_FLOAT, std::vector<int64_t>{static_cast<int64_t>(values.size())},
                                        values.data(), values.size() * sizeof(float)));
}

TEST_F(TestDataTest, FloatComparisonIsExactOrWithinOneMillionth) {
  Json expected = float_tensor({1.0f, -2.0f, 0.0f});
  Tensor same = tensor_from_json(expected);
  EXPECT_TRUE(tensor_matches(same, expected, FloatMatch::kExact));

  Tensor close = tensor_from_json(float_tensor({1.0f + 4e-7f, -2.0f, 0.0f}));
  EXPECT_FALSE(tensor_matches(close, expected, FloatMatch::kExact));
  EXPECT_TRUE(tensor_matches(close, expected, FloatMatch::kTolerant));

  Tensor far = tensor_from_json(float_tensor({1.0f, -2.0f + 1e-5f, 0.0f}));
  auto result = tensor_matches(far, expected, FloatMatch::kTolerant);
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("element 1"), std::string::npos) << result.message();

  // 1e-6 absolute plus relative: near 0 the absolute part decides.
  Tensor tiny = tensor_from_json(float_tensor({1.0f, -2.0f, 9e-7f}));
  EXPECT_TRUE(tensor_matches(tiny, expected, FloatMatch::kTolerant)) << "within 1e-6 of 0";
  Tensor small = tensor_from_json(float_tensor({1.0f, -2.0f, 2e-6f}));
  EXPECT_FALSE(tensor_matches(small, expected, FloatMatch::kTolerant)) << "2e-6 is not near 0";
}

TEST_F(TestDataTest, ComparisonChecksDtypeShapeAndStrings) {
  Json expected = float_tensor({1.0f, 2.0f});
  Tensor ints = Tensor::allocate(TF_INT32, std::vector<int64_t>{2});
  EXPECT_FALSE(tensor_matches(ints, expected));
  Tensor longer = tensor_from_json(float_tensor({1.0f, 2.0f, 3.0f}));
  EXPECT_FALSE(tensor_matches(longer, expected));

  Json strings{{"dtype", "string"}, {"shape", {2}}, {"strings", {"YQ==", ""}}};  // "a", ""
  std::string_view good[] = {"a", ""}, bad[] = {"a", "b"};
  EXPECT_TRUE(tensor_matches(Tensor::strings(std::vector<int64_t>{2}, good), strings));
  EXPECT_FALSE(tensor_matches(Tensor::strings(std::vector<int64_t>{2}, bad), strings));

  EXPECT_TRUE(tensors_equal(Tensor::strings(std::vector<int64_t>{2}, good),
                            Tensor::strings(std::vector<int64_t>{2}, good)));
  EXPECT_FALSE(tensors_equal(Tensor::strings(std::vector<int64_t>{2}, good),
                             Tensor::strings(std::vector<int64_t>{2}, bad)));
}

TEST_F(TestDataTest, IntegerComparisonIsBitExact) {
  const Json& c = find_case("dtypes_int64");
  const Json& x = c.at("calls").at(0).at("inputs").at("x");
  Tensor t = tensor_from_json(x);
  EXPECT_TRUE(tensor_matches(t, x));
  static_cast<int64_t*>(t.data())[4] += 1;
  auto result = tensor_matches(t, x, FloatMatch::kTolerant);
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("element 4"), std::string::npos) << result.message();
}

TEST_F(TestDataTest, ThrowsErrorChecksCodeAndMessage) {
  auto invalid = [] { throw_invalid_argument("bad thing"); };
  EXPECT_TRUE(throws_error(invalid, TF_INVALID_ARGUMENT, {"bad", "thing"}));
  EXPECT_FALSE(throws_error(invalid, TF_NOT_FOUND));
  EXPECT_FALSE(throws_error(invalid, TF_INVALID_ARGUMENT, {"other"}));
  EXPECT_FALSE(throws_error([] {}, TF_INVALID_ARGUMENT));
  EXPECT_FALSE(throws_error([] { throw std::runtime_error("x"); }, TF_INVALID_ARGUMENT));
}

TEST_F(TestDataTest, LeakCheckSeesADifference) {
  const LiveCounts before = live_objects();
  Tensor t = Tensor::allocate(TF_INT8, std::vector<int64_t>{3});
  auto result = same_live_counts(before, live_objects());
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("tensor: "), std::string::npos) << result.message();
}

TEST_F(TestDataTest, TempDirIsRemoved) {
  std::filesystem::path path;
  {
    TempDir dir;
    path = dir.path();
    write_file(path / "f", "x");
    EXPECT_EQ(read_file(path / "f"), "x");
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace tfjni::test
