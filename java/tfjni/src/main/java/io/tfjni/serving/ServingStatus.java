package io.tfjni.serving;

import java.util.List;
import java.util.Optional;

/**
 * What a {@link VersionedModel} serves, and what went wrong, at one moment.
 *
 * @param servingVersion the version new calls go to, or {@link VersionedModel#NO_VERSION}
 * @param loadedVersions every loaded version, ascending (those the policy names that loaded)
 * @param pendingVersions version directories seen but not yet loadable: still changing between
 *     two polls, or without a saved_model.pb (or the ready marker, if one is required)
 * @param failedVersions the versions that failed and are not retried until their directory
 *     changes, one failure each, ascending by version
 * @param lastFailure the most recent failure, of any stage, if any
 * @param closed whether the model is closed
 */
public record ServingStatus(long servingVersion, List<Long> loadedVersions,
    List<Long> pendingVersions, List<VersionFailure> failedVersions,
    Optional<VersionFailure> lastFailure, boolean closed) {

  /**
   * A status; the lists are copied.
   *
   * @param servingVersion the version new calls go to
   * @param loadedVersions every loaded version
   * @param pendingVersions version directories not yet loadable
   * @param failedVersions failed versions, not retried until changed
   * @param lastFailure the most recent failure
   * @param closed whether the model is closed
   */
  public ServingStatus {
    loadedVersions = List.copyOf(loadedVersions);
    pendingVersions = List.copyOf(pendingVersions);
    failedVersions = List.copyOf(failedVersions);
  }
}
