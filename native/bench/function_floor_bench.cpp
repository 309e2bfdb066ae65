// An alternative floor: the SavedModel signature's function called through
// TensorFlow's eager runtime (TFE) instead of TF_SessionRun, side by side with
// the session floor of model_floor_bench, C API only (no tfjni code).
//
// The session's serving graph calls the signature's concrete function with one
// StatefulPartitionedCall node whose inputs are the signature's inputs, then
// the captured variables (VarHandleOp resources). Here that function, with the
// rest of the graph's function library, is registered in an eager context with
// the same ConfigProto; each variable gets an eager resource holding the value
// the session restored (read once through the session); then one call is
// TFE_Execute of an op named after the function, fed the input and those
// resources, followed by resolving, copying and freeing the output as the
// session floor does.
//
//   function_floor_bench --models=PATH --cases=mlp_b1,cnn_b1 [--inter_op_threads=-1]
//                        [--rounds=5] [--round_time=1] [--threads=1,2,4]
//   function_floor_bench ... --count=session|function --calls=N --warmup=N
//                        (under valgrind --tool=callgrind: the "measured" dump)
//
// Timing: each round runs every contender for --round_time seconds on one
// thread, timing every call, in an order rotated per round so that drift hits
// both alike; then calls/s with each --threads count of callers sharing one
// model (each caller its own input and op). Prints one JSON line per contender,
// case and thread count.
#include <tensorflow/c/c_api.h>
#include <tensorflow/c/eager/c_api.h>
#include <tensorflow/c/eager/c_api_experimental.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_main.h"
#include "bench_manifest.h"
#include "c_api_model.h"

