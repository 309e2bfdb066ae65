// Natives of io.tfjni.TensorFlow: version, where libtensorflow was loaded from,
// live object counts.
#include <dlfcn.h>
#include <tensorflow/c/c_api.h>

#include "jni_support.h"
#include "tfjni/error.h"
#include "tfjni/live_objects.h"

using namespace tfjni::jni;

extern "C" {

JNIEXPORT jstring JNICALL Java_io_tfjni_TensorFlow_nativeVersion(JNIEnv* env, jclass) {
  return env->NewStringUTF(TF_Version());
}

JNIEXPORT jstring JNICALL Java_io_tfjni_TensorFlow_nativeLibraryPath(JNIEnv* env, jclass) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&TF_Version), &info) == 0 || info.dli_fname == nullptr) {
    return nullptr;
  }
  return to_jstring(env, info.dli_fname);
}

// Fills `counts` with one count per ObjectKind followed by the live tensor bytes.
JNIEXPORT void JNICALL Java_io_tfjni_TensorFlow_nativeLiveObjects(JNIEnv* env, jclass, jlongArray counts) {
  guarded(env, [&] {
    tfjni::LiveCounts live = tfjni::live_objects();
    jlong values[tfjni::kObjectKindCount + 1];
    for (int i = 0; i < tfjni::kObjectKindCount; ++i) values[i] = live.count[i];
    values[tfjni::kObjectKindCount] = live.tensor_bytes;
    if (env->GetArrayLength(counts) != tfjni::kObjectKindCount + 1) {
      throw tfjni::Error(TF_INVALID_ARGUMENT, "wrong number of live object kinds");
    }
    env->SetLongArrayRegion(counts, 0, tfjni::kObjectKindCount + 1, values);
  });
}

}  // extern "C"
