// Natives of io.tfjni.EagerContext.
#include "jni_support.h"
#include "tfjni/eager.h"
#include "tfjni/error.h"

using namespace tfjni::jni;
using tfjni::Context;

extern "C" {

JNIEXPORT jlong JNICALL Java_io_tfjni_EagerContext_nativeCreate(
    JNIEnv* env, jclass, jlongArray scalars, jstring visible_devices, jbyteArray raw_config,
    jintArray pool_threads, jobjectArray pool_names, jboolean async, jint placement) {
  return guarded(env, [&] {
    tfjni::ContextConfig config;
    config.session = session_config(env, scalars, visible_devices, raw_config, pool_threads, pool_names);
    config.async = async == JNI_TRUE;
    if (placement < TFE_DEVICE_PLACEMENT_EXPLICIT || placement > TFE_DEVICE_PLACEMENT_SILENT_FOR_INT32) {
      throw tfjni::Error(TF_INVALID_ARGUMENT, "unknown device placement policy " + std::to_string(placement));
    }
    config.placement = static_cast<TFE_ContextDevicePlacementPolicy>(placement);
    return to_handle(new Context(config));
  });
}

JNIEXPORT jobjectArray JNICALL Java_io_tfjni_EagerContext_nativeDevices(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return to_string_array(env, from_handle<Context>(handle)->devices()); });
}

JNIEXPORT void JNICALL Java_io_tfjni_EagerContext_nativeDelete(JNIEnv* env, jclass, jlong handle) {
  guarded(env, [&] { delete from_handle<Context>(handle); });
}

}  // extern "C"
