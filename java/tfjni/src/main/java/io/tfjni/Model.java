package io.tfjni;

import io.tfjni.internal.NativeResource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loaded model (SavedModel, frozen graph or LiteRT model) that owns the predictors made from
 * it. Closing the model rejects new runs, waits for runs in flight, closes its predictors, then
 * frees the model.
 */
// Its base lives in io.tfjni.internal, which is not exported: users see its public methods only.
@SuppressWarnings("exports")
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

  @Override
  protected final void free(long handle) {
    for (Predictor predictor : predictors) {
      predictor.close();
    }
    freeModel(handle);
  }

  abstract void freeModel(long handle);
}
