// Errors of the core: one exception type carrying TensorFlow's code and message.
#pragma once

#include <tensorflow/c/tf_status.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace tfjni {

class Error : public std::runtime_error {
 public:
  Error(TF_Code code, const std::string& message);
  TF_Code code() const noexcept { return code_; }

 private:
  TF_Code code_;
};

// TensorFlow's spelling of a status code, e.g. "INVALID_ARGUMENT".
const char* code_name(TF_Code code) noexcept;

[[noreturn]] void throw_error(TF_Code code, const std::string& message);
[[noreturn]] inline void throw_invalid_argument(const std::string& message) {
  throw_error(TF_INVALID_ARGUMENT, message);
}

// Owns a TF_Status. check() turns a failed status into an Error.
class Status {
 public:
  Status();
  TF_Status* get() const noexcept { return status_.get(); }
  void reset() noexcept;
  void check() const;

 private:
  struct Deleter {
    void operator()(TF_Status* s) const noexcept { TF_DeleteStatus(s); }
  };
  std::unique_ptr<TF_Status, Deleter> status_;
};

// A status owned by the calling thread, reset to OK, for calls on the hot path
// (no allocation per call, never shared between threads).
Status& thread_status();

}  // namespace tfjni
