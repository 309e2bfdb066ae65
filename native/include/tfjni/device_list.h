// The devices a session or an eager context can place ops on.
#pragma once

#include <tensorflow/c/c_api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tfjni {

struct DeviceInfo {
  std::string name;  // e.g. "/job:localhost/replica:0/task:0/device:CPU:0"
  std::string type;  // "CPU", "GPU", ...
  int64_t memory_bytes = 0;  // the device's memory limit as TensorFlow reports it
  uint64_t incarnation = 0;  // changes when the device is re-created
};

// Describes every device of a list TF_SessionListDevices or
// TFE_ContextListDevices returned, and deletes the list (also on error).
std::vector<DeviceInfo> describe_devices(TF_DeviceList* list);

}  // namespace tfjni
