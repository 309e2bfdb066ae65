package io.tfjni.serving;

import io.tfjni.SavedModel;

/**
 * A hold on one loaded version of a {@link VersionedModel}: while it is open the version is not
 * closed, even if it is swapped out. For calls a {@link ServingPredictor} does not cover (another
 * signature each time, the map API). Close it promptly: an unloaded version's memory is freed
 * only when its last lease closes.
 *
 * <p>Thread safety: the model may be used from any thread while the lease is open; close the
 * lease once.
 */
public final class VersionLease implements AutoCloseable {
  private final LoadedVersion version;
  private boolean closed;

  VersionLease(LoadedVersion version) {
    this.version = version;
  }

  /**
   * The version's number.
   *
   * @return the version
   */
  public long version() {
    return version.version;
  }

  /**
   * The version's model, owned by the versioned model: run it, do not close it.
   *
   * @return the model
   * @throws IllegalStateException if this lease is closed
   */
  public SavedModel model() {
    if (closed) {
      throw new IllegalStateException("the lease on version " + version.version + " is closed");
    }
    return version.model;
  }

  /** Releases the version; idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      version.release();
    }
  }
}
