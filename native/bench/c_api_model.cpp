#include "c_api_model.h"

#include <tensorflow/c/tf_tstring.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace floor_bench {
namespace {

void check(TF_Status* status, const std::string& what) {
  if (TF_GetCode(status) != TF_OK) throw std::runtime_error(what + ": " + TF_Message(status));
}

// The strings live in our own 64-byte aligned buffer of TF_TStrings, freed with
// each element's own storage when TensorFlow lets go of the tensor.
void free_strings(void* data, size_t length, void*) {
  auto* strings = static_cast<TF_TString*>(data);
  for (size_t i = 0; i < length / sizeof(TF_TString); ++i) TF_StringDealloc(&strings[i]);
  std::free(data);
}

TensorPtr string_tensor(const BenchCase& c) {
  const size_t count = c.input_strings.size();
  const size_t bytes = count * sizeof(TF_TString);
  const size_t padded = (bytes + 63) / 64 * 64;
  auto* strings = static_cast<TF_TString*>(std::aligned_alloc(64, padded == 0 ? 64 : padded));
  if (strings == nullptr) throw std::bad_alloc();
  for (size_t i = 0; i < count; ++i) {
    TF_StringInit(&strings[i]);
    TF_StringCopy(&strings[i], c.input_strings[i].data(), c.input_strings[i].size());
  }
  return TensorPtr(TF_NewTensor(TF_STRING, c.input_shape.data(), static_cast<int>(c.input_shape.size()),
                                strings, bytes, free_strings, nullptr));
}

TensorPtr float_tensor(const BenchCase& c) {
  const size_t bytes = c.input_floats.size() * sizeof(float);
  TensorPtr t(TF_AllocateTensor(TF_FLOAT, c.input_shape.data(), static_cast<int>(c.input_shape.size()), bytes));
  std::memcpy(TF_TensorData(t.get()), c.input_floats.data(), bytes);
  return t;
}

}  // namespace

// intra_op_parallelism_threads (field 2) and inter_op_parallelism_threads
// (field 5), both varints, in field order. A negative int32 (inter-op -1: ops
// on the calling thread) is sign-extended to 64 bits, 10 bytes, as protobuf
// writes it.
std::string thread_config(int intra_op_threads, int inter_op_threads) {
  std::string proto;
  auto varint_field = [&proto](unsigned field, int value) {
    proto.push_back(static_cast<char>(field << 3));  // wire type 0: varint
    auto v = static_cast<uint64_t>(static_cast<int64_t>(value));
    do {
      unsigned char low = v & 0x7f;
      v >>= 7;
      proto.push_back(static_cast<char>(v ? low | 0x80 : low));
    } while (v);
  };
  varint_field(2, intra_op_threads);
  varint_field(5, inter_op_threads);
  return proto;
}

TF_Output find_tensor(TF_Graph* graph, const std::string& name) {
  size_t colon = name.rfind(':');
  std::string op_name = name.substr(0, colon);
  int index = colon == std::string::npos ? 0 : std::stoi(name.substr(colon + 1));
  TF_Operation* op = TF_GraphOperationByName(graph, op_name.c_str());
  if (op == nullptr) throw std::runtime_error("no operation " + op_name + " in the graph");
  return TF_Output{op, index};
}

void SessionDeleter::operator()(TF_Session* s) const {
  StatusPtr status(TF_NewStatus());
  TF_CloseSession(s, status.get());
  TF_DeleteSession(s, status.get());
}

CApiModel::CApiModel(const BenchCase& bench_case, int intra_op_threads, int inter_op_threads)
    : case_(bench_case), graph_(TF_NewGraph()) {
  StatusPtr status(TF_NewStatus());
  std::unique_ptr<TF_SessionOptions, void (*)(TF_SessionOptions*)> options(TF_NewSessionOptions(),
                                                                          TF_DeleteSessionOptions);
  const std::string config = thread_config(intra_op_threads, inter_op_threads);
  TF_SetConfig(options.get(), config.data(), config.size(), status.get());
  check(status.get(), "TF_SetConfig");
  const char* tags[] = {"serve"};
  session_.reset(TF_LoadSessionFromSavedModel(options.get(), nullptr, case_.model_dir.c_str(), tags, 1, graph_.get(),
                                              nullptr, status.get()));
  check(status.get(), "loading " + case_.model_dir);
  input_ = find_tensor(graph_.get(), case_.input_tensor);
  output_ = find_tensor(graph_.get(), case_.output_tensor);
}

TensorPtr CApiModel::make_input() const { return case_.string_input ? string_tensor(case_) : float_tensor(case_); }

TensorPtr CApiModel::run(TF_Tensor* input) const {
  StatusPtr status(TF_NewStatus());
  TF_Tensor* output = nullptr;
  TF_SessionRun(session_.get(), nullptr, &input_, &input, 1, &output_, &output, 1, nullptr, 0, nullptr, status.get());
  check(status.get(), "running " + case_.name);
  return TensorPtr(output);
}

void CApiModel::check_output() const {
  TensorPtr input = make_input();
  TensorPtr output = run(input.get());
  if (TF_TensorType(output.get()) != TF_FLOAT) throw std::runtime_error(case_.name + ": output is not float32");
  const int rank = TF_NumDims(output.get());
  std::vector<int64_t> shape(static_cast<size_t>(rank));
  for (int i = 0; i < rank; ++i) shape[static_cast<size_t>(i)] = TF_Dim(output.get(), i);
  if (shape != case_.output_shape) throw std::runtime_error(case_.name + ": output shape differs from TF Python's");
  check_against_python(case_, static_cast<const float*>(TF_TensorData(output.get())));
}

}  // namespace floor_bench
