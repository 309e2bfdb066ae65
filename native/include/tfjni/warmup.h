// TensorFlow Serving's warm-up file: <export dir>/assets.extra/tf_serving_warmup_requests, a
// TFRecord file of serialized tensorflow.serving.PredictionLog messages whose PredictRequests a
// server runs once (or num_request_iterations times) before a model version takes traffic.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tfjni/tensor.h"

namespace tfjni {

// The file's path inside a SavedModel directory.
inline constexpr std::string_view kWarmupFile = "assets.extra/tf_serving_warmup_requests";
// TensorFlow Serving refuses a file of more records (WarmupConsts::kMaxNumRecords).
inline constexpr size_t kMaxWarmupRecords = 1000;
// The signature a request that names none runs (TensorFlow Serving's default).
inline constexpr std::string_view kDefaultSignature = "serving_default";

// One PredictRequest of the file.
struct WarmupRequest {
  size_t record_index = 0;  // the record's position in the file, 0 for the first
  std::string signature_name;
  // The request's inputs map, in the order of the file (a key given twice: its last value).
  std::vector<std::pair<std::string, Tensor>> inputs;
  // The outputs to fetch; empty: every output of the signature.
  std::vector<std::string> output_filter;
};

struct WarmupLimits {
  size_t max_records = kMaxWarmupRecords;
  // Bytes one decoded tensor may take: a value repeated to fill a shape cannot make a few bytes
  // of a damaged file ask for terabytes.
  uint64_t max_tensor_bytes = uint64_t{1} << 30;
};

// The requests of a warm-up file's bytes. Records whose PredictionLog holds no log at all are
// skipped, as TensorFlow Serving skips them. Errors name the record's index: DATA_LOSS for a
// damaged record (CRC, truncation, malformed protocol buffer), INVALID_ARGUMENT for a tensor
// that cannot be built (tensor_proto.h) or more than max_records records, UNIMPLEMENTED for a
// PredictionLog other than predict_log (classify, regress, multi-inference, session-run and
// streamed logs: tfjni runs signatures with tensors only).
std::vector<WarmupRequest> parse_warmup_requests(std::string_view file, const WarmupLimits& limits = {});

// The same for a file on disk; errors also name the file. NOT_FOUND if it does not exist.
std::vector<WarmupRequest> read_warmup_requests(const std::filesystem::path& file,
                                                const WarmupLimits& limits = {});

}  // namespace tfjni
