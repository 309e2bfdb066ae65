package io.tfjni;

import java.util.List;

/** A model run by a TensorFlow session (SavedModel, frozen graph): it has the session's devices. */
abstract class SessionModel extends Model {
  SessionModel(long handle) {
    super(handle);
  }

  /**
   * The devices the model's session can place ops on (TensorFlow's session.list_devices()).
   *
   * @return the devices, in TensorFlow's order
   * @throws IllegalStateException if the model is closed
   */
  public final List<Device> listDevices() {
    long h = acquire();
    try {
      return Device.decodeList(encodedDevices(h));
    } finally {
      release();
    }
  }

  /** The session's devices in {@link Device#decodeList}'s encoding. */
  abstract byte[] encodedDevices(long handle);
}
