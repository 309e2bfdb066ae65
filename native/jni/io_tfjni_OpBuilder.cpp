// Natives of io.tfjni.OpBuilder: one crossing per op execution.
#include <vector>

#include "jni_support.h"
#include "tfjni/eager.h"
#include "tfjni/eager_attrs.h"
#include "tfjni/error.h"

using namespace tfjni::jni;
using tfjni::Tensor;
using tfjni::TensorHandle;

namespace {

// inputs holds every input handle in order; list_lengths has one entry per
// input slot: -1 for a single tensor, n >= 0 for a list of the next n handles.
void add_inputs(JNIEnv* env, tfjni::Op& op, jlongArray inputs, jintArray list_lengths) {
  std::vector<int64_t> handles = to_longs(env, inputs);
  jsize slots = env->GetArrayLength(list_lengths);
  std::vector<jint> lengths(static_cast<size_t>(slots));
  env->GetIntArrayRegion(list_lengths, 0, slots, lengths.data());
  size_t next = 0;
  for (jint length : lengths) {
    size_t count = length < 0 ? 1 : static_cast<size_t>(length);
    if (next + count > handles.size()) throw tfjni::Error(TF_INVALID_ARGUMENT, "malformed op inputs");
    if (length < 0) {
      op.input(*from_handle<TensorHandle>(handles[next]));
    } else {
      std::vector<const TensorHandle*> list;
      for (size_t i = 0; i < count; ++i) list.push_back(from_handle<TensorHandle>(handles[next + i]));
      op.input_list(list);
    }
    next += count;
  }
  if (next != handles.size()) throw tfjni::Error(TF_INVALID_ARGUMENT, "malformed op inputs");
}

}  // namespace

extern "C" {

// Returns the handles of every output.
JNIEXPORT jlongArray JNICALL Java_io_tfjni_OpBuilder_nativeExecute(
    JNIEnv* env, jclass, jlong context, jstring op_name, jstring device, jlongArray inputs,
    jintArray list_lengths, jbyteArray attrs, jlongArray attr_tensors) {
  return guarded(env, [&] {
    tfjni::Op op(*from_handle<tfjni::Context>(context), to_string(env, op_name).c_str());
    if (device != nullptr) op.device(to_string(env, device).c_str());
    add_inputs(env, op, inputs, list_lengths);
    std::vector<const Tensor*> tensors;
    for (int64_t h : to_longs(env, attr_tensors)) tensors.push_back(from_handle<Tensor>(h));
    jsize attr_length = env->GetArrayLength(attrs);
    std::string encoded(static_cast<size_t>(attr_length), '\0');
    env->GetByteArrayRegion(attrs, 0, attr_length, reinterpret_cast<jbyte*>(encoded.data()));
    tfjni::apply_encoded_attrs(op, encoded, tensors);
    std::vector<TensorHandle> outputs = op.execute();
    std::vector<int64_t> handles;
    handles.reserve(outputs.size());
    // Handles are owned by Java from here; if the array cannot be made, free them.
    std::vector<std::unique_ptr<TensorHandle>> owned;
    for (TensorHandle& out : outputs) owned.push_back(std::make_unique<TensorHandle>(std::move(out)));
    for (auto& h : owned) handles.push_back(to_handle(h.get()));
    jlongArray result = to_long_array(env, handles);
    for (auto& h : owned) h.release();
    return result;
  });
}

}  // extern "C"
