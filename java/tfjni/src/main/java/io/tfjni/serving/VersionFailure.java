package io.tfjni.serving;

import io.tfjni.TensorFlowException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Why a version was not swapped in, or why the base directory offers nothing to serve.
 *
 * @param version the version concerned; for {@link Stage#SOURCE}, the version still serving, or
 *     {@link VersionedModel#NO_VERSION} if none is
 * @param directory the version's directory, or the base directory for {@link Stage#SOURCE}
 * @param stage where it failed
 * @param code TensorFlow's status code if TensorFlow reported the failure, else empty
 * @param message what went wrong, TensorFlow's message included
 * @param cause the exception behind it, if any (null for {@link Stage#SOURCE})
 * @param time when it was found
 */
public record VersionFailure(long version, Path directory, Stage stage,
    Optional<TensorFlowException.Code> code, String message, Throwable cause, Instant time) {

  /** Where a version failed. */
  public enum Stage {
    /** TensorFlow could not load the SavedModel (a truncated saved_model.pb, no variables...). */
    LOAD,
    /**
     * The version's signature cannot feed a {@link ServingPredictor} or {@link
     * ServingBatchingPredictor} made earlier (an input renamed, a dtype changed).
     */
    SIGNATURE,
    /** The {@link Warmup} threw. */
    WARM_UP,
    /**
     * The base directory has nothing the policy would serve (it is gone, unreadable, or every
     * version in it was removed): the loaded versions keep serving.
     */
    SOURCE
  }

  static VersionFailure of(long version, Path directory, Stage stage, Throwable cause) {
    Optional<TensorFlowException.Code> code = Optional.empty();
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof TensorFlowException tf) {
        code = Optional.of(tf.code());
        break;
      }
    }
    String message = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    return new VersionFailure(version, directory, stage, code, message, cause, Instant.now());
  }

  static VersionFailure ofSource(long servingVersion, Path baseDirectory, String message) {
    return new VersionFailure(servingVersion, baseDirectory, Stage.SOURCE, Optional.empty(),
        message, null, Instant.now());
  }

  @Override
  public String toString() {
    return stage + " of version " + version + " (" + directory + ")"
        + code.map(c -> " [" + c + "]").orElse("") + ": " + message;
  }
}
