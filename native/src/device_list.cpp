#include "tfjni/device_list.h"

#include <memory>

#include "tfjni/error.h"

namespace tfjni {

std::vector<DeviceInfo> describe_devices(TF_DeviceList* list) {
  struct Deleter {
    void operator()(TF_DeviceList* l) const noexcept { TF_DeleteDeviceList(l); }
  };
  std::unique_ptr<TF_DeviceList, Deleter> owned(list);
  if (!owned) throw_error(TF_INTERNAL, "TensorFlow returned no device list");
  Status status;
  std::vector<DeviceInfo> devices;
  int count = TF_DeviceListCount(owned.get());
  for (int i = 0; i < count; ++i) {
    DeviceInfo device;
    device.name = TF_DeviceListName(owned.get(), i, status.get());
    status.check();
    device.type = TF_DeviceListType(owned.get(), i, status.get());
    status.check();
    device.memory_bytes = TF_DeviceListMemoryBytes(owned.get(), i, status.get());
    status.check();
    device.incarnation = TF_DeviceListIncarnation(owned.get(), i, status.get());
    status.check();
    devices.push_back(std::move(device));
  }
  return devices;
}

}  // namespace tfjni
