// Natives of io.tfjni.Tensor: creation from arrays, direct buffers and
// strings; reading back; release.
#include <cstring>

#include "jni_support.h"
#include "tfjni/dtype.h"
#include "tfjni/error.h"
#include "tfjni/tensor.h"

using namespace tfjni::jni;
using tfjni::Tensor;

namespace {

TF_DataType to_dtype(jint code) {
  if (!tfjni::is_known_dtype(code)) {
    throw tfjni::Error(TF_INVALID_ARGUMENT, "unknown dtype code " + std::to_string(code));
  }
  return static_cast<TF_DataType>(code);
}

// Copies between a Java primitive array and native memory of exactly
// `byte_length` bytes, without a copy of the whole array on the Java side.
void copy_with_array(JNIEnv* env, jarray array, void* native, size_t byte_length, bool to_native) {
  if (byte_length == 0) return;
  void* elements = env->GetPrimitiveArrayCritical(array, nullptr);
  if (elements == nullptr) throw std::bad_alloc();
  if (to_native) {
    std::memcpy(native, elements, byte_length);
  } else {
    std::memcpy(elements, native, byte_length);
  }
  env->ReleasePrimitiveArrayCritical(array, elements, to_native ? JNI_ABORT : 0);
}

void check_byte_length(const Tensor& tensor, jlong byte_length) {
  if (static_cast<size_t>(byte_length) != tensor.byte_size()) {
    throw tfjni::Error(TF_INVALID_ARGUMENT,
                       "the array holds " + std::to_string(byte_length) + " bytes but the " +
                           tfjni::dtype_name(tensor.dtype()) + " tensor holds " +
                           std::to_string(tensor.byte_size()));
  }
}

// TensorFlow drops wrapped memory, possibly on one of its own threads: let
// the Java buffer go then.
void release_global_ref(void*, size_t, void* buffer) {
  JavaVM* vm = java_vm();
  JNIEnv* env = nullptr;
  bool attached = false;
  if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) == JNI_EDETACHED) {
    if (vm->AttachCurrentThreadAsDaemon(reinterpret_cast<void**>(&env), nullptr) != JNI_OK) return;
    attached = true;
  }
  env->DeleteGlobalRef(static_cast<jobject>(buffer));
  if (attached) vm->DetachCurrentThread();
}

}  // namespace

extern "C" {

JNIEXPORT jlong JNICALL Java_io_tfjni_Tensor_nativeAllocate(JNIEnv* env, jclass, jint dtype, jlongArray shape) {
  return guarded(env, [&] {
    return to_handle(new Tensor(Tensor::allocate(to_dtype(dtype), to_longs(env, shape))));
  });
}

JNIEXPORT jlong JNICALL Java_io_tfjni_Tensor_nativeFromArray(JNIEnv* env, jclass, jint dtype, jlongArray shape,
                                                             jarray array, jlong byte_length) {
  return guarded(env, [&] {
    Tensor tensor = Tensor::allocate(to_dtype(dtype), to_longs(env, shape));
    check_byte_length(tensor, byte_length);
    copy_with_array(env, array, tensor.data(), tensor.byte_size(), true);
    return to_handle(new Tensor(std::move(tensor)));
  });
}

JNIEXPORT jlong JNICALL Java_io_tfjni_Tensor_nativeWrap(JNIEnv* env, jclass, jint dtype, jlongArray shape,
                                                        jobject buffer, jlong byte_offset, jlong byte_length) {
  return guarded(env, [&] {
    auto* base = static_cast<char*>(env->GetDirectBufferAddress(buffer));
    if (base == nullptr) throw tfjni::Error(TF_INVALID_ARGUMENT, "not a direct buffer");
    TF_DataType type = to_dtype(dtype);
    std::vector<int64_t> dims = to_longs(env, shape);
    jobject keep_alive = env->NewGlobalRef(buffer);
    if (keep_alive == nullptr) throw std::bad_alloc();
    return to_handle(new Tensor(Tensor::wrap(type, dims, base + byte_offset, static_cast<size_t>(byte_length),
                                             release_global_ref, keep_alive)));
  });
}

JNIEXPORT jlong JNICALL Java_io_tfjni_Tensor_nativeFromStrings(JNIEnv* env, jclass, jlongArray shape,
                                                               jbyteArray bytes, jintArray ends) {
  return guarded(env, [&] {
    jsize count = env->GetArrayLength(ends);
    std::vector<jint> end(static_cast<size_t>(count));
    env->GetIntArrayRegion(ends, 0, count, end.data());
    jsize total = env->GetArrayLength(bytes);
    std::string data(static_cast<size_t>(total), '\0');
    env->GetByteArrayRegion(bytes, 0, total, reinterpret_cast<jbyte*>(data.data()));
    std::vector<std::string_view> values;
    values.reserve(end.size());
    jint start = 0;
    for (jint e : end) {
      if (e < start || e > total) throw tfjni::Error(TF_INVALID_ARGUMENT, "malformed string offsets");
      values.emplace_back(data.data() + start, static_cast<size_t>(e - start));
      start = e;
    }
    return to_handle(new Tensor(Tensor::strings(to_longs(env, shape), values)));
  });
}

JNIEXPORT jint JNICALL Java_io_tfjni_Tensor_nativeDtype(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return static_cast<jint>(from_handle<Tensor>(handle)->dtype()); });
}

