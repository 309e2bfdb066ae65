// dtype names and sizes.
#include <tensorflow/c/tf_tstring.h>

#include <map>
#include <set>

#include "test_data.h"

namespace tfjni::test {
namespace {

using DtypeTest = LeakCheckedTest;

// TensorFlow 2.21's DataType enum (tensorflow/core/framework/types.pb.h of the
// tensorflow-cpu 2.21.0 wheel, the same codes as its c/tf_datatype.h): value and name
// without "DT_". Codes 26 to 28 and 31 to 33 are written as numbers: the TensorFlow tfjni
// builds against may predate them.
const std::map<int, std::string>& known_names() {
  static const std::map<int, std::string> names{
      {TF_FLOAT, "FLOAT"},         {TF_DOUBLE, "DOUBLE"},         {TF_INT32, "INT32"},
      {TF_UINT8, "UINT8"},         {TF_INT16, "INT16"},           {TF_INT8, "INT8"},
      {TF_STRING, "STRING"},       {TF_COMPLEX64, "COMPLEX64"},   {TF_INT64, "INT64"},
      {TF_BOOL, "BOOL"},           {TF_QINT8, "QINT8"},           {TF_QUINT8, "QUINT8"},
      {TF_QINT32, "QINT32"},       {TF_BFLOAT16, "BFLOAT16"},     {TF_QINT16, "QINT16"},
      {TF_QUINT16, "QUINT16"},     {TF_UINT16, "UINT16"},         {TF_COMPLEX128, "COMPLEX128"},
      {TF_HALF, "HALF"},           {TF_RESOURCE, "RESOURCE"},     {TF_VARIANT, "VARIANT"},
      {TF_UINT32, "UINT32"},       {TF_UINT64, "UINT64"},         {TF_FLOAT8_E5M2, "FLOAT8_E5M2"},
      {TF_FLOAT8_E4M3FN, "FLOAT8_E4M3FN"},   {26, "FLOAT8_E4M3FNUZ"},
      {27, "FLOAT8_E4M3B11FNUZ"},            {28, "FLOAT8_E5M2FNUZ"},
      {TF_INT4, "INT4"},           {TF_UINT4, "UINT4"},           {31, "INT2"},
      {32, "UINT2"},               {33, "FLOAT4_E2M1FN"},
  };
  return names;
}

// The types TensorFlow 2.18, the version tfjni builds against, does not know yet.
const std::set<int>& types_newer_than_2_18() {
  static const std::set<int> codes{26, 27, 28, 31, 32, 33};
  return codes;
}

TEST_F(DtypeTest, NamesOfAllTypes) {
  for (const auto& [code, name] : known_names()) {
    EXPECT_EQ(dtype_name(code), name) << "code " << code;
    EXPECT_TRUE(is_known_dtype(code)) << name;
  }
}

TEST_F(DtypeTest, UnknownCodesAreNamedByNumber) {
  for (int code : {-1, 34, 100, 1 << 20}) EXPECT_FALSE(is_known_dtype(code)) << code;
  // DT_INVALID is no tensor's type.
  EXPECT_FALSE(is_known_dtype(0));
  for (int code : {0, 34, -1}) {
    EXPECT_EQ(dtype_name(code), "DTYPE_" + std::to_string(code));
    EXPECT_EQ(dtype_size(code), 0u) << code;
  }
}

// TensorFlow's own TF_DataTypeSize is the oracle for every fixed-size type the loaded
// TensorFlow knows; it reports 0 for a code it does not know, which may only be one of the
// types newer than 2.18 (scripts/test/tf-versions.sh runs this against 2.21, which knows them all).
TEST_F(DtypeTest, SizesMatchTensorFlow) {
  int compared = 0;
  for (const auto& [code, name] : known_names()) {
    auto dtype = static_cast<TF_DataType>(code);
    if (dtype == TF_STRING || dtype == TF_RESOURCE || dtype == TF_VARIANT) {
      EXPECT_EQ(dtype_size(dtype), 0u) << name << " is variable-size";
      continue;
    }
    EXPECT_GT(dtype_size(dtype), 0u) << name;
    if (TF_DataTypeSize(dtype) == 0) {
      EXPECT_TRUE(types_newer_than_2_18().count(code)) << "TensorFlow " << TF_Version()
                                                       << " does not know " << name;
      continue;
    }
    EXPECT_EQ(dtype_size(dtype), TF_DataTypeSize(dtype)) << name;
    ++compared;
  }
  EXPECT_GE(compared, 24) << "every type of TensorFlow 2.18 but the three variable-size ones";
}

// The newest types' sizes without a TensorFlow that knows them: TensorFlow 2.21's
// TF_DataTypeSize (and tf.dtypes.<name>.size in its Python) is 1 for each. The sub-byte
// integers and float4 are stored one per byte: TF_AllocateTensor of three INT4 elements in
// 2 bytes returns null, in 3 bytes a tensor of TF_TensorByteSize 3.
TEST_F(DtypeTest, SizesOfTheNewestTypes) {
  for (int code : {24, 25, 26, 27, 28, 29, 30, 31, 32, 33}) {
    EXPECT_EQ(dtype_size(code), 1u) << known_names().at(code);
  }
}

TEST_F(DtypeTest, SizesOfCommonTypes) {
  EXPECT_EQ(dtype_size(TF_BOOL), sizeof(bool));
  EXPECT_EQ(dtype_size(TF_HALF), 2u);
  EXPECT_EQ(dtype_size(TF_BFLOAT16), 2u);
  EXPECT_EQ(dtype_size(TF_FLOAT), sizeof(float));
  EXPECT_EQ(dtype_size(TF_DOUBLE), sizeof(double));
  EXPECT_EQ(dtype_size(TF_COMPLEX64), 2 * sizeof(float));
  EXPECT_EQ(dtype_size(TF_COMPLEX128), 2 * sizeof(double));
  EXPECT_EQ(dtype_size(TF_INT64), sizeof(int64_t));
  EXPECT_EQ(dtype_size(TF_UINT16), sizeof(uint16_t));
}

// The test helpers' numpy-style names agree with TensorFlow's enum values in
// every TENSORINFO of the manifest.
TEST_F(DtypeTest, ManifestDtypeNamesMatchTheirEnums) {
  int checked = 0;
  for (const auto& [model, signatures] : manifest().at("signatures").items()) {
    for (const auto& [key, signature] : signatures.items()) {
      for (const char* side : {"inputs", "outputs"}) {
        for (const auto& [name, info] : signature.at(side).items()) {
          EXPECT_EQ(static_cast<int>(dtype_from_name(info.at("dtype").get<std::string>())),
                    info.at("dtype_enum").get<int>())
              << model << "/" << key << " " << side << " " << name;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 16);
}

TEST_F(DtypeTest, UnknownNameIsRejectedByTheHelpers) {
  EXPECT_THROW(dtype_from_name("float33"), std::invalid_argument);
}

}  // namespace
}  // namespace tfjni::test
