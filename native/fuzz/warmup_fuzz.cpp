// The warm-up file reader on arbitrary bytes. The first byte picks what the rest is: a whole
// TFRecord file (the framing and CRCs under test), or one PredictionLog record that the target
// frames itself with valid CRCs, so mutations reach the protocol-buffer and tensor reading
// rather than dying at the CRC check. Either way it parses or throws DATA_LOSS,
// INVALID_ARGUMENT or UNIMPLEMENTED; what it parses is checked against the input: record
// indexes in order and inside the file, tensors within the byte limit and the shape's size, and
// the requests written back as PredictionLogs (tensor_content, string_val) read back the same.
#include <tensorflow/c/tf_tstring.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "tfjni/dtype.h"
#include "tfjni/tensor.h"
#include "tfjni/tfrecord.h"
#include "tfjni/warmup.h"
#include "tfjni/wire_format.h"

namespace {

using tfjni::fuzz::check;
using tfjni::fuzz::fail;

// Small enough that repeated values cannot make one input slow.
constexpr tfjni::WarmupLimits kLimits{tfjni::kMaxWarmupRecords, 1 << 20};

bool parses(std::string_view file, std::vector<tfjni::WarmupRequest>& requests) {
  try {
    requests = tfjni::parse_warmup_requests(file, kLimits);
    return true;
  } catch (const tfjni::Error& e) {
    if (e.code() != TF_DATA_LOSS && e.code() != TF_INVALID_ARGUMENT && e.code() != TF_UNIMPLEMENTED) {
      fail(std::string("unexpected ") + tfjni::code_name(e.code()) + ": " + e.what());
    }
    if (std::string_view(e.what()).find("record ") == std::string_view::npos) {
      fail(std::string("an error names no record: ") + e.what());
    }
    return false;
  }
}

size_t record_count(std::string_view file) {
  size_t count = 0;
  tfjni::tfrecord::Reader reader(file);
  while (reader.next()) ++count;
  return count;
}

std::string tensor_proto(const tfjni::Tensor& t) {
  tfjni::wire::Writer shape;
  for (int i = 0; i < t.rank(); ++i) {
    tfjni::wire::Writer dim;
    dim.varint(1, static_cast<uint64_t>(t.dim(i)));
    shape.bytes(2, dim.data());
  }
  tfjni::wire::Writer w;
  w.varint(1, static_cast<uint64_t>(t.dtype()));
  w.bytes(2, shape.data());
  if (t.dtype() == TF_STRING) {
    for (int64_t i = 0; i < t.num_elements(); ++i) w.bytes(8, t.string_at(i));
  } else {
    w.bytes(4, {static_cast<const char*>(t.data()), t.byte_size()});
  }
  return w.data();
}

std::string prediction_log(const tfjni::WarmupRequest& r) {
  tfjni::wire::Writer spec;
  spec.bytes(3, r.signature_name);
  tfjni::wire::Writer request;
  request.bytes(1, spec.data());
  for (const auto& [name, tensor] : r.inputs) {
    tfjni::wire::Writer entry;
    entry.bytes(1, name);
    entry.bytes(2, tensor_proto(tensor));
    request.bytes(2, entry.data());
  }
  for (const std::string& output : r.output_filter) request.bytes(3, output);
  tfjni::wire::Writer predict_log;
  predict_log.bytes(1, request.data());
  tfjni::wire::Writer log;
  log.bytes(6, predict_log.data());
  return log.data();
}

bool same_tensor(const tfjni::Tensor& a, const tfjni::Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() != TF_STRING) return a.byte_size() == b.byte_size() && std::memcmp(a.data(), b.data(), a.byte_size()) == 0;
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    if (a.string_at(i) != b.string_at(i)) return false;
  }
  return true;
}

void check_requests(const std::vector<tfjni::WarmupRequest>& requests, size_t records) {
  for (size_t i = 0; i < requests.size(); ++i) {
    check(requests[i].record_index < records, "a record index past the file's records");
    check(i == 0 || requests[i].record_index > requests[i - 1].record_index, "record indexes out of order");
    check(!requests[i].signature_name.empty(), "an empty signature name");
    for (const auto& [name, tensor] : requests[i].inputs) {
      uint64_t element = tensor.dtype() == TF_STRING ? sizeof(TF_TString) : tfjni::dtype_size(tensor.dtype());
      check(element > 0, "a tensor of a dtype without a size");
      check(static_cast<uint64_t>(tensor.num_elements()) * element <= kLimits.max_tensor_bytes, "a tensor over the limit");
      check(tensor.byte_size() == static_cast<uint64_t>(tensor.num_elements()) * element, "a tensor's size is not its shape's");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string file = (data[0] & 1) ? tfjni::tfrecord::frame(rest) : std::string(rest);

  std::vector<tfjni::WarmupRequest> requests;
  if (!parses(file, requests)) return 0;
  check_requests(requests, record_count(file));

  std::string written;
  for (const tfjni::WarmupRequest& r : requests) written += tfjni::tfrecord::frame(prediction_log(r));
  std::vector<tfjni::WarmupRequest> reread;
  check(parses(written, reread), "the requests written back do not parse");
  check(reread.size() == requests.size(), "a different number of requests read back");
  for (size_t i = 0; i < requests.size(); ++i) {
    check(reread[i].signature_name == requests[i].signature_name, "signature changed");
    check(reread[i].output_filter == requests[i].output_filter, "output filter changed");
    check(reread[i].inputs.size() == requests[i].inputs.size(), "inputs changed");
    for (size_t k = 0; k < requests[i].inputs.size(); ++k) {
      check(reread[i].inputs[k].first == requests[i].inputs[k].first, "an input's name changed");
      check(same_tensor(reread[i].inputs[k].second, requests[i].inputs[k].second), "an input's tensor changed");
    }
  }
  return 0;
}
