// Eager execution: a context, tensor handles and an op builder over the TFE_*
// C API.
#pragma once

#include <tensorflow/c/eager/c_api.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfjni/device_list.h"
#include "tfjni/live_objects.h"
#include "tfjni/session_config.h"
#include "tfjni/tensor.h"

namespace tfjni {

struct ContextConfig {
  // Thread pools, soft placement, GPU options. A synchronous context runs each
  // op on the thread that executes it whatever inter_op_threads says (ops that
  // call functions, e.g. PartitionedCall, run the function body on the
  // context's inter-op pool: TensorFlow Python 2.18 does so even with -1);
  // kCallerThread is rejected with async, whose ops run on the executor's thread.
  SessionConfig session;
  bool async = false;
  TFE_ContextDevicePlacementPolicy placement = TFE_DEVICE_PLACEMENT_SILENT;
};

// An eager context. Ops may run on it from many threads at once. The tensor
// handles its ops make keep it alive (TensorFlow's own handles do not): the
// native context is freed when this object and all those handles are gone.
class Context {
 public:
  explicit Context(const ContextConfig& config = {});
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Full names of the devices ops can run on, e.g. "/job:localhost/replica:0/task:0/device:CPU:0".
  std::vector<std::string> devices() const;
  // The same devices with type and memory (TFE_ContextListDevices).
  std::vector<DeviceInfo> device_infos() const;
  TFE_Context* get() const noexcept { return native_->context.get(); }

 private:
  friend class TensorHandle;
  // The TFE_Context, counted live for as long as it exists.
  struct Native {
    struct Deleter {
      void operator()(TFE_Context* c) const noexcept { TFE_DeleteContext(c); }
    };
    explicit Native(TFE_Context* c) noexcept : context(c) {}
    LiveToken token{ObjectKind::kEagerContext};  // first: uncounted only once the context is freed
    std::unique_ptr<TFE_Context, Deleter> context;
  };
  std::shared_ptr<const Native> native_;
};

// A value of the eager runtime, possibly on a device, possibly not yet computed
// (async contexts). A handle made on a context keeps that context alive.
class TensorHandle {
 public:
  // A handle of no context (TensorFlow needs none for a host tensor).
  static TensorHandle from_tensor(const Tensor& tensor);
  // Owns a handle TensorFlow made on `context`.
  static TensorHandle adopt(TFE_TensorHandle* handle, const Context& context);

  TensorHandle(TensorHandle&&) noexcept = default;
  TensorHandle& operator=(TensorHandle&&) noexcept = default;

  TF_DataType dtype() const noexcept { return TFE_TensorHandleDataType(handle_.get()); }
  std::vector<int64_t> shape() const;
  std::string device() const;
  // The value as a tensor in host memory (waits for it to be computed).
  Tensor resolve() const;
  TensorHandle copy_to_device(const Context& context, const std::string& device) const;

  TFE_TensorHandle* get() const noexcept { return handle_.get(); }

 private:
  // Deletes the handle and holds its context (none for from_tensor) meanwhile:
  // unique_ptr deletes its pointer before it destroys or replaces its deleter, so
  // the context outlives the handle, also when another handle is moved onto this.
  struct Deleter {
    std::shared_ptr<const Context::Native> context;
    void operator()(TFE_TensorHandle* h) const noexcept { TFE_DeleteTensorHandle(h); }
  };
  TensorHandle(TFE_TensorHandle* handle, std::shared_ptr<const Context::Native> context)
      : handle_(handle, Deleter{std::move(context)}) {}
  std::unique_ptr<TFE_TensorHandle, Deleter> handle_;
  LiveToken token_{ObjectKind::kTensorHandle};
};

// Builds and runs one op. Reusable: reset() starts a new op of any name on the
// same context without allocating a new TFE_Op. Not thread-safe. Unlike the
// handles it makes, an Op must not outlive its Context (holding it would cost
// every op a reference count update).
class Op {
 public:
  Op(const Context& context, const char* op_name);
  void reset(const char* op_name);

  Op& input(const TensorHandle& handle);
  Op& input_list(std::span<const TensorHandle* const> handles);
  Op& device(const char* device_name);

  Op& attr_type(const char* name, TF_DataType value);
  Op& attr_int(const char* name, int64_t value);
  Op& attr_float(const char* name, float value);
  Op& attr_bool(const char* name, bool value);
  Op& attr_string(const char* name, std::string_view value);
  // -1 dims are unknown.
  Op& attr_shape(const char* name, std::span<const int64_t> dims, bool unknown_rank = false);
  Op& attr_tensor(const char* name, const Tensor& value);
  Op& attr_type_list(const char* name, std::span<const TF_DataType> values);
  Op& attr_int_list(const char* name, std::span<const int64_t> values);
  Op& attr_float_list(const char* name, std::span<const float> values);
  Op& attr_bool_list(const char* name, std::span<const unsigned char> values);
  Op& attr_string_list(const char* name, std::span<const std::string_view> values);
  // unknown_rank is empty (every rank known) or holds one flag per shape; a
  // non-zero flag makes that shape's rank unknown (its dims are ignored).
  Op& attr_shape_list(const char* name, std::span<const std::vector<int64_t>> shapes,
                      std::span<const unsigned char> unknown_rank = {});

  // Runs the op; returns every output (list outputs flattened).
  std::vector<TensorHandle> execute();
  // Runs the op and returns its output if it has exactly one, without a
  // vector; otherwise frees the outputs, returns nothing and sets `count` to
  // their number.
  std::optional<TensorHandle> execute_one(int& count);

  TFE_Op* get() const noexcept { return op_.get(); }

 private:
  struct Deleter {
    void operator()(TFE_Op* o) const noexcept { TFE_DeleteOp(o); }
  };
  std::unique_ptr<TFE_Op, Deleter> op_;
  const Context* context_;  // for the outputs' context references
};

}  // namespace tfjni
