// Natives of io.tfjni.GraphModel (a frozen GraphDef).
#include "jni_support.h"
#include "tfjni/saved_model.h"

using namespace tfjni::jni;
using tfjni::GraphModel;

extern "C" {

JNIEXPORT jlong JNICALL Java_io_tfjni_GraphModel_nativeLoad(
    JNIEnv* env, jclass, jstring path, jlongArray scalars, jstring visible_devices,
    jbyteArray raw_config, jintArray pool_threads, jobjectArray pool_names) {
  return guarded(env, [&] {
    tfjni::SessionConfig config =
        session_config(env, scalars, visible_devices, raw_config, pool_threads, pool_names);
    return to_handle(GraphModel::load(to_string(env, path), config).release());
  });
}

JNIEXPORT void JNICALL Java_io_tfjni_GraphModel_nativeDelete(JNIEnv* env, jclass, jlong handle) {
  guarded(env, [&] { delete from_handle<GraphModel>(handle); });
}

}  // extern "C"
