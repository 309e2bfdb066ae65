// Natives of io.tfjni.NDArray: an eager tensor handle.
#include "jni_support.h"
#include "tfjni/eager.h"
#include "tfjni/error.h"

using namespace tfjni::jni;
using tfjni::Tensor;
using tfjni::TensorHandle;

extern "C" {

JNIEXPORT jlong JNICALL Java_io_tfjni_NDArray_nativeFromTensor(JNIEnv* env, jclass, jlong tensor) {
  return guarded(env, [&] {
    return to_handle(new TensorHandle(TensorHandle::from_tensor(*from_handle<Tensor>(tensor))));
  });
}

// The value as a new tensor (shares TensorFlow's buffer when it is in host memory).
JNIEXPORT jlong JNICALL Java_io_tfjni_NDArray_nativeToTensor(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return to_handle(new Tensor(from_handle<TensorHandle>(handle)->resolve())); });
}

JNIEXPORT jint JNICALL Java_io_tfjni_NDArray_nativeDtype(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return static_cast<jint>(from_handle<TensorHandle>(handle)->dtype()); });
}

JNIEXPORT jlongArray JNICALL Java_io_tfjni_NDArray_nativeShape(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return to_long_array(env, from_handle<TensorHandle>(handle)->shape()); });
}

JNIEXPORT jstring JNICALL Java_io_tfjni_NDArray_nativeDevice(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return to_jstring(env, from_handle<TensorHandle>(handle)->device()); });
}

JNIEXPORT jlong JNICALL Java_io_tfjni_NDArray_nativeCopyToDevice(JNIEnv* env, jclass, jlong context,
                                                                  jlong handle, jstring device) {
  return guarded(env, [&] {
    return to_handle(new TensorHandle(from_handle<TensorHandle>(handle)->copy_to_device(
        *from_handle<tfjni::Context>(context), to_string(env, device))));
  });
}

JNIEXPORT void JNICALL Java_io_tfjni_NDArray_nativeDelete(JNIEnv* env, jclass, jlong handle) {
  guarded(env, [&] { delete from_handle<TensorHandle>(handle); });
}

}  // extern "C"
