package io.tfjni.cli;

import java.util.Map;
import picocli.CommandLine.Option;

/** The {@code --inputs} and {@code --input_exprs} options of {@code tfjni run} and bench. */
final class InputOptions {
  @Option(names = "--inputs", paramLabel = "SPEC",
      description = {"Inputs from files, ';'-separated: KEY=FILE.npy, or KEY=FILE.npz[NAME] (NAME"
          + " may be left out if the .npz holds one array). Numeric, bool, bytes (S) and unicode"
          + " (U) arrays; their dtype and shape must match the signature's."})
  String inputs;

  @Option(names = {"--input_exprs", "--input-exprs"}, paramLabel = "SPEC",
      description = {"Inputs as Python literals, ';'-separated: KEY=[[1,2],[3,4]], KEY=3.5,"
          + " KEY=['a','b'], KEY=True, KEY=1+2j; their values take the signature's dtype.",
          "Or NumPy constructors, parsed (never evaluated): np.zeros(SHAPE), np.ones(SHAPE),"
          + " np.full(SHAPE, VALUE), np.arange([START,] STOP[, STEP]), np.linspace(START, STOP[,"
          + " NUM[, ENDPOINT]]), then .reshape(...), e.g. KEY=np.arange(6).reshape(2, 3);"
          + " numpy. works as np. does. Without dtype= the values (NumPy's, float64 or int64)"
          + " take the signature's dtype; dtype=np.float32 (or 'float32') must be the"
          + " signature's."})
  String inputExprs;

  /** The inputs given, by key, in the order given (empty if none). */
  Map<String, InputLoader.Source> sources() {
    return InputLoader.parse(inputs, inputExprs);
  }
}
