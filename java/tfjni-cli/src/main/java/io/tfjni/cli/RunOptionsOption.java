package io.tfjni.cli;

import io.tfjni.Predictor;
import io.tfjni.RunOptions;
import picocli.CommandLine.Option;

/** {@code --timeout_ms} of {@code tfjni run} and {@code tfjni bench}, as a picocli mixin. */
final class RunOptionsOption {
  @Option(names = {"--timeout_ms", "--timeout-ms"}, paramLabel = "MS",
      description = "Fail a run that takes longer than MS milliseconds (TensorFlow's"
          + " RunOptions.timeout_in_ms; the error is DEADLINE_EXCEEDED). 0: no timeout, the"
          + " default.")
  Long timeoutMs;

  /** The run options given (defaults if none); throws CliException for a negative timeout. */
  RunOptions runOptions() {
    if (timeoutMs == null) {
      return RunOptions.defaults();
    }
    if (timeoutMs < 0) {
      throw new CliException("--timeout_ms must be >= 0 (0: no timeout), got " + timeoutMs);
    }
    return RunOptions.defaults().withTimeoutMillis(timeoutMs);
  }

  /** {@code predictor} itself without options, else a predictor with them (close both). */
  Predictor apply(Predictor predictor) {
    RunOptions options = runOptions();
    return options.isDefault() ? predictor : predictor.withOptions(options);
  }
}
