package io.tfjni.serving;

/**
 * A call found no version to serve it: none has loaded yet, or the serving version was unloaded
 * for a {@linkplain SwapOrder#RESOURCE_PRESERVING resource-preserving} swap and its successor is
 * not in yet. Retrying later may succeed; a closed {@link VersionedModel} throws {@link
 * IllegalStateException} instead.
 */
public final class VersionUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with this message.
   *
   * @param message why no version serves, naming the model
   */
  public VersionUnavailableException(String message) {
    super(message);
  }
}
