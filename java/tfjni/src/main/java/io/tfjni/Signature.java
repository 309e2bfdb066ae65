package io.tfjni;

import java.util.List;

/** A SignatureDef of a SavedModel: its key, method, and inputs and outputs sorted by key. */
public record Signature(String key, String methodName, List<TensorSpec> inputs,
    List<TensorSpec> outputs) {

  public Signature {
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
  }

  public TensorSpec input(String inputKey) {
    return find(inputs, inputKey, "input");
  }

  public TensorSpec output(String outputKey) {
    return find(outputs, outputKey, "output");
  }

  public List<String> inputKeys() {
    return inputs.stream().map(TensorSpec::key).toList();
  }

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
}
