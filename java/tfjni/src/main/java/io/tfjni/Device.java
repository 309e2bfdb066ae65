package io.tfjni;

import io.tfjni.internal.SpecDecoder;
import java.util.ArrayList;
import java.util.List;

/**
 * A device a model's session or an eager context can place ops on.
 *
 * @param name the full name, e.g. "/job:localhost/replica:0/task:0/device:CPU:0"
 * @param type "CPU", "GPU", ...
 * @param memoryBytes the device's memory limit as TensorFlow reports it
 * @param incarnation a number that changes when the device is re-created
 */
public record Device(String name, String type, long memoryBytes, long incarnation) {

  /** Reads the JNI layer's encoding: a count, then name, type, memory, incarnation each. */
  static List<Device> decodeList(byte[] encoded) {
    SpecDecoder in = new SpecDecoder(encoded);
    int count = in.readInt();
    List<Device> devices = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      devices.add(new Device(in.readString(), in.readString(), in.readLong(), in.readLong()));
    }
    return List.copyOf(devices);
  }
}
