package io.tfjni;

import io.tfjni.internal.SpecDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A SignatureDef of a SavedModel: its key, method, and inputs and outputs sorted by key.
 *
 * @param key the signature's key, e.g. {@code "serving_default"}
 * @param methodName the signature's method, e.g. {@code "tensorflow/serving/predict"}
 * @param inputs the inputs, sorted by key (copied)
 * @param outputs the outputs, sorted by key (copied)
 */
public record Signature(String key, String methodName, List<TensorSpec> inputs,
    List<TensorSpec> outputs) {

  /**
   * A signature; the lists are copied, and must hold no null.
   *
   * @param key the signature's key
   * @param methodName the signature's method
   * @param inputs the inputs, sorted by key
   * @param outputs the outputs, sorted by key
   */
  public Signature {
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
  }

  /**
   * One input of the signature.
   *
   * @param inputKey the input's key in the signature
   * @return the input's spec
   * @throws IllegalArgumentException if the signature has no such input (the message lists them)
   */
  public TensorSpec input(String inputKey) {
    return find(inputs, inputKey, "input");
  }

  /**
   * One output of the signature.
   *
   * @param outputKey the output's key in the signature
   * @return the output's spec
   * @throws IllegalArgumentException if the signature has no such output (the message lists them)
   */
  public TensorSpec output(String outputKey) {
    return find(outputs, outputKey, "output");
  }

  /**
   * The inputs' keys.
   *
   * @return the keys, sorted
   */
  public List<String> inputKeys() {
    return inputs.stream().map(TensorSpec::key).toList();
  }

  /**
   * The outputs' keys.
   *
   * @return the keys, sorted
   */
  public List<String> outputKeys() {
    return outputs.stream().map(TensorSpec::key).toList();
  }

  private TensorSpec find(List<TensorSpec> specs, String specKey, String what) {
    for (TensorSpec spec : specs) {
      if (spec.key().equals(specKey)) {
        return spec;
      }
    }
    throw new IllegalArgumentException("signature '" + key + "' has no " + what + " '" + specKey
        + "'; its " + what + "s are " + specs.stream().map(TensorSpec::key).toList());
  }

  /**
   * The signature of {@code key} among a model's signatures.
   *
   * @throws IllegalArgumentException if there is none (the message lists the keys)
   */
  static Signature byKey(List<Signature> signatures, String key) {
    Objects.requireNonNull(key, "key");
    for (Signature signature : signatures) {
      if (signature.key().equals(key)) {
        return signature;
      }
    }
    throw new IllegalArgumentException("no signature '" + key + "'; signatures are "
        + signatures.stream().map(Signature::key).toList());
  }

  /** Signatures as native code encodes them: a count, then key, method, inputs, outputs each. */
  static List<Signature> decodeAll(byte[] encoded) {
    SpecDecoder in = new SpecDecoder(encoded);
    int count = in.readInt();
    List<Signature> result = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String key = in.readString();
      String method = in.readString();
      List<TensorSpec> inputs = in.readSpecs();
      List<TensorSpec> outputs = in.readSpecs();
      result.add(new Signature(key, method, inputs, outputs));
    }
    return List.copyOf(result);
  }
}
