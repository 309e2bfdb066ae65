// Natives of io.tfjni.SavedModel.
#include "jni_support.h"
#include "tfjni/saved_model.h"

using namespace tfjni::jni;
using tfjni::SavedModel;

extern "C" {

JNIEXPORT jlong JNICALL Java_io_tfjni_SavedModel_nativeLoad(
    JNIEnv* env, jclass, jstring dir, jobjectArray tags, jlongArray scalars, jstring visible_devices,
    jbyteArray raw_config, jintArray pool_threads, jobjectArray pool_names) {
  return guarded(env, [&] {
    tfjni::SessionConfig config =
        session_config(env, scalars, visible_devices, raw_config, pool_threads, pool_names);
    std::vector<std::string> tag_list = to_strings(env, tags);
    return to_handle(SavedModel::load(to_string(env, dir), tag_list, config).release());
  });
}

// Every signature: count, then per signature key, method, inputs and outputs.
JNIEXPORT jbyteArray JNICALL Java_io_tfjni_SavedModel_nativeSignatures(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] {
    const auto& signatures = from_handle<SavedModel>(handle)->signatures();
    SpecEncoder out;
    out.put_int(static_cast<int32_t>(signatures.size()));
    for (const tfjni::SignatureDef& def : signatures) {
      out.put_string(def.key);
      out.put_string(def.method);
      out.put_specs(def.inputs);
      out.put_specs(def.outputs);
    }
    return to_byte_array(env, out.bytes());
  });
}

JNIEXPORT void JNICALL Java_io_tfjni_SavedModel_nativeDelete(JNIEnv* env, jclass, jlong handle) {
  guarded(env, [&] { delete from_handle<SavedModel>(handle); });
}

}  // extern "C"