namespace floor_bench {
namespace {

void check(TF_Status* status, const std::string& what) {
  if (TF_GetCode(status) != TF_OK) throw std::runtime_error(what + ": " + TF_Message(status));
}

struct ContextDeleter {
  void operator()(TFE_Context* c) const { TFE_DeleteContext(c); }
};
struct HandleDeleter {
  void operator()(TFE_TensorHandle* h) const { TFE_DeleteTensorHandle(h); }
};
struct OpDeleter {
  void operator()(TFE_Op* op) const { TFE_DeleteOp(op); }
};
using HandlePtr = std::unique_ptr<TFE_TensorHandle, HandleDeleter>;
using OpPtr = std::unique_ptr<TFE_Op, OpDeleter>;

// Reads a protobuf varint at `pos`, advancing it.
uint64_t read_varint(const std::string& bytes, size_t& pos) {
  uint64_t value = 0;
  for (int shift = 0; pos < bytes.size() && shift < 64; shift += 7) {
    auto byte = static_cast<unsigned char>(bytes[pos++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  throw std::runtime_error("malformed varint in an AttrValue");
}

// The bytes of the first length-delimited field `field` of a serialized message.
std::string length_delimited_field(const std::string& message, uint32_t field) {
  size_t pos = 0;
  while (pos < message.size()) {
    const uint64_t tag = read_varint(message, pos);
    const auto wire_type = static_cast<unsigned>(tag & 7);
    if (wire_type == 2) {
      const uint64_t length = read_varint(message, pos);
      if (length > message.size() - pos) throw std::runtime_error("truncated field in an AttrValue");
      if ((tag >> 3) == field) return message.substr(pos, length);
      pos += length;
    } else if (wire_type == 0) {
      read_varint(message, pos);
    } else if (wire_type == 1) {
      pos += 8;
    } else if (wire_type == 5) {
      pos += 4;
    } else {
      throw std::runtime_error("unexpected wire type in an AttrValue");
    }
  }
  throw std::runtime_error("field " + std::to_string(field) + " not found");
}

// The name of the function a (Stateful)PartitionedCall node calls: its "f"
// attribute, an AttrValue whose field 10 (func, a NameAttrList) has the name
// in field 1.
std::string called_function(TF_Operation* call) {
  StatusPtr status(TF_NewStatus());
  std::unique_ptr<TF_Buffer, void (*)(TF_Buffer*)> buffer(TF_NewBuffer(), TF_DeleteBuffer);
  TF_OperationGetAttrValueProto(call, "f", buffer.get(), status.get());
  check(status.get(), std::string("attribute f of ") + TF_OperationName(call));
  const std::string attr(static_cast<const char*>(buffer->data), buffer->length);
  return length_delimited_field(length_delimited_field(attr, 10), 1);
}

// The signature's function in an eager context, with its captured variables.
class EagerFunction {
 public:
  EagerFunction(const CApiModel& model, const BenchCase& c, int intra_op_threads, int inter_op_threads) {
    StatusPtr status(TF_NewStatus());
    TF_Graph* graph = model.graph();
    const TF_Output output = find_tensor(graph, c.output_tensor);
    TF_Operation* call = output.oper;
    const std::string call_type = TF_OperationOpType(call);
    if (call_type != "StatefulPartitionedCall" && call_type != "PartitionedCall") {
      throw std::runtime_error(c.output_tensor + " is not the output of a function call but of a " + call_type);
    }
    function_name_ = called_function(call);
    output_index_ = output.index;
    num_outputs_ = TF_OperationNumOutputs(call);

    std::unique_ptr<TFE_ContextOptions, void (*)(TFE_ContextOptions*)> options(TFE_NewContextOptions(),
                                                                              TFE_DeleteContextOptions);
    const std::string config = thread_config(intra_op_threads, inter_op_threads);
    TFE_ContextOptionsSetConfig(options.get(), config.data(), config.size(), status.get());
    check(status.get(), "TFE_ContextOptionsSetConfig");
    TFE_ContextOptionsSetAsync(options.get(), 0);
    context_.reset(TFE_NewContext(options.get(), status.get()));
    check(status.get(), "TFE_NewContext");

    // Every function of the graph's library: the signature's calls others.
    std::vector<TF_Function*> functions(static_cast<size_t>(TF_GraphNumFunctions(graph)));
    const int got = TF_GraphGetFunctions(graph, functions.data(), static_cast<int>(functions.size()), status.get());
    check(status.get(), "TF_GraphGetFunctions");
    for (int i = 0; i < got; ++i) {
      TFE_ContextAddFunction(context_.get(), functions[static_cast<size_t>(i)], status.get());
      TF_DeleteFunction(functions[static_cast<size_t>(i)]);
      check(status.get(), "TFE_ContextAddFunction");
    }

    // The call's inputs: the feed, then the captured variables.
    const TF_Output feed = find_tensor(graph, c.input_tensor);
    const int num_inputs = TF_OperationNumInputs(call);
    std::vector<TF_Output> variables;
    for (int i = 0; i < num_inputs; ++i) {
      const TF_Output source = TF_OperationInput(TF_Input{call, i});
      if (source.oper == feed.oper && source.index == feed.index) {
        if (i != 0) throw std::runtime_error("the feed is not the call's first input");
        continue;
      }
      if (std::string(TF_OperationOpType(source.oper)) != "VarHandleOp") {
        throw std::runtime_error(std::string("input ") + std::to_string(i) + " of the call is a " +
                                 TF_OperationOpType(source.oper) + ", not a variable");
      }
      variables.push_back(source);
    }
    const std::vector<TensorPtr> values = read_variables(model, variables);
    for (size_t i = 0; i < variables.size(); ++i) {
      variables_.push_back(eager_variable("floor_variable_" + std::to_string(i), values[i].get()));
    }
  }

  TFE_Context* context() const { return context_.get(); }

  // One caller's prepared op and input (TFE_Op is not thread-safe).
  class Caller {
   public:
    Caller(const EagerFunction& f, TF_Tensor* input) : f_(f) {
      StatusPtr status(TF_NewStatus());
      input_.reset(TFE_NewTensorHandle(input, status.get()));
      check(status.get(), "TFE_NewTensorHandle");
      op_.reset(TFE_NewOp(f.context(), f.function_name_.c_str(), status.get()));
      check(status.get(), "TFE_NewOp " + f.function_name_);
      retvals_.resize(static_cast<size_t>(f.num_outputs_));
    }

    // Runs the function; copies output into `into`. False on failure (message in status).
    bool call(std::vector<float>& into, TF_Status* status) {
      TFE_OpReset(op_.get(), f_.function_name_.c_str(), nullptr, status);
      if (TF_GetCode(status) != TF_OK) return false;
      TFE_OpAddInput(op_.get(), input_.get(), status);
      for (const HandlePtr& v : f_.variables_) TFE_OpAddInput(op_.get(), v.get(), status);
      int count = f_.num_outputs_;
      TFE_Execute(op_.get(), retvals_.data(), &count, status);
      if (TF_GetCode(status) != TF_OK) return false;
      TF_Tensor* output = TFE_TensorHandleResolve(retvals_[static_cast<size_t>(f_.output_index_)], status);
      const bool ok = TF_GetCode(status) == TF_OK;
      if (ok) {
        std::memcpy(into.data(), TF_TensorData(output),
                    std::min(TF_TensorByteSize(output), into.size() * sizeof(float)));
        TF_DeleteTensor(output);
      }
      for (int i = 0; i < count; ++i) TFE_DeleteTensorHandle(retvals_[static_cast<size_t>(i)]);
      return ok;
    }

   private:
    const EagerFunction& f_;
    HandlePtr input_;
    OpPtr op_;
    std::vector<TFE_TensorHandle*> retvals_;
  };

 private:
  // Each variable's value as the session restored it, through a ReadVariableOp
  // added to the graph (the session picks it up at the next run).
  static std::vector<TensorPtr> read_variables(const CApiModel& model, const std::vector<TF_Output>& variables) {
    StatusPtr status(TF_NewStatus());
    std::vector<TF_Output> reads;
    for (size_t i = 0; i < variables.size(); ++i) {
      TF_DataType dtype;
      TF_OperationGetAttrType(variables[i].oper, "dtype", &dtype, status.get());
      check(status.get(), "dtype of a variable");
      const std::string name = "function_floor_read_" + std::to_string(i);
      TF_OperationDescription* read = TF_NewOperation(model.graph(), "ReadVariableOp", name.c_str());
      TF_AddInput(read, variables[i]);
      TF_SetAttrType(read, "dtype", dtype);
      reads.push_back(TF_Output{TF_FinishOperation(read, status.get()), 0});
      check(status.get(), "adding " + name);
    }
    std::vector<TF_Tensor*> raw(reads.size(), nullptr);
    TF_SessionRun(model.session(), nullptr, nullptr, nullptr, 0, reads.data(), raw.data(), static_cast<int>(reads.size()),
                  nullptr, 0, nullptr, status.get());
    std::vector<TensorPtr> values;
    for (TF_Tensor* t : raw) values.emplace_back(t);
    check(status.get(), "reading the variables");
    return values;
  }

  // A resource variable of the eager context holding `value`.
  HandlePtr eager_variable(const std::string& shared_name, TF_Tensor* value) {
    StatusPtr status(TF_NewStatus());
    const TF_DataType dtype = TF_TensorType(value);
    std::vector<int64_t> dims(static_cast<size_t>(TF_NumDims(value)));
    for (size_t d = 0; d < dims.size(); ++d) dims[d] = TF_Dim(value, static_cast<int>(d));
    OpPtr handle_op(TFE_NewOp(context_.get(), "VarHandleOp", status.get()));
    check(status.get(), "VarHandleOp");
    TFE_OpSetAttrType(handle_op.get(), "dtype", dtype);
    TFE_OpSetAttrShape(handle_op.get(), "shape", dims.data(), static_cast<int>(dims.size()), status.get());
    check(status.get(), "VarHandleOp shape");
    TFE_OpSetAttrString(handle_op.get(), "shared_name", shared_name.data(), shared_name.size());
    TFE_TensorHandle* resource = nullptr;
    int count = 1;
    TFE_Execute(handle_op.get(), &resource, &count, status.get());
    check(status.get(), "VarHandleOp");
    HandlePtr variable(resource);

    HandlePtr value_handle(TFE_NewTensorHandle(value, status.get()));
    check(status.get(), "TFE_NewTensorHandle");
    OpPtr assign(TFE_NewOp(context_.get(), "AssignVariableOp", status.get()));
    check(status.get(), "AssignVariableOp");
    TFE_OpAddInput(assign.get(), variable.get(), status.get());
    TFE_OpAddInput(assign.get(), value_handle.get(), status.get());
    TFE_OpSetAttrType(assign.get(), "dtype", dtype);
    count = 0;
    TFE_Execute(assign.get(), nullptr, &count, status.get());
    check(status.get(), "AssignVariableOp");
    return variable;
  }

  std::unique_ptr<TFE_Context, ContextDeleter> context_;
  std::string function_name_;
  int output_index_ = 0, num_outputs_ = 1;
  std::vector<HandlePtr> variables_;  // destroyed before the context
};

// The session floor, as model_floor_bench calls it.
class SessionCaller {
 public:
  SessionCaller(const CApiModel& model, TF_Tensor* input) : model_(model), input_(input) {}
  bool call(std::vector<float>& into, TF_Status* status) {
    TF_Tensor* output = nullptr;
    TF_SessionRun(model_.session(), nullptr, &model_.input(), &input_, 1, &model_.output(), &output, 1, nullptr, 0,
                  nullptr, status);
    if (TF_GetCode(status) != TF_OK) return false;
    std::memcpy(into.data(), TF_TensorData(output), std::min(TF_TensorByteSize(output), into.size() * sizeof(float)));
    TF_DeleteTensor(output);
    return true;
  }

 private:
  const CApiModel& model_;
  TF_Tensor* input_;
};

struct Options {
  std::string models, count;
  std::vector<std::string> cases{"mlp_b1", "cnn_b1"};
  std::vector<int> threads{1, 2, 4};
  int intra_op_threads = 2, inter_op_threads = -1, rounds = 5;
  double round_time = 1;
  long calls = 2000, warmup = 200;
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq), value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (name == "--models") o.models = value;
    else if (name == "--cases") o.cases = split(value);
    else if (name == "--threads") {
      o.threads.clear();
      for (const std::string& t : split(value)) o.threads.push_back(std::stoi(t));
    } else if (name == "--intra_op_threads") o.intra_op_threads = std::stoi(value);
    else if (name == "--inter_op_threads") o.inter_op_threads = std::stoi(value);
    else if (name == "--rounds") o.rounds = std::stoi(value);
    else if (name == "--round_time") o.round_time = std::stod(value);
    else if (name == "--count") o.count = value;
    else if (name == "--calls") o.calls = std::stol(value);
    else if (name == "--warmup") o.warmup = std::stol(value);
    else throw std::invalid_argument("unknown argument " + arg + " (see the comment atop function_floor_bench.cpp)");
  }
  if (o.models.empty()) throw std::invalid_argument("--models=PATH is needed");
  return o;
}

using Call = std::function<bool(std::vector<float>&, TF_Status*)>;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Per-call times of `call` on this thread for `seconds`, appended to `samples_us`.
void time_calls(const Call& call, std::vector<float>& into, double seconds, std::vector<double>& samples_us) {
  using Clock = std::chrono::steady_clock;
  StatusPtr status(TF_NewStatus());
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (Clock::time_point now = Clock::now(); now < end;) {
    if (!call(into, status.get())) throw std::runtime_error(TF_Message(status.get()));
    const Clock::time_point done = Clock::now();
    samples_us.push_back(std::chrono::duration<double, std::micro>(done - now).count());
    now = done;
  }
}

// Calls/s of `threads` callers, each with its own Call from `make`.
double throughput(const std::function<Call()>& make, size_t outputs, int threads, double seconds) {
  std::atomic<bool> stop{false};
  std::atomic<long> total{0};
  std::atomic<bool> failed{false};
  std::vector<std::thread> workers;
  std::atomic<int> ready{0};
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      Call call = make();
      std::vector<float> into(outputs);
      StatusPtr status(TF_NewStatus());
      for (int i = 0; i < 20; ++i) call(into, status.get());  // warm-up
      ready++;
      while (ready < threads) std::this_thread::yield();
      long n = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        if (!call(into, status.get())) {
          failed = true;
          break;
        }
        ++n;
      }
      total += n;
    });
  }
  while (ready < threads) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const auto start = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (std::thread& w : workers) w.join();
  if (failed) throw std::runtime_error("a call failed");
  return static_cast<double>(total) / std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const std::vector<BenchCase> cases = read_manifest(o.models);
  for (const std::string& name : o.cases) {
    const BenchCase& c = find_case(cases, name);
    CApiModel model(c, o.intra_op_threads, o.inter_op_threads);
    model.check_output();
    EagerFunction function(model, c, o.intra_op_threads, o.inter_op_threads);
    // Each caller keeps its input alive as long as its Call.
    auto make = [&](const std::string& contender) -> Call {
      auto input = std::make_shared<TensorPtr>(model.make_input());
      if (contender == "session") {
        auto caller = std::make_shared<SessionCaller>(model, input->get());
        return [input, caller](std::vector<float>& into, TF_Status* s) { return caller->call(into, s); };
      }
      auto caller = std::make_shared<EagerFunction::Caller>(function, input->get());
      return [input, caller](std::vector<float>& into, TF_Status* s) { return caller->call(into, s); };
    };
    const std::vector<std::string> contenders{"session", "function"};
    std::vector<float> output(c.expected.size());
    StatusPtr status(TF_NewStatus());
    for (const std::string& contender : contenders) {
      Call call = make(contender);
      std::fill(output.begin(), output.end(), 0.0f);
      if (!call(output, status.get())) throw std::runtime_error(TF_Message(status.get()));
      check_against_python(c, output.data());
    }
    if (!o.count.empty()) {
      Call call = make(o.count);
      for (long i = 0; i < o.warmup; ++i) call(output, status.get());
      CALLGRIND_ZERO_STATS;
      for (long i = 0; i < o.calls; ++i) call(output, status.get());
      CALLGRIND_DUMP_STATS_AT("measured");
      check_against_python(c, output.data());
      std::cout << "{\"contender\": \"" << o.count << "\", \"case\": \"" << name << "\", \"calls\": " << o.calls
                << ", \"inter_op_threads\": " << o.inter_op_threads << "}" << std::endl;
      continue;
    }
    std::vector<std::vector<double>> samples(contenders.size());
    std::vector<Call> calls;
    for (const std::string& contender : contenders) calls.push_back(make(contender));
    for (size_t k = 0; k < contenders.size(); ++k) time_calls(calls[k], output, o.round_time / 4, samples[k]);
    for (auto& s : samples) s.clear();
    for (int round = 0; round < o.rounds; ++round) {
      for (size_t j = 0; j < contenders.size(); ++j) {
        const size_t k = (j + static_cast<size_t>(round)) % contenders.size();
        time_calls(calls[k], output, o.round_time, samples[k]);
      }
    }
    calls.clear();
    for (int threads : o.threads) {
      std::vector<double> rate(contenders.size());
      for (size_t k = 0; k < contenders.size(); ++k) {
        rate[k] = throughput([&, k] { return make(contenders[k]); }, c.expected.size(), threads, o.round_time * 2);
      }
      for (size_t k = 0; k < contenders.size(); ++k) {
        std::cout << "{\"contender\": \"" << contenders[k] << "\", \"case\": \"" << name << "\", \"inter_op_threads\": "
                  << o.inter_op_threads << ", \"threads\": " << threads;
        if (threads == 1) std::cout << ", \"p50_us\": " << median(samples[k]) << ", \"calls_timed\": " << samples[k].size();
        std::cout << ", \"calls_per_s\": " << rate[k] << "}" << std::endl;
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace floor_bench

int main(int argc, char** argv) {
  return tfjni::bench::run_reporting_errors("function_floor_bench", argc, argv, floor_bench::run);
}
