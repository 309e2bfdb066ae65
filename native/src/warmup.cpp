#include "tfjni/warmup.h"

#include <algorithm>
#include <fstream>
#include <system_error>

#include "tfjni/error.h"
#include "tfjni/tensor_proto.h"
#include "tfjni/tfrecord.h"
#include "tfjni/utf8_path.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

// Field numbers from TensorFlow Serving's prediction_log.proto, predict.proto and model.proto.
constexpr uint32_t kClassifyLog = 2;
constexpr uint32_t kRegressLog = 3;
constexpr uint32_t kMultiInferenceLog = 4;
constexpr uint32_t kSessionRunLog = 5;
constexpr uint32_t kPredictLog = 6;
constexpr uint32_t kPredictStreamedLog = 7;
constexpr uint32_t kPredictLogRequest = 1;
constexpr uint32_t kRequestModelSpec = 1;
constexpr uint32_t kRequestInputs = 2;
constexpr uint32_t kRequestOutputFilter = 3;
constexpr uint32_t kModelSpecSignatureName = 3;
constexpr uint32_t kMapKey = 1;
constexpr uint32_t kMapValue = 2;

const char* log_name(uint32_t field) {
  switch (field) {
    case kClassifyLog: return "classify_log";
    case kRegressLog: return "regress_log";
    case kMultiInferenceLog: return "multi_inference_log";
    case kSessionRunLog: return "session_run_log";
    case kPredictStreamedLog: return "predict_streamed_log";
    default: return "predict_log";
  }
}

// Runs `body`; an Error it throws gains `context` before its message, keeping its code.
template <typename Body>
auto with_context(const std::string& context, Body&& body) {
  try {
    return body();
  } catch (const Error& e) {
    throw_error(e.code(), context + ": " + e.what());
  }
}

// A singular field given more than once: the last occurrence is read (protobuf would merge the
// occurrences of a message; its writers never write one twice).
std::string_view last_bytes(std::string_view message, uint32_t field) {
  std::string_view found;
  wire::Reader reader(message);
  while (reader.next()) {
    if (reader.field() == field) found = reader.bytes();
  }
  return found;
}

std::string signature_of(std::string_view model_spec) {
  std::string name(last_bytes(model_spec, kModelSpecSignatureName));
  return name.empty() ? std::string(kDefaultSignature) : name;
}

void add_input(std::string_view entry, WarmupRequest& request, const WarmupLimits& limits) {
  std::string key;
  std::string_view value;
  wire::Reader reader(entry);
  while (reader.next()) {
    if (reader.field() == kMapKey) key = reader.bytes();
    if (reader.field() == kMapValue) value = reader.bytes();
  }
  Tensor tensor = with_context("input \"" + key + "\"",
                               [&] { return tensor_from_proto(value, limits.max_tensor_bytes); });
  auto same_key = [&](const auto& input) { return input.first == key; };
  auto it = std::find_if(request.inputs.begin(), request.inputs.end(), same_key);
  if (it != request.inputs.end()) {
    it->second = std::move(tensor);
  } else {
    request.inputs.emplace_back(std::move(key), std::move(tensor));
  }
}

WarmupRequest parse_request(std::string_view bytes, size_t index, const WarmupLimits& limits) {
  WarmupRequest request;
  request.record_index = index;
  request.signature_name = kDefaultSignature;
  wire::Reader reader(bytes);
  while (reader.next()) {
    switch (reader.field()) {
      case kRequestModelSpec: request.signature_name = signature_of(reader.bytes()); break;
      case kRequestInputs: add_input(reader.bytes(), request, limits); break;
      case kRequestOutputFilter: request.output_filter.emplace_back(reader.bytes()); break;
      default: break;
    }
  }
  return request;
}

// The log_type oneof of a PredictionLog: the field of the last log given, 0 for none.
uint32_t log_type(std::string_view prediction_log, std::string_view& log) {
  uint32_t type = 0;
  wire::Reader reader(prediction_log);
  while (reader.next()) {
    if (reader.field() >= kClassifyLog && reader.field() <= kPredictStreamedLog) {
      type = reader.field();
      log = reader.bytes();
    }
  }
  return type;
}

}  // namespace

std::vector<WarmupRequest> parse_warmup_requests(std::string_view file, const WarmupLimits& limits) {
  std::vector<WarmupRequest> requests;
  tfrecord::Reader records(file);
  while (records.next()) {
    const size_t index = records.index();
    const std::string context = "warm-up record " + std::to_string(index);
    if (index >= limits.max_records) {
      throw_invalid_argument(context + ": a warm-up file holds at most " +
                             std::to_string(limits.max_records) + " records");
    }
    with_context(context, [&] {
      std::string_view log;
      uint32_t type = log_type(records.data(), log);
      if (type == 0) return;  // TensorFlow Serving runs nothing for an empty log
      if (type != kPredictLog) {
        throw_error(TF_UNIMPLEMENTED, std::string("a ") + log_name(type) +
                                          " is not supported, only predict_log (a PredictRequest)");
      }
      requests.push_back(parse_request(last_bytes(log, kPredictLogRequest), index, limits));
    });
  }
  return requests;
}

std::vector<WarmupRequest> read_warmup_requests(const std::filesystem::path& file,
                                                const WarmupLimits& limits) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    throw_error(TF_NOT_FOUND, "warm-up file " + utf8_string(file) + " does not exist");
  }
  std::string bytes(static_cast<size_t>(std::filesystem::file_size(file, error)), '\0');
  std::ifstream in(file, std::ios::binary);
  if (error || !in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    throw_error(TF_DATA_LOSS, "could not read the warm-up file " + utf8_string(file));
  }
  return with_context(utf8_string(file), [&] { return parse_warmup_requests(bytes, limits); });
}

}  // namespace tfjni
