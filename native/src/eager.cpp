#include "tfjni/eager.h"

#include <tensorflow/c/eager/c_api_experimental.h>

#include <array>

#include "tfjni/error.h"

namespace tfjni {
namespace {

struct ContextOptionsDeleter {
  void operator()(TFE_ContextOptions* o) const noexcept { TFE_DeleteContextOptions(o); }
};
struct DeviceListDeleter {
  void operator()(TF_DeviceList* l) const noexcept { TF_DeleteDeviceList(l); }
};

// TFE_Execute needs room for every output up front; ops with list outputs
// (Split, Unpack, ...) rarely have more than this many.
constexpr int kMaxOutputs = 1024;

}  // namespace

Context::Context(const ContextConfig& config) {
  // An async context runs every op on its executor's thread: it cannot honour
  // caller-thread execution, which a synchronous context gives every op anyway.
  if (config.async && config.session.runs_on_caller_thread()) {
    throw_invalid_argument(
        "inter-op threads -1 (run every op on the calling thread) needs a synchronous context: an "
        "async one runs ops on its executor thread");
  }
  std::unique_ptr<TFE_ContextOptions, ContextOptionsDeleter> options(TFE_NewContextOptions());
  std::string proto = config.session.serialize();
  Status status;
  if (!proto.empty()) {
    TFE_ContextOptionsSetConfig(options.get(), proto.data(), proto.size(), status.get());
    status.check();
  }
  TFE_ContextOptionsSetAsync(options.get(), config.async ? 1 : 0);
  TFE_ContextOptionsSetDevicePlacementPolicy(options.get(), config.placement);
  std::unique_ptr<TFE_Context, Native::Deleter> context(TFE_NewContext(options.get(), status.get()));
  status.check();
  native_ = std::make_shared<const Native>(context.get());  // counted from here on
  context.release();
}

std::vector<std::string> Context::devices() const {
  Status status;
  std::unique_ptr<TF_DeviceList, DeviceListDeleter> list(TFE_ContextListDevices(get(), status.get()));
  status.check();
  std::vector<std::string> names;
  int count = TF_DeviceListCount(list.get());
  for (int i = 0; i < count; ++i) {
    const char* name = TF_DeviceListName(list.get(), i, status.get());
    status.check();
    names.emplace_back(name);
  }
  return names;
}

std::vector<DeviceInfo> Context::device_infos() const {
  Status status;
  TF_DeviceList* list = TFE_ContextListDevices(get(), status.get());
  if (TF_GetCode(status.get()) != TF_OK) {
    if (list != nullptr) TF_DeleteDeviceList(list);
    status.check();
  }
  return describe_devices(list);
}

TensorHandle TensorHandle::from_tensor(const Tensor& tensor) {
  Status& status = thread_status();
  TFE_TensorHandle* handle = TFE_NewTensorHandle(tensor.get(), status.get());
  status.check();
  return TensorHandle(handle, nullptr);
}

TensorHandle TensorHandle::adopt(TFE_TensorHandle* handle, const Context& context) {
  if (handle == nullptr) throw_error(TF_INTERNAL, "TensorFlow returned a null tensor handle");
  return TensorHandle(handle, context.native_);  // one atomic increment
}

std::vector<int64_t> TensorHandle::shape() const {
  Status& status = thread_status();
  int rank = TFE_TensorHandleNumDims(handle_.get(), status.get());
  status.check();
  std::vector<int64_t> dims(static_cast<size_t>(rank));
  for (int i = 0; i < rank; ++i) {
    dims[static_cast<size_t>(i)] = TFE_TensorHandleDim(handle_.get(), i, status.get());
    status.check();
  }
  return dims;
}

std::string TensorHandle::device() const {
  Status& status = thread_status();
  const char* name = TFE_TensorHandleDeviceName(handle_.get(), status.get());
  status.check();
  return name;
}

Tensor TensorHandle::resolve() const {
  Status& status = thread_status();
  TF_Tensor* tensor = TFE_TensorHandleResolve(handle_.get(), status.get());
  status.check();
  return Tensor::adopt(tensor);
}

TensorHandle TensorHandle::copy_to_device(const Context& context, const std::string& device_name) const {
  Status& status = thread_status();
  TFE_TensorHandle* copy =
      TFE_TensorHandleCopyToDevice(handle_.get(), context.get(), device_name.c_str(), status.get());
  status.check();
  return adopt(copy, context);
}

Op::Op(const Context& context, const char* op_name) : context_(&context) {
  Status& status = thread_status();
  op_.reset(TFE_NewOp(context.get(), op_name, status.get()));
  status.check();
}

void Op::reset(const char* op_name) {
  Status& status = thread_status();
  TFE_OpReset(op_.get(), op_name, nullptr, status.get());
  status.check();
}

Op& Op::input(const TensorHandle& handle) {
  Status& status = thread_status();
  TFE_OpAddInput(op_.get(), handle.get(), status.get());
  status.check();
  return *this;
}

Op& Op::input_list(std::span<const TensorHandle* const> handles) {
  std::vector<TFE_TensorHandle*> raw;
  raw.reserve(handles.size());
  for (const TensorHandle* h : handles) raw.push_back(h->get());
  Status& status = thread_status();
  TFE_OpAddInputList(op_.get(), raw.data(), static_cast<int>(raw.size()), status.get());
  status.check();
  return *this;
}

Op& Op::device(const char* device_name) {
  Status& status = thread_status();
  TFE_OpSetDevice(op_.get(), device_name, status.get());
  status.check();
  return *this;
}

Op& Op::attr_type(const char* name, TF_DataType value) {
  TFE_OpSetAttrType(op_.get(), name, value);
  return *this;
}

Op& Op::attr_int(const char* name, int64_t value) {
  TFE_OpSetAttrInt(op_.get(), name, value);
  return *this;
}

Op& Op::attr_float(const char* name, float value) {
  TFE_OpSetAttrFloat(op_.get(), name, value);
  return *this;
}

Op& Op::attr_bool(const char* name, bool value) {
  TFE_OpSetAttrBool(op_.get(), name, value ? 1 : 0);
  return *this;
}

Op& Op::attr_string(const char* name, std::string_view value) {
  TFE_OpSetAttrString(op_.get(), name, value.data(), value.size());
  return *this;
}

Op& Op::attr_shape(const char* name, std::span<const int64_t> dims, bool unknown_rank) {
  Status& status = thread_status();
  TFE_OpSetAttrShape(op_.get(), name, dims.data(), unknown_rank ? -1 : static_cast<int>(dims.size()),
                     status.get());
  status.check();
  return *this;
}

Op& Op::attr_tensor(const char* name, const Tensor& value) {
  Status& status = thread_status();
  TFE_OpSetAttrTensor(op_.get(), name, value.get(), status.get());
  status.check();
  return *this;
}

Op& Op::attr_type_list(const char* name, std::span<const TF_DataType> values) {
  TFE_OpSetAttrTypeList(op_.get(), name, values.data(), static_cast<int>(values.size()));
  return *this;
}

Op& Op::attr_int_list(const char* name, std::span<const int64_t> values) {
  TFE_OpSetAttrIntList(op_.get(), name, values.data(), static_cast<int>(values.size()));
  return *this;
}

Op& Op::attr_float_list(const char* name, std::span<const float> values) {
  TFE_OpSetAttrFloatList(op_.get(), name, values.data(), static_cast<int>(values.size()));
  return *this;
}

Op& Op::attr_bool_list(const char* name, std::span<const unsigned char> values) {
  TFE_OpSetAttrBoolList(op_.get(), name, values.data(), static_cast<int>(values.size()));
  return *this;
}

Op& Op::attr_string_list(const char* name, std::span<const std::string_view> values) {
  std::vector<const void*> data;
  std::vector<size_t> lengths;
  for (std::string_view v : values) {
    data.push_back(v.data());
    lengths.push_back(v.size());
  }
  TFE_OpSetAttrStringList(op_.get(), name, data.data(), lengths.data(), static_cast<int>(values.size()));
  return *this;
}

Op& Op::attr_shape_list(const char* name, std::span<const std::vector<int64_t>> shapes,
                        std::span<const unsigned char> unknown_rank) {
  if (!unknown_rank.empty() && unknown_rank.size() != shapes.size()) {
    throw_invalid_argument("attribute '" + std::string(name) + "': " + std::to_string(unknown_rank.size()) +
                           " unknown-rank flags for " + std::to_string(shapes.size()) + " shapes");
  }
  std::vector<const int64_t*> dims;
  std::vector<int> ranks;
  for (size_t i = 0; i < shapes.size(); ++i) {
    dims.push_back(shapes[i].data());
    bool unknown = !unknown_rank.empty() && unknown_rank[i] != 0;
    ranks.push_back(unknown ? -1 : static_cast<int>(shapes[i].size()));
  }
  Status& status = thread_status();
  TFE_OpSetAttrShapeList(op_.get(), name, dims.data(), ranks.data(), static_cast<int>(shapes.size()),
                         status.get());
  status.check();
  return *this;
}

namespace {
thread_local std::array<TFE_TensorHandle*, kMaxOutputs> retvals;
}  // namespace

std::optional<TensorHandle> Op::execute_one(int& count) {
  count = kMaxOutputs;
  Status& status = thread_status();
  TFE_Execute(op_.get(), retvals.data(), &count, status.get());
  status.check();
  if (count != 1) {
    for (int i = 0; i < count; ++i) TFE_DeleteTensorHandle(retvals[static_cast<size_t>(i)]);
    return std::nullopt;
  }
  return TensorHandle::adopt(retvals[0], *context_);
}

std::vector<TensorHandle> Op::execute() {
  int count = kMaxOutputs;
  Status& status = thread_status();
  TFE_Execute(op_.get(), retvals.data(), &count, status.get());
  status.check();
  std::vector<TensorHandle> outputs;
  outputs.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    outputs.push_back(TensorHandle::adopt(retvals[static_cast<size_t>(i)], *context_));
  }
  return outputs;
}

}  // namespace tfjni