JNIEXPORT jlongArray JNICALL Java_io_tfjni_Tensor_nativeShape(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return to_long_array(env, from_handle<Tensor>(handle)->shape()); });
}

JNIEXPORT jlong JNICALL Java_io_tfjni_Tensor_nativeByteSize(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return static_cast<jlong>(from_handle<Tensor>(handle)->byte_size()); });
}

// A direct buffer over the tensor's memory; null for empty or string tensors.
JNIEXPORT jobject JNICALL Java_io_tfjni_Tensor_nativeBuffer(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&]() -> jobject {
    Tensor* tensor = from_handle<Tensor>(handle);
    if (tensor->dtype() == TF_STRING || tensor->byte_size() == 0) return nullptr;
    return env->NewDirectByteBuffer(tensor->data(), static_cast<jlong>(tensor->byte_size()));
  });
}

JNIEXPORT void JNICALL Java_io_tfjni_Tensor_nativeCopyToArray(JNIEnv* env, jclass, jlong handle, jarray array,
                                                              jlong byte_length) {
  guarded(env, [&] {
    Tensor* tensor = from_handle<Tensor>(handle);
    if (tensor->dtype() == TF_STRING) throw tfjni::Error(TF_INVALID_ARGUMENT, "a string tensor has no fixed-size elements");
    check_byte_length(*tensor, byte_length);
    copy_with_array(env, array, tensor->data(), tensor->byte_size(), false);
  });
}

// All elements of a string tensor in one byte array; ends[i] is where element
// i ends.
JNIEXPORT jbyteArray JNICALL Java_io_tfjni_Tensor_nativeReadStrings(JNIEnv* env, jclass, jlong handle,
                                                                     jintArray ends) {
  return guarded(env, [&] {
    Tensor* tensor = from_handle<Tensor>(handle);
    int64_t count = tensor->num_elements();
    if (env->GetArrayLength(ends) != count) throw tfjni::Error(TF_INVALID_ARGUMENT, "wrong number of string ends");
    std::string all;
    std::vector<jint> end(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      all.append(tensor->string_at(i));
      if (all.size() > static_cast<size_t>(INT32_MAX)) {
        throw tfjni::Error(TF_OUT_OF_RANGE, "strings larger than 2 GiB in total do not fit in a Java array");
      }
      end[static_cast<size_t>(i)] = static_cast<jint>(all.size());
    }
    env->SetIntArrayRegion(ends, 0, static_cast<jsize>(count), end.data());
    return to_byte_array(env, all);
  });
}

JNIEXPORT void JNICALL Java_io_tfjni_Tensor_nativeDelete(JNIEnv* env, jclass, jlong handle) {
  guarded(env, [&] { delete from_handle<Tensor>(handle); });
}

}  // extern "C"
