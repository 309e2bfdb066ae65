#include "tfjni/error.h"

namespace tfjni {

Error::Error(TF_Code code, const std::string& message) : std::runtime_error(message), code_(code) {}

const char* code_name(TF_Code code) noexcept {
  switch (code) {
    case TF_OK: return "OK";
    case TF_CANCELLED: return "CANCELLED";
    case TF_UNKNOWN: return "UNKNOWN";
    case TF_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case TF_DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case TF_NOT_FOUND: return "NOT_FOUND";
    case TF_ALREADY_EXISTS: return "ALREADY_EXISTS";
    case TF_PERMISSION_DENIED: return "PERMISSION_DENIED";
    case TF_UNAUTHENTICATED: return "UNAUTHENTICATED";
    case TF_RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case TF_FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case TF_ABORTED: return "ABORTED";
    case TF_OUT_OF_RANGE: return "OUT_OF_RANGE";
    case TF_UNIMPLEMENTED: return "UNIMPLEMENTED";
    case TF_INTERNAL: return "INTERNAL";
    case TF_UNAVAILABLE: return "UNAVAILABLE";
    case TF_DATA_LOSS: return "DATA_LOSS";
  }
  return "UNKNOWN";
}

void throw_error(TF_Code code, const std::string& message) { throw Error(code, message); }

Status::Status() : status_(TF_NewStatus()) {
  if (!status_) throw std::bad_alloc();
}

void Status::reset() noexcept { TF_SetStatus(status_.get(), TF_OK, ""); }

void Status::check() const {
  TF_Code code = TF_GetCode(status_.get());
  if (code == TF_OK) return;
  std::string message = TF_Message(status_.get());
  // TensorFlow's text names what is missing but not the usual cause.
  if (message.find("Op type not registered") != std::string::npos) {
    message += " (if the op comes from a custom op library, such as TensorFlow Text's, load that"
               " library first)";
  } else if (message.find("Could not find variable") != std::string::npos) {
    message += " (the model was saved without this variable's value, as tf.saved_model.save"
               " writes a Keras 3 model: export Keras models with model.export(dir); see"
               " docs/EXPORTING.md)";
  }
  throw Error(code, message);
}

Status& thread_status() {
  thread_local Status status;
  status.reset();
  return status;
}

}  // namespace tfjni
