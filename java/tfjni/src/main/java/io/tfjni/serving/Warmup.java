package io.tfjni.serving;

import java.util.Objects;

/**
 * Runs a freshly loaded version before it takes traffic, so that its first real call is not a
 * cold one (TensorFlow builds kernels, allocates and tunes on the first runs). Called once per
 * version, off the request path, after the version's predictors are prepared. A warm-up that
 * throws keeps the version out of service: the failure is reported with {@link
 * VersionFailure.Stage#WARM_UP} and TensorFlow's code when the cause is a {@link
 * io.tfjni.TensorFlowException}.
 *
 * <p>A warm-up replaying TensorFlow Serving's {@code assets.extra/tf_serving_warmup_requests} is
 * one more implementation: it reads that file under {@link ModelVersion#directory()} and runs its
 * requests through {@link ModelVersion#model()}; combine it with rows of the user's own through
 * {@link #andThen}.
 */
@FunctionalInterface
public interface Warmup {
  /** A warm-up that runs nothing. */
  Warmup NONE = version -> { };

  /**
   * Runs the version's warm-up calls; any tensor or result made here must be closed here.
   *
   * @param version the loaded version, not yet serving
   * @throws Exception any failure, which keeps the version out of service
   */
  void warmUp(ModelVersion version) throws Exception;

  /**
   * This warm-up, then {@code next}.
   *
   * @param next the warm-up to run after this one
   * @return both in order; the first failure stops the chain
   */
  default Warmup andThen(Warmup next) {
    Objects.requireNonNull(next, "next");
    return version -> {
      warmUp(version);
      next.warmUp(version);
    };
  }
}
