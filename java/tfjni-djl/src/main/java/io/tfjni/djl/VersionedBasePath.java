package io.tfjni.djl;

import ai.djl.MalformedModelException;
import io.tfjni.SessionOptions;
import io.tfjni.serving.ServingStatus;
import io.tfjni.serving.VersionUnavailableException;
import io.tfjni.serving.VersionedModel;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * A model path in TensorFlow Serving's layout: a base directory of numbered version directories
 * ({@code base/1}, {@code base/2}, ...), served through a {@link VersionedModel} with its
 * defaults (the newest version; a new version loaded off the request path and swapped in when
 * complete; the previous one closed when its last call returns). A path without a SavedModel
 * ({@code saved_model.pb}) or a frozen GraphDef is taken for one, and so is a path whose only
 * subdirectory is a numbered version. The option {@code
 * VersionPollInterval} (a {@link Duration}, or its ISO-8601 text such as "PT1S"; default one
 * second) sets how often the base directory is polled; "PT0S" polls only when {@link
 * VersionedModel#refresh()} is called. Given with a path that holds a SavedModel, it is an error:
 * the path is then no base path.
 */
final class VersionedBasePath {
  static final String POLL_INTERVAL = "VersionPollInterval";

  private VersionedBasePath() {}

  /**
   * Whether the model path as given is served as a base path of versions: when the options ask
   * for one, when no SavedModel was found, or when the SavedModel found is a numbered version
   * directory right under it (DJL steps into a lone subdirectory).
   *
   * @param asGiven the model path as given
   * @param exportDir the SavedModel directory found, or null
   */
  static boolean isBasePath(Path asGiven, Path exportDir, Map<String, ?> options) {
    return options.get(POLL_INTERVAL) != null || exportDir == null
        || (asGiven.equals(exportDir.toAbsolutePath().getParent())
            && VersionedModel.versionOf(exportDir.getFileName().toString()) >= 0);
  }

  /**
   * Serves the base path {@code base}: returns once its newest version serves.
   *
   * @throws FileNotFoundException if {@code base} holds no numbered version directory
   * @throws MalformedModelException if none of its versions can be served (TensorFlow's error
   *     named), the poll interval is not a duration, or {@code base} is a SavedModel (only the
   *     option {@code VersionPollInterval} leads here with one)
   */
  static VersionedModel open(Path base, SessionOptions sessionOptions, String[] tags,
      Map<String, ?> options) throws FileNotFoundException, MalformedModelException {
    if (Files.isRegularFile(base.resolve("saved_model.pb"))) {
      throw new MalformedModelException(POLL_INTERVAL + " serves a base path of numbered version"
          + " directories (" + base.resolve("1") + ", ...), but " + base + " is a SavedModel");
    }
    VersionedModel.Builder builder = VersionedModel.builder(base).sessionOptions(sessionOptions)
        .tags(tags);
    Duration interval = pollInterval(options);
    if (interval != null) {
      builder.pollInterval(interval);
    }
    VersionedModel model = builder.build();
    ServingStatus status = model.status();
    if (status.loadedVersions().isEmpty() && status.pendingVersions().isEmpty()
        && status.failedVersions().isEmpty()) {
      model.close();
      throw new FileNotFoundException("no TensorFlow SavedModel (saved_model.pb), frozen"
          + " GraphDef (NAME.pb) or numbered version directories (TensorFlow Serving's base"
          + " path: " + base.resolve("1") + ", " + base.resolve("2") + ", ...) in " + base);
    }
    try {
      model.lease().close();
      return model;
    } catch (VersionUnavailableException e) {
      model.close();
      throw new MalformedModelException("no version of the base path " + base + " can be"
          + " served; versions not complete yet: " + status.pendingVersions() + "; versions"
          + " that failed: " + status.failedVersions() + "; " + e.getMessage(), e);
    }
  }

  /** The option's poll interval, or null for the versioned model's default. */
  private static Duration pollInterval(Map<String, ?> options) throws MalformedModelException {
    Object value = options.get(POLL_INTERVAL);
    if (value == null) {
      return null;
    }
    Duration interval;
    try {
      interval = value instanceof Duration d ? d : Duration.parse(value.toString().trim());
    } catch (DateTimeParseException e) {
      throw new MalformedModelException(POLL_INTERVAL + " must be a duration such as \"PT1S\""
          + " (ISO-8601; \"PT0S\": only when refresh() is called), got '" + value + "'", e);
    }
    if (interval.isNegative()) {
      throw new MalformedModelException(POLL_INTERVAL + " must not be negative, got "
          + interval);
    }
    return interval;
  }
}
