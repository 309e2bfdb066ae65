// TensorFlow Serving's warm-up file: the file TensorFlow Python wrote for the dtypes model
// (scripts/goldens/warmup_requests.py) read back value for value and run through the model, and damaged
// copies of it refused with the record they break.
#include "tfjni/warmup.h"

#include <functional>

#include <cstring>
#include <string>
#include <vector>

#include "test_data.h"
#include "tfjni/wire_format.h"

namespace tfjni::test {
namespace {

using WarmupTest = LeakCheckedTest;

const Json& warmup_manifest() { return manifest().at("warmup"); }

std::filesystem::path python_file() {
  return models_dir() / warmup_manifest().at("file").get<std::string>();
}

// The data of each record of a TFRecord file.
std::vector<std::string> records_of(const std::string& file) {
  std::vector<std::string> records;
  tfrecord::Reader reader(file);
  while (reader.next()) records.emplace_back(reader.data());
  return records;
}

std::string framed(const std::vector<std::string>& records) {
  std::string file;
  for (const std::string& r : records) file += tfrecord::frame(r);
  return file;
}

// ---- Messages written by hand (field numbers: prediction_log.proto, predict.proto, tensor.proto)

std::string message(const std::function<void(wire::Writer&)>& fill) {
  wire::Writer w;
  fill(w);
  return w.data();
}

std::string shape(std::initializer_list<int64_t> dims) {
  return message([&](wire::Writer& w) {
    for (int64_t d : dims) w.bytes(2, message([&](wire::Writer& dim) { dim.varint(1, static_cast<uint64_t>(d)); }));
  });
}

// A PredictionLog whose predict_log request feeds `tensor_proto` as input "x" of `signature`.
std::string predict_log(std::string_view signature, std::string_view tensor_proto) {
  std::string entry = message([&](wire::Writer& w) {
    w.bytes(1, "x");
    w.bytes(2, tensor_proto);
  });
  std::string request = message([&](wire::Writer& w) {
    if (!signature.empty()) w.bytes(1, message([&](wire::Writer& spec) { spec.bytes(3, signature); }));
    w.bytes(2, entry);
  });
  return message([&](wire::Writer& w) { w.bytes(6, message([&](wire::Writer& log) { log.bytes(1, request); })); });
}

std::string float_tensor(std::initializer_list<int64_t> dims, std::string_view content) {
  return message([&](wire::Writer& w) {
    w.varint(1, TF_FLOAT);
    w.bytes(2, shape(dims));
    if (!content.empty()) w.bytes(4, content);
  });
}

// The one request of a file holding one record.
WarmupRequest only_request(const std::string& record) {
  auto requests = parse_warmup_requests(tfrecord::frame(record));
  if (requests.size() != 1) throw std::runtime_error("expected one request");
  return std::move(requests[0]);
}

std::string le32(uint32_t v) {
  std::string out;
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return out;
}

uint32_t float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// ---- The file TensorFlow Python wrote ------------------------------------------------------

TEST_F(WarmupTest, ReadsEveryRecordTensorFlowPythonWrote) {
  const Json& expected = warmup_manifest().at("records");
  std::vector<WarmupRequest> requests = read_warmup_requests(python_file());
  ASSERT_EQ(requests.size(), expected.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    const Json& record = expected[i];
    SCOPED_TRACE("record " + std::to_string(i) + " (" + record.at("encoding").get<std::string>() + ")");
    EXPECT_EQ(requests[i].record_index, record.at("record_index").get<size_t>());
    EXPECT_EQ(requests[i].signature_name, record.at("signature").get<std::string>());
    EXPECT_EQ(requests[i].output_filter, record.at("output_filter").get<std::vector<std::string>>());
    ASSERT_EQ(requests[i].inputs.size(), 1u);
    EXPECT_EQ(requests[i].inputs[0].first, "x");
    EXPECT_TRUE(tensor_matches(requests[i].inputs[0].second, record.at("inputs").at("x")));
  }
}

TEST_F(WarmupTest, RequestsRunThroughTheModelToPythonsOutputs) {
  auto model = load_saved_model(warmup_manifest().at("model").get<std::string>());
  const Json& expected = warmup_manifest().at("records");
  std::vector<WarmupRequest> requests = read_warmup_requests(python_file());
  ASSERT_EQ(requests.size(), expected.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    const WarmupRequest& request = requests[i];
    std::vector<std::string> input_keys{request.inputs[0].first};
    auto runner = Runner::for_signature(*model, request.signature_name, input_keys, request.output_filter);
    const Tensor* feeds[] = {&request.inputs[0].second};
    std::vector<Tensor> outputs = runner->run(feeds);
    const Json& expected_outputs = expected[i].at("outputs");
    ASSERT_EQ(outputs.size(), expected_outputs.size());
    for (size_t o = 0; o < outputs.size(); ++o) {
      const std::string& key = runner->outputs()[o].label;
      EXPECT_TRUE(tensor_matches(outputs[o], expected_outputs.at(key))) << key;
    }
  }
}

// ---- Damaged copies of it ------------------------------------------------------------------

TEST_F(WarmupTest, FlippedCrcNamesTheRecord) {
  std::string file = read_file(python_file());
  std::vector<std::string> records = records_of(file);
  // Record 2's data CRC is its last 4 bytes.
  std::string bad = framed({records[0], records[1], records[2]});
  bad.back() ^= 0x40;
  bad += framed({records.begin() + 3, records.end()});
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(bad); }, TF_DATA_LOSS,
                           {"record 2", "CRC mismatch of the data"}));
  // A bit of record 3's data.
  bad = framed({records[0], records[1], records[2]});
  size_t record3 = bad.size();
  bad += file.substr(record3);
  bad[record3 + 12 + 3] ^= 1;
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(bad); }, TF_DATA_LOSS,
                           {"record 3", "CRC mismatch of the data"}));
}

