#include "jni_support.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include "tfjni/error.h"

namespace tfjni::jni {
namespace {

JavaVM* cached_vm = nullptr;
jclass tensorflow_exception = nullptr;
jmethodID tensorflow_exception_init = nullptr;
jclass illegal_state = nullptr;
jclass illegal_argument = nullptr;
jclass out_of_memory = nullptr;
jclass runtime_exception = nullptr;
jclass string_class = nullptr;
jmethodID string_get_bytes = nullptr;   // String.getBytes(Charset)
jmethodID string_from_bytes = nullptr;  // String(byte[], Charset)
jobject utf8_charset = nullptr;         // StandardCharsets.UTF_8

jclass global_class(JNIEnv* env, const char* name) {
  jclass local = env->FindClass(name);
  if (local == nullptr) return nullptr;
  auto global = static_cast<jclass>(env->NewGlobalRef(local));
  env->DeleteLocalRef(local);
  return global;
}

}  // namespace

JavaVM* java_vm() noexcept { return cached_vm; }

void throw_illegal_state(JNIEnv* env, const char* message) { env->ThrowNew(illegal_state, message); }

void throw_illegal_argument(JNIEnv* env, const std::string& message) {
  env->ThrowNew(illegal_argument, message.c_str());
}

void throw_current_exception(JNIEnv* env) noexcept {
  if (env->ExceptionCheck()) return;  // a Java exception is already pending
  try {
    throw;
  } catch (const Error& e) {
    jstring message = to_jstring(env, e.what());
    if (message == nullptr) return;  // OutOfMemoryError pending
    auto exception = static_cast<jthrowable>(env->NewObject(
        tensorflow_exception, tensorflow_exception_init, static_cast<jint>(e.code()), message));
    if (exception != nullptr) env->Throw(exception);
  } catch (const std::bad_alloc&) {
    env->ThrowNew(out_of_memory, "native allocation failed");
  } catch (const ClosedHandleError& e) {
    env->ThrowNew(illegal_state, e.what());
  } catch (const std::exception& e) {
    env->ThrowNew(runtime_exception, e.what());
  } catch (...) {
    env->ThrowNew(runtime_exception, "unknown native error");
  }
}

std::string to_string(JNIEnv* env, jstring value) {
  if (value == nullptr) throw Error(TF_INVALID_ARGUMENT, "null string");
  // Real UTF-8, not JNI's modified UTF-8 (which encodes supplementary
  // characters, such as an emoji in a path, as two 3-byte surrogates).
  auto bytes = static_cast<jbyteArray>(env->CallObjectMethod(value, string_get_bytes, utf8_charset));
  if (bytes == nullptr || env->ExceptionCheck()) throw std::bad_alloc();  // the Java exception stays pending
  jsize n = env->GetArrayLength(bytes);
  std::string result(static_cast<size_t>(n), '\0');
  env->GetByteArrayRegion(bytes, 0, n, reinterpret_cast<jbyte*>(result.data()));
  env->DeleteLocalRef(bytes);
  return result;
}

jstring to_jstring(JNIEnv* env, std::string_view utf8) noexcept {
  auto length = static_cast<jsize>(std::min<size_t>(utf8.size(), INT32_MAX));
  jbyteArray bytes = env->NewByteArray(length);
  if (bytes == nullptr) return nullptr;
  env->SetByteArrayRegion(bytes, 0, length, reinterpret_cast<const jbyte*>(utf8.data()));
  auto string = static_cast<jstring>(env->NewObject(string_class, string_from_bytes, bytes, utf8_charset));
  env->DeleteLocalRef(bytes);
  return string;
}

std::vector<std::string> to_strings(JNIEnv* env, jobjectArray values) {
  std::vector<std::string> result;
  if (values == nullptr) return result;
  jsize n = env->GetArrayLength(values);
  result.reserve(static_cast<size_t>(n));
  for (jsize i = 0; i < n; ++i) {
    auto element = static_cast<jstring>(env->GetObjectArrayElement(values, i));
    result.push_back(to_string(env, element));
    env->DeleteLocalRef(element);
  }
  return result;
}

std::vector<int64_t> to_longs(JNIEnv* env, jlongArray values) {
  if (values == nullptr) return {};
  std::vector<int64_t> result(static_cast<size_t>(env->GetArrayLength(values)));
  env->GetLongArrayRegion(values, 0, static_cast<jsize>(result.size()),
                          reinterpret_cast<jlong*>(result.data()));
  return result;
}

jbyteArray to_byte_array(JNIEnv* env, std::string_view bytes) {
  if (bytes.size() > static_cast<size_t>(INT32_MAX)) {
    throw Error(TF_OUT_OF_RANGE, "more than 2 GiB do not fit in a Java array");
  }
  auto length = static_cast<jsize>(bytes.size());
  jbyteArray array = env->NewByteArray(length);
  if (array == nullptr) throw std::bad_alloc();
  env->SetByteArrayRegion(array, 0, length, reinterpret_cast<const jbyte*>(bytes.data()));
  return array;
}

jlongArray to_long_array(JNIEnv* env, const std::vector<int64_t>& values) {
  auto length = static_cast<jsize>(values.size());
  jlongArray array = env->NewLongArray(length);
  if (array == nullptr) throw std::bad_alloc();
  env->SetLongArrayRegion(array, 0, length, reinterpret_cast<const jlong*>(values.data()));
  return array;
}

jobjectArray to_string_array(JNIEnv* env, const std::vector<std::string>& values) {
  jobjectArray array = env->NewObjectArray(static_cast<jsize>(values.size()), string_class, nullptr);
  if (array == nullptr) throw std::bad_alloc();
  for (size_t i = 0; i < values.size(); ++i) {
    jstring value = to_jstring(env, values[i]);
    if (value == nullptr) throw std::bad_alloc();
    env->SetObjectArrayElement(array, static_cast<jsize>(i), value);
    env->DeleteLocalRef(value);
  }
  return array;
}

SessionConfig session_config(JNIEnv* env, jlongArray scalars, jstring visible_devices,
                             jbyteArray raw_config, jintArray pool_threads, jobjectArray pool_names) {
  // scalars: intra, inter, per-session threads, soft placement, allow growth,
  // has memory fraction, memory fraction bits; -1 means "not set".
  std::vector<int64_t> s = to_longs(env, scalars);
  if (s.size() != 7) throw Error(TF_INVALID_ARGUMENT, "malformed session options");
  SessionConfig config;
  auto narrow = [](int64_t v) {
    if (v < INT32_MIN || v > INT32_MAX) throw Error(TF_INVALID_ARGUMENT, "thread count out of range");
    return static_cast<int32_t>(v);
  };
  if (s[0] != -1) config.intra_op_threads = narrow(s[0]);
  if (s[1] != -1) config.inter_op_threads = narrow(s[1]);
  if (s[2] != -1) config.use_per_session_threads = s[2] != 0;
  if (s[3] != -1) config.allow_soft_placement = s[3] != 0;
  if (s[4] != -1) config.gpu_allow_growth = s[4] != 0;
  if (s[5] == 1) {
    double fraction;
    std::memcpy(&fraction, &s[6], sizeof fraction);
    config.gpu_memory_fraction = fraction;
  }
  if (visible_devices != nullptr) config.gpu_visible_devices = to_string(env, visible_devices);
  if (raw_config != nullptr) {
    jsize n = env->GetArrayLength(raw_config);
    config.raw_config_proto.resize(static_cast<size_t>(n));
    env->GetByteArrayRegion(raw_config, 0, n, reinterpret_cast<jbyte*>(config.raw_config_proto.data()));
  }
  if (pool_threads != nullptr) {
    std::vector<std::string> names = to_strings(env, pool_names);
    jsize n = env->GetArrayLength(pool_threads);
    if (static_cast<size_t>(n) != names.size()) throw Error(TF_INVALID_ARGUMENT, "malformed thread pools");
    std::vector<jint> threads(static_cast<size_t>(n));
    env->GetIntArrayRegion(pool_threads, 0, n, threads.data());
    for (jsize i = 0; i < n; ++i) config.session_inter_op_thread_pools.push_back({threads[i], names[i]});
  }
  return config;
}

void SpecEncoder::put_int(int32_t value) {
  for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<char>((static_cast<uint32_t>(value) >> (8 * i)) & 0xff));
}

