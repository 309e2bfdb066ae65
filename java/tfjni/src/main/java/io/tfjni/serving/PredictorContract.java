package io.tfjni.serving;

import io.tfjni.Predictor;
import io.tfjni.Signature;
import io.tfjni.TensorSpec;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a held {@link ServingPredictor} feeds and fetches: the signature, input and output keys
 * it was made with and the dtypes and shapes they had on the version it was made on. Every
 * version that serves it must accept those feeds: each input with the same dtype and a shape
 * that takes the same tensors, each output with the same dtype. Compared by identity: one per
 * serving predictor.
 */
final class PredictorContract {
  final String signatureKey;
  final List<String> inputKeys;
  final List<String> outputKeys;
  private final long madeOnVersion;
  private final Signature madeOnSignature;
  private final List<TensorSpec> inputs;
  private final List<TensorSpec> outputs;

  PredictorContract(String signatureKey, List<String> inputKeys, List<String> outputKeys,
      long madeOnVersion, Signature madeOnSignature, Predictor madeOn) {
    this.signatureKey = signatureKey;
    this.inputKeys = List.copyOf(inputKeys);
    this.outputKeys = List.copyOf(outputKeys);
    this.madeOnVersion = madeOnVersion;
    this.madeOnSignature = madeOnSignature;
    this.inputs = madeOn.inputs();
    this.outputs = madeOn.outputs();
  }

  List<TensorSpec> inputs() {
    return inputs;
  }

  List<TensorSpec> outputs() {
    return outputs;
  }

  /**
   * The predictor for this contract on {@code version}, owned by its model.
   *
   * @throws IncompatibleSignatureException naming both signatures if the version cannot serve
   *     the contract
   */
  Predictor prepareOn(LoadedVersion version) {
    Signature signature;
    Predictor predictor;
    try {
      signature = version.model.signature(signatureKey);
      predictor = version.model.predictor(signatureKey, inputKeys, outputKeys);
    } catch (IllegalArgumentException e) {
      throw refusal(version, null, e.getMessage());
    }
    String mismatch = mismatch(predictor);
    if (mismatch != null) {
      predictor.close();
      throw refusal(version, signature, mismatch);
    }
    return predictor;
  }

  /** Why {@code predictor} cannot take this contract's feeds, or null if it can. */
  private String mismatch(Predictor predictor) {
    for (int i = 0; i < inputs.size(); i++) {
      TensorSpec held = inputs.get(i);
      TensorSpec offered = predictor.inputs().get(i);
      if (held.dataType() != offered.dataType()) {
        return "input '" + held.key() + "' is " + offered.dataType() + ", was " + held.dataType();
      }
      if (!acceptsEveryShapeOf(offered, held)) {
        return "input '" + held.key() + "' has shape " + shapeOf(offered) + ", was "
            + shapeOf(held);
      }
    }
    for (int i = 0; i < outputs.size(); i++) {
      TensorSpec held = outputs.get(i);
      TensorSpec offered = predictor.outputs().get(i);
      if (held.dataType() != offered.dataType()) {
        return "output '" + held.key() + "' is " + offered.dataType() + ", was "
            + held.dataType();
      }
    }
    return null;
  }

  /** Whether every tensor {@code held} accepts is accepted by {@code offered}. */
  private static boolean acceptsEveryShapeOf(TensorSpec offered, TensorSpec held) {
    if (offered.hasUnknownRank()) {
      return true;
    }
    if (held.hasUnknownRank()) {
      return false;
    }
    long[] o = offered.shape();
    long[] h = held.shape();
    if (o.length != h.length) {
      return false;
    }
    for (int d = 0; d < o.length; d++) {
      if (o[d] >= 0 && o[d] != h[d]) {
        return false;
      }
    }
    return true;
  }

  private IncompatibleSignatureException refusal(LoadedVersion version, Signature offered,
      String why) {
    return new IncompatibleSignatureException("version " + version.version + " cannot serve the"
        + " predictor made on version " + madeOnVersion + ": " + why + "; version "
        + version.version + "'s signature: " + (offered == null ? describeAll(version)
            : describe(offered)) + "; version " + madeOnVersion + "'s signature: "
        + describe(madeOnSignature));
  }

  private String describeAll(LoadedVersion version) {
    try {
      return describe(version.model.signature(signatureKey));
    } catch (IllegalArgumentException e) {
      return "none named '" + signatureKey + "' (" + version.model.signatures().stream()
          .map(Signature::key).toList() + ")";
    }
  }

  static String describe(Signature signature) {
    return "'" + signature.key() + "' " + describe(signature.inputs()) + " -> "
        + describe(signature.outputs());
  }

  private static String describe(List<TensorSpec> specs) {
    return specs.stream().map(s -> s.key() + ": " + s.dataType() + " " + shapeOf(s))
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static String shapeOf(TensorSpec spec) {
    return spec.hasUnknownRank() ? "<unknown rank>" : Arrays.toString(spec.shape());
  }

  /** A version whose signature cannot feed a held predictor. */
  static final class IncompatibleSignatureException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    IncompatibleSignatureException(String message) {
      super(message);
    }
  }
}
