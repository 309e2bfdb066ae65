package io.tfjni.djl;

import ai.djl.MalformedModelException;
import ai.djl.ndarray.NDList;
import io.tfjni.Signature;
import io.tfjni.Tensor;
import io.tfjni.serving.ServingBatchingPredictor;
import io.tfjni.serving.ServingPredictor;
import io.tfjni.serving.VersionLease;
import io.tfjni.serving.VersionedModel;

/**
 * A versioned model's signature as a DJL block: every forward pass runs on the version serving
 * when it starts ({@link ServingPredictor}, or with the batching options {@link
 * ServingBatchingPredictor}), so a DJL {@code Predictor} held across swaps follows them. Inputs
 * and outputs as in {@link TfjniSymbolBlock}, from the signature of the version serving at load;
 * a later version that cannot feed it is refused by the versioned model and the serving one
 * keeps serving. The predictors are the versioned model's own: closing the block closes nothing.
 */
final class VersionedSymbolBlock extends TfjniSymbolBlock {
  private final ServingPredictor predictor;
  /** Runs every forward pass when the model batches across callers; else null. */
  private final ServingBatchingPredictor batcher;

  VersionedSymbolBlock(VersionedModel model, String signatureKey, ModelBatching batching)
      throws MalformedModelException {
    this(model, servingSignature(model, signatureKey), batching);
  }

  private VersionedSymbolBlock(VersionedModel model, Signature signature, ModelBatching batching)
      throws MalformedModelException {
    super(signature);
    // Signature lists inputs and outputs sorted by key.
    this.predictor = model.predictor(signature.key(), signature.inputKeys(),
        signature.outputKeys());
    this.batcher = batching == null ? null : batching.over(model, signature);
  }

  /** The signature {@code key} of the serving version. */
  private static Signature servingSignature(VersionedModel model, String key)
      throws MalformedModelException {
    try (VersionLease serving = model.lease()) {
      return TfjniModel.findSignature(serving.model(), key);
    }
  }

  @Override
  NDList forward(Tensor[] feeds, TfjniNDManager manager) {
    return batcher != null ? asArrays(manager, batcher.predict(feeds))
        : asArrays(manager, predictor.run(feeds));
  }

  @Override
  public void close() {
    // The predictors are the versioned model's, closed with it.
  }
}