TEST_F(WarmupTest, TruncatedFileNamesTheLastRecord) {
  std::string file = read_file(python_file());
  size_t records = records_of(file).size();
  TempDir dir;
  write_file(dir.path() / "warmup", file.substr(0, file.size() - 7));
  EXPECT_TRUE(throws_error([&] { read_warmup_requests(dir.path() / "warmup"); }, TF_DATA_LOSS,
                           {(dir.path() / "warmup").string(), "record " + std::to_string(records - 1), "truncated"}));
}

TEST_F(WarmupTest, WrongLengthNamesTheRecord) {
  std::vector<std::string> records = records_of(read_file(python_file()));
  // Record 1's length one short, its length CRC recomputed: the data CRC is read one byte early.
  std::string header;
  for (int i = 0; i < 8; ++i) header.push_back(static_cast<char>(((records[1].size() - 1) >> (8 * i)) & 0xff));
  header += le32(tfrecord::masked_crc32c(header));
  std::string bad = framed({records[0]}) + header + framed({records[1]}).substr(12);
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(bad); }, TF_DATA_LOSS, {"record 1", "CRC mismatch"}));
  // The length of the whole file and more: truncated.
  header.assign(8, '\0');
  header[0] = static_cast<char>(0xff);
  header[1] = static_cast<char>(0xff);
  header += le32(tfrecord::masked_crc32c(header));
  std::string file = framed({records[0]}) + header + records[1];
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(file); }, TF_DATA_LOSS, {"record 1", "truncated"}));
}

TEST_F(WarmupTest, UnknownDtypeNamesTheRecordAndInput) {
  std::vector<std::string> records = records_of(read_file(python_file()));
  std::string bad = message([](wire::Writer& w) {
    w.varint(1, 99);
    w.bytes(2, shape({1, 3}));
  });
  records.insert(records.begin() + 4, predict_log("float32", bad));
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(framed(records)); }, TF_INVALID_ARGUMENT,
                           {"warm-up record 4", "input \"x\"", "unknown dtype 99"}));
  records[4] = predict_log("float32", message([](wire::Writer& w) { w.bytes(2, shape({1})); }));
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(framed(records)); }, TF_INVALID_ARGUMENT,
                           {"warm-up record 4", "unknown dtype 0"}));
  records[4] = predict_log("float32", message([](wire::Writer& w) { w.varint(1, 20); }));  // RESOURCE
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(framed(records)); }, TF_INVALID_ARGUMENT,
                           {"warm-up record 4", "RESOURCE"}));
}

TEST_F(WarmupTest, ContentSizeNotMatchingTheShapeNamesTheRecord) {
  std::vector<std::string> records = records_of(read_file(python_file()));
  records[1] = predict_log("float32", float_tensor({2, 3}, std::string(20, '\0')));
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(framed(records)); }, TF_INVALID_ARGUMENT,
                           {"warm-up record 1", "input \"x\"", "needs 24 bytes, got 20"}));
}

TEST_F(WarmupTest, MoreValuesThanElementsAreRefused) {
  std::string proto = float_tensor({2}, "") + message([](wire::Writer& w) {
    w.bytes(5, le32(float_bits(1)) + le32(float_bits(2)) + le32(float_bits(3)));
  });
  EXPECT_TRUE(throws_error([&] { only_request(predict_log("f", proto)); }, TF_INVALID_ARGUMENT,
                           {"warm-up record 0", "float_val holds 3 values for 2 elements"}));
}

