package io.tfjni;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loaded model (SavedModel or frozen graph) that owns the predictors made from it. Closing the
 * model rejects new runs, waits for runs in flight, closes its predictors, then frees the session.
 */
abstract class Model extends NativeResource {
  private final Set<Predictor> predictors = ConcurrentHashMap.newKeySet();

  Model(long handle) {
    super(handle);
  }

  final Predictor register(Predictor predictor) {
    predictors.add(predictor);
    if (isClosed()) {
      // Closed while the predictor was being made: do not leave it behind.
      predictor.close();
      throw new IllegalStateException(getClass().getSimpleName() + " is closed");
    }
    return predictor;
  }

  final void unregister(Predictor predictor) {
    predictors.remove(predictor);
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

  @Override
  final void free(long handle) {
    for (Predictor predictor : predictors) {
      predictor.close();
    }
    freeModel(handle);
  }

  abstract void freeModel(long handle);
}
