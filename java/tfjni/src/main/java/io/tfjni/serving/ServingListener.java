package io.tfjni.serving;

import java.time.Duration;

/**
 * Hears what a {@link VersionedModel} does with its versions, to bind to metrics or alerts. Each
 * method is called on the thread that did the work: the polling thread, a {@link
 * VersionedModel#refresh()} or {@link VersionedModel#close()} caller, never a caller's run; it
 * should return quickly. An exception it throws is logged and otherwise ignored.
 * Every method does nothing by default.
 */
public interface ServingListener {
  /**
   * A version loaded and warmed up; it serves from now on (a swap to it follows if it is the
   * newest).
   *
   * @param version the version
   * @param loadTime TensorFlow's load and the predictors' preparation
   * @param warmUpTime the {@link Warmup}'s run
   */
  default void onLoad(long version, Duration loadTime, Duration warmUpTime) {}

  /**
   * A version failed to load, to warm up or to match the held predictors, and is not served;
   * or the base directory offered nothing to serve ({@link VersionFailure.Stage#SOURCE}).
   *
   * @param failure what failed, with TensorFlow's code and message
   */
  default void onLoadFailed(VersionFailure failure) {}

  /**
   * New calls go to another version from now on.
   *
   * @param previousVersion the version that served until now, or {@link
   *     VersionedModel#NO_VERSION} if none did
   * @param newVersion the version that serves now, or {@link VersionedModel#NO_VERSION} when a
   *     {@linkplain SwapOrder#RESOURCE_PRESERVING resource-preserving} swap unloads the serving
   *     version before its successor loads
   * @param unavailable how long no version served before this swap: {@link Duration#ZERO} when
   *     one did (an availability-preserving swap); for the first version, the time since the
   *     model was built
   */
  default void onSwap(long previousVersion, long newVersion, Duration unavailable) {}

  /**
   * A version was closed: it left the policy's versions and its last call returned.
   *
   * @param version the version
   * @param drainTime from leaving service until closed: its calls in flight, then the close
   */
  default void onUnload(long version, Duration drainTime) {}
}
