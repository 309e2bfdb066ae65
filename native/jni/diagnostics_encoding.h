// Devices and run metadata in the byte encoding io.tfjni.Device and
// io.tfjni.RunMetadata decode (one crossing each).
#pragma once

#include <jni.h>

#include <string>
#include <vector>

#include "tfjni/device_list.h"
#include "tfjni/step_stats.h"

namespace tfjni::jni {

// A count, then name, type, memory bytes and incarnation of each device.
jbyteArray encode_devices(JNIEnv* env, const std::vector<DeviceInfo>& devices);

// The raw RunMetadata bytes, then a count and each node's device, name, op,
// all_start, op_start_rel, op_end_rel and all_end_rel micros.
jbyteArray encode_run_metadata(JNIEnv* env, const std::string& run_metadata,
                               const std::vector<NodeStats>& nodes);

}  // namespace tfjni::jni
