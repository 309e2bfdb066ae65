// Shared JNI plumbing: cached classes, exception translation, handle casts and
// the byte encoding that carries tensor specs to Java in one crossing.
#pragma once

#include <jni.h>

#include <cstdint>
#include <exception>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tfjni/session_config.h"
#include "tfjni/signature.h"

namespace tfjni::jni {

JavaVM* java_vm() noexcept;

void throw_illegal_state(JNIEnv* env, const char* message);
void throw_illegal_argument(JNIEnv* env, const std::string& message);
// Translates the exception in flight (tfjni::Error -> TensorFlowException with
// its code, bad_alloc -> OutOfMemoryError, others -> RuntimeException).
void throw_current_exception(JNIEnv* env) noexcept;

// Runs `body`, turning any C++ exception into a pending Java exception (the
// function then returns a zero value). No C++ exception reaches the JVM.
template <typename Body>
auto guarded(JNIEnv* env, Body&& body) noexcept -> decltype(body()) {
  using Result = decltype(body());
  try {
    return body();
  } catch (...) {
    throw_current_exception(env);
  }
  if constexpr (!std::is_void_v<Result>) return Result{};
}

// Becomes IllegalStateException in Java.
struct ClosedHandleError : std::runtime_error {
  ClosedHandleError() : std::runtime_error("the object is closed") {}
};

// The object behind a handle; a zero handle (never passed by the Java side for
// an open object) throws ClosedHandleError.
template <typename T>
T* from_handle(jlong handle) {
  if (handle == 0) throw ClosedHandleError();
  return reinterpret_cast<T*>(static_cast<intptr_t>(handle));
}
template <typename T>
jlong to_handle(T* object) noexcept {
  return static_cast<jlong>(reinterpret_cast<intptr_t>(object));
}

// Java strings and arrays as C++ values.
// The string's UTF-8 bytes (real UTF-8, not JNI's modified UTF-8).
std::string to_string(JNIEnv* env, jstring value);
// A Java string decoded from UTF-8 (malformed bytes become U+FFFD); null with
// a Java exception pending if it cannot be made.
jstring to_jstring(JNIEnv* env, std::string_view utf8) noexcept;
std::vector<std::string> to_strings(JNIEnv* env, jobjectArray values);
std::vector<int64_t> to_longs(JNIEnv* env, jlongArray values);
// A Java long[] (a shape, on every tensor made from Java) read into inline
// storage when short, so that reading it allocates nothing; null reads as empty.
class JavaLongs {
 public:
  JavaLongs(JNIEnv* env, jlongArray values);
  JavaLongs(const JavaLongs&) = delete;
  JavaLongs& operator=(const JavaLongs&) = delete;
  std::span<const int64_t> span() const noexcept { return {data_, size_}; }

 private:
  static constexpr size_t kInline = 8;
  int64_t inline_[kInline];
  std::vector<int64_t> heap_;
  int64_t* data_ = inline_;
  size_t size_ = 0;
};
jbyteArray to_byte_array(JNIEnv* env, std::string_view bytes);
jlongArray to_long_array(JNIEnv* env, const std::vector<int64_t>& values);
jobjectArray to_string_array(JNIEnv* env, const std::vector<std::string>& values);

// Session settings as the Java SessionOptions passes them (see SessionOptions.java).
SessionConfig session_config(JNIEnv* env, jlongArray scalars, jstring visible_devices,
                             jbyteArray raw_config, jintArray pool_threads, jobjectArray pool_names);

// Little-endian encoding read by io.tfjni.SpecDecoder.
class SpecEncoder {
 public:
  void put_int(int32_t value);
  void put_long(int64_t value);
  void put_string(std::string_view value);
  void put_spec(const TensorSpec& spec);
  void put_specs(const std::vector<TensorSpec>& specs);
  // Count, then per signature key, method, inputs and outputs (io.tfjni.Signature.decodeAll).
  void put_signatures(const std::vector<SignatureDef>& signatures);
  const std::string& bytes() const noexcept { return bytes_; }

 private:
  std::string bytes_;
};

}  // namespace tfjni::jni
