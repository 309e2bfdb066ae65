// Natives of io.tfjni.Predictor: a prepared runner and its one-crossing run.
#include <array>
#include <optional>

#include "jni_support.h"
#include "tfjni/error.h"
#include "tfjni/runner.h"

using namespace tfjni::jni;
using tfjni::Runner;
using tfjni::Tensor;

namespace {

constexpr jsize kStackSlots = 64;

jbyteArray encode_endpoints(JNIEnv* env, const Runner& runner) {
  SpecEncoder out;
  for (const auto* endpoints : {&runner.inputs(), &runner.outputs()}) {
    out.put_int(static_cast<int32_t>(endpoints->size()));
    for (const tfjni::Endpoint& e : *endpoints) {
      tfjni::TensorSpec spec = e.spec;
      spec.key = e.label;
      out.put_spec(spec);
    }
  }
  return to_byte_array(env, out.bytes());
}

void run(JNIEnv* env, const Runner& runner, jlongArray input_handles, jlongArray output_handles) {
  jsize num_inputs = env->GetArrayLength(input_handles);
  jsize num_outputs = env->GetArrayLength(output_handles);
  if (num_inputs > kStackSlots || num_outputs > kStackSlots) {
    throw tfjni::Error(TF_UNIMPLEMENTED, "more than 64 inputs or outputs in one run");
  }
  std::array<jlong, kStackSlots> handles;
  // The previous results are released first: their memory is free for this run.
  env->GetLongArrayRegion(output_handles, 0, num_outputs, handles.data());
  for (jsize i = 0; i < num_outputs; ++i) {
    delete reinterpret_cast<Tensor*>(static_cast<intptr_t>(handles[i]));
    handles[i] = 0;
  }
  env->SetLongArrayRegion(output_handles, 0, num_outputs, handles.data());

  std::array<const Tensor*, kStackSlots> inputs;
  env->GetLongArrayRegion(input_handles, 0, num_inputs, handles.data());
  for (jsize i = 0; i < num_inputs; ++i) inputs[i] = from_handle<Tensor>(handles[i]);
  std::array<std::optional<Tensor>, kStackSlots> results;
  runner.run({inputs.data(), static_cast<size_t>(num_inputs)},
             {results.data(), static_cast<size_t>(num_outputs)});
  for (jsize i = 0; i < num_outputs; ++i) handles[i] = to_handle(new Tensor(std::move(*results[i])));
  env->SetLongArrayRegion(output_handles, 0, num_outputs, handles.data());
}

}  // namespace

extern "C" {

JNIEXPORT jlong JNICALL Java_io_tfjni_Predictor_nativeForSignature(
    JNIEnv* env, jclass, jlong model, jstring signature_key, jobjectArray input_keys,
    jobjectArray output_keys) {
  return guarded(env, [&] {
    std::vector<std::string> inputs = to_strings(env, input_keys);
    std::vector<std::string> outputs = to_strings(env, output_keys);
    return to_handle(Runner::for_signature(*from_handle<tfjni::SavedModel>(model),
                                           to_string(env, signature_key), inputs, outputs)
                         .release());
  });
}

JNIEXPORT jlong JNICALL Java_io_tfjni_Predictor_nativeForTensors(JNIEnv* env, jclass, jlong model,
                                                                 jobjectArray input_names,
                                                                 jobjectArray output_names) {
  return guarded(env, [&] {
    std::vector<std::string> inputs = to_strings(env, input_names);
    std::vector<std::string> outputs = to_strings(env, output_names);
    return to_handle(
        Runner::for_tensors(from_handle<tfjni::GraphModel>(model)->session(), inputs, outputs).release());
  });
}

// Inputs then outputs, each a count followed by specs keyed by the run's labels.
JNIEXPORT jbyteArray JNICALL Java_io_tfjni_Predictor_nativeEndpoints(JNIEnv* env, jclass, jlong handle) {
  return guarded(env, [&] { return encode_endpoints(env, *from_handle<Runner>(handle)); });
}

// Frees the tensors in `outputs`, runs, and stores the new output handles there.
JNIEXPORT void JNICALL Java_io_tfjni_Predictor_nativeRun(JNIEnv* env, jclass, jlong handle,
                                                         jlongArray inputs, jlongArray outputs) {
  guarded(env, [&] { run(env, *from_handle<Runner>(handle), inputs, outputs); });
}

JNIEXPORT void JNICALL Java_io_tfjni_Predictor_nativeDelete(JNIEnv* env, jclass, jlong handle) {
  guarded(env, [&] { delete from_handle<Runner>(handle); });
}

}  // extern "C"
