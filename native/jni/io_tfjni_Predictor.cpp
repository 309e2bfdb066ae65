// Natives of io.tfjni.Predictor: a prepared runner and its one-crossing run.
#include <optional>
#include <utility>

#include "jni_support.h"
#include "tfjni/error.h"
#include "tfjni/runner.h"
#include "tfjni/scratch.h"

using namespace tfjni::jni;
using tfjni::Runner;
using tfjni::Scratch;
using tfjni::Tensor;

namespace {

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

// `handle_array` holds the inputs' handles, then the previous outputs' handles.
// The previous outputs are freed first (their memory is free for this run) and
// replaced by the new outputs' handles, or by zeros where a failed run left none.
void run(JNIEnv* env, const Runner& runner, jlongArray handle_array) {
  // io.tfjni.RunResult sizes the array from these counts: no length to read.
  const size_t num_inputs = runner.inputs().size();
  const size_t num_outputs = runner.outputs().size();
  Scratch<jlong, 2 * tfjni::kStackTensors> handles(num_inputs + num_outputs);
  env->GetLongArrayRegion(handle_array, 0, static_cast<jsize>(num_inputs + num_outputs), handles.data());
  if (env->ExceptionCheck()) return;
  jlong* output_handles = handles.data() + num_inputs;
  for (size_t i = 0; i < num_outputs; ++i) {
    delete reinterpret_cast<Tensor*>(static_cast<intptr_t>(std::exchange(output_handles[i], 0)));
  }
  auto store_outputs = [&] {
    env->SetLongArrayRegion(handle_array, static_cast<jsize>(num_inputs), static_cast<jsize>(num_outputs),
                            output_handles);
  };
  try {
    Scratch<const Tensor*> inputs(num_inputs);
    for (size_t i = 0; i < num_inputs; ++i) inputs[i] = from_handle<Tensor>(handles[i]);
    Scratch<std::optional<Tensor>> results(num_outputs);
    runner.run(inputs.span(), results.span());
    for (size_t i = 0; i < num_outputs; ++i) output_handles[i] = to_handle(new Tensor(std::move(*results[i])));
  } catch (...) {
    store_outputs();  // the outputs made before the failure, zeros for the rest
    throw;
  }
  store_outputs();
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

JNIEXPORT void JNICALL Java_io_tfjni_Predictor_nativeRun(JNIEnv* env, jclass, jlong handle,
                                                         jlongArray handles) {
  guarded(env, [&] { run(env, *from_handle<Runner>(handle), handles); });
}

JNIEXPORT void JNICALL Java_io_tfjni_Predictor_nativeDelete(JNIEnv* env, jclass, jlong handle) {
  guarded(env, [&] { delete from_handle<Runner>(handle); });
}

}  // extern "C"