TEST_F(WarmupTest, TooManyRecordsNamesTheFirstOneOver) {
  std::vector<std::string> one = records_of(read_file(python_file()));
  std::vector<std::string> records(kMaxWarmupRecords, one[0]);
  EXPECT_EQ(parse_warmup_requests(framed(records)).size(), kMaxWarmupRecords);
  records.push_back(one[1]);
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(framed(records)); }, TF_INVALID_ARGUMENT,
                           {"warm-up record 1000", "at most 1000 records"}));
}

TEST_F(WarmupTest, OtherLogTypesAreRefusedByName) {
  std::vector<std::string> records = records_of(read_file(python_file()));
  const std::pair<uint32_t, const char*> logs[] = {
      {2, "classify_log"}, {3, "regress_log"}, {4, "multi_inference_log"}, {5, "session_run_log"},
      {7, "predict_streamed_log"}};
  for (auto [field, name] : logs) {
    records[3] = message([&](wire::Writer& w) { w.bytes(field, ""); });
    EXPECT_TRUE(throws_error([&] { parse_warmup_requests(framed(records)); }, TF_UNIMPLEMENTED,
                             {"warm-up record 3", name, "only predict_log"}));
  }
}

TEST_F(WarmupTest, MalformedMessageNamesTheRecord) {
  std::vector<std::string> records = records_of(read_file(python_file()));
  records[2].pop_back();  // the end of the last field
  EXPECT_TRUE(throws_error([&] { parse_warmup_requests(framed(records)); }, TF_DATA_LOSS,
                           {"warm-up record 2", "malformed protocol buffer"}));
}

TEST_F(WarmupTest, MissingFileIsNotFound) {
  TempDir dir;
  EXPECT_TRUE(throws_error([&] { read_warmup_requests(dir.path() / "absent"); }, TF_NOT_FOUND,
                           {"absent", "does not exist"}));
}

// ---- Encodings TensorFlow Python does not write ----------------------------------------------

TEST_F(WarmupTest, UnpackedValuesReadLikePacked) {
  // float_val as separate fixed32 fields (key 5<<3|5), int64_val as separate varints.
  std::string floats = float_tensor({3}, "");
  for (float f : {1.5f, -2.0f}) floats += std::string(1, static_cast<char>(5 << 3 | 5)) + le32(float_bits(f));
  WarmupRequest request = only_request(predict_log("sig", floats));
  const auto* x = static_cast<const float*>(request.inputs[0].second.data());
  EXPECT_EQ(std::vector<float>(x, x + 3), (std::vector<float>{1.5f, -2.0f, -2.0f}));  // last repeated

  std::string ints = message([](wire::Writer& w) {
    w.varint(1, TF_INT64);
    w.bytes(2, shape({2, 2}));
    w.varint(10, static_cast<uint64_t>(int64_t{-3}));
    w.bytes(10, "\x07\x80\x01");  // packed: 7, 128
    w.varint(10, 5);
  });
  request = only_request(predict_log("sig", ints));
  const auto* n = static_cast<const int64_t*>(request.inputs[0].second.data());
  EXPECT_EQ(std::vector<int64_t>(n, n + 4), (std::vector<int64_t>{-3, 7, 128, 5}));
}

TEST_F(WarmupTest, RequestWithoutSignatureRunsTheDefaultOne) {
  WarmupRequest request = only_request(predict_log("", float_tensor({1}, le32(float_bits(4)))));
  EXPECT_EQ(request.signature_name, "serving_default");
}

TEST_F(WarmupTest, EmptyLogIsSkippedAndIndexesStay) {
  std::vector<std::string> records = records_of(read_file(python_file()));
  records.insert(records.begin() + 1, "");
  std::vector<WarmupRequest> requests = parse_warmup_requests(framed(records));
  ASSERT_EQ(requests.size(), records.size() - 1);
  EXPECT_EQ(requests[0].record_index, 0u);
  EXPECT_EQ(requests[1].record_index, 2u);
}

TEST_F(WarmupTest, RepeatedValueCannotAskForAHugeTensor) {
  std::string proto = message([](wire::Writer& w) {
    w.varint(1, TF_FLOAT);
    w.bytes(2, shape({1 << 20, 1 << 20}));
    w.bytes(5, le32(float_bits(1)));
  });
  EXPECT_TRUE(throws_error([&] { only_request(predict_log("f", proto)); }, TF_INVALID_ARGUMENT,
                           {"warm-up record 0", "more than the limit of 1073741824 bytes"}));
  std::string strings = message([](wire::Writer& w) {
    w.varint(1, TF_STRING);
    w.bytes(2, shape({1 << 20}));
    w.bytes(8, std::string(2048, 's'));
  });
  EXPECT_TRUE(throws_error([&] { only_request(predict_log("f", strings)); }, TF_INVALID_ARGUMENT,
                           {"STRING tensor of shape [1048576]", "more than the limit"}));
}

}  // namespace
}  // namespace tfjni::test
