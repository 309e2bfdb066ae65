#include "diagnostics_encoding.h"

#include "jni_support.h"

namespace tfjni::jni {

jbyteArray encode_devices(JNIEnv* env, const std::vector<DeviceInfo>& devices) {
  SpecEncoder out;
  out.put_int(static_cast<int32_t>(devices.size()));
  for (const DeviceInfo& device : devices) {
    out.put_string(device.name);
    out.put_string(device.type);
    out.put_long(device.memory_bytes);
    out.put_long(static_cast<int64_t>(device.incarnation));
  }
  return to_byte_array(env, out.bytes());
}

jbyteArray encode_run_metadata(JNIEnv* env, const std::string& run_metadata,
                               const std::vector<NodeStats>& nodes) {
  SpecEncoder out;
  out.put_string(run_metadata);
  out.put_int(static_cast<int32_t>(nodes.size()));
  for (const NodeStats& node : nodes) {
    out.put_string(node.device);
    out.put_string(node.node_name);
    out.put_string(node.op);
    out.put_long(node.all_start_micros);
    out.put_long(node.op_start_rel_micros);
    out.put_long(node.op_end_rel_micros);
    out.put_long(node.all_end_rel_micros);
  }
  return to_byte_array(env, out.bytes());
}

}  // namespace tfjni::jni
