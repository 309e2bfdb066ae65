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
 * <p>{@link #TENSORFLOW_SERVING_FILE}, a versioned model's default, replays TensorFlow Serving's
 * warm-up file when a version has one; combine it with rows of the user's own through {@link
 * #andThen}.
 */
@FunctionalInterface
public interface Warmup {
  /** A warm-up that runs nothing. */
  Warmup NONE = version -> { };

  /**
   * Replays the version's {@value WarmupRequests#FILE} (TensorFlow Serving's warm-up records),
   * if it has one, through {@link WarmupRequests#replay(io.tfjni.SavedModel, java.nio.file.Path)}:
   * a damaged file or a request the version refuses fails the warm-up, naming the record.
   */
  Warmup TENSORFLOW_SERVING_FILE =
      version -> WarmupRequests.replay(version.model(), version.directory());

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