void SpecEncoder::put_long(int64_t value) {
  for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>((static_cast<uint64_t>(value) >> (8 * i)) & 0xff));
}

void SpecEncoder::put_string(std::string_view value) {
  put_int(static_cast<int32_t>(value.size()));
  bytes_.append(value);
}

void SpecEncoder::put_spec(const TensorSpec& spec) {
  put_string(spec.key);
  put_string(spec.tensor_name);
  put_int(static_cast<int32_t>(spec.dtype));
  put_int(spec.unknown_rank ? -1 : static_cast<int32_t>(spec.shape.size()));
  for (int64_t d : spec.shape) put_long(d);
}

void SpecEncoder::put_specs(const std::vector<TensorSpec>& specs) {
  put_int(static_cast<int32_t>(specs.size()));
  for (const TensorSpec& spec : specs) put_spec(spec);
}

}  // namespace tfjni::jni

extern "C" JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void*) {
  using namespace tfjni::jni;
  JNIEnv* env = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
  cached_vm = vm;
  tensorflow_exception = global_class(env, "io/tfjni/TensorFlowException");
  illegal_state = global_class(env, "java/lang/IllegalStateException");
  illegal_argument = global_class(env, "java/lang/IllegalArgumentException");
  out_of_memory = global_class(env, "java/lang/OutOfMemoryError");
  runtime_exception = global_class(env, "java/lang/RuntimeException");
  string_class = global_class(env, "java/lang/String");
  if (tensorflow_exception == nullptr || illegal_state == nullptr || illegal_argument == nullptr ||
      out_of_memory == nullptr || runtime_exception == nullptr || string_class == nullptr) {
    return JNI_ERR;
  }
  string_get_bytes = env->GetMethodID(string_class, "getBytes", "(Ljava/nio/charset/Charset;)[B");
  string_from_bytes = env->GetMethodID(string_class, "<init>", "([BLjava/nio/charset/Charset;)V");
  jclass charsets = env->FindClass("java/nio/charset/StandardCharsets");
  if (string_get_bytes == nullptr || string_from_bytes == nullptr || charsets == nullptr) return JNI_ERR;
  jfieldID utf8_field = env->GetStaticFieldID(charsets, "UTF_8", "Ljava/nio/charset/Charset;");
  if (utf8_field == nullptr) return JNI_ERR;
  jobject utf8 = env->GetStaticObjectField(charsets, utf8_field);
  if (utf8 == nullptr) return JNI_ERR;
  utf8_charset = env->NewGlobalRef(utf8);
  env->DeleteLocalRef(utf8);
  env->DeleteLocalRef(charsets);
  if (utf8_charset == nullptr) return JNI_ERR;
  tensorflow_exception_init =
      env->GetMethodID(tensorflow_exception, "<init>", "(ILjava/lang/String;)V");
  if (tensorflow_exception_init == nullptr) return JNI_ERR;
  return JNI_VERSION_1_8;
}
