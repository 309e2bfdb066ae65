package io.tfjni;

import io.tfjni.eager.EagerContext;
import java.util.Objects;

/**
 * TensorFlow's rule for its thread pools, in one place. The intra-op pool (threads one op may
 * use) is one per process, sized by the first session or eager context of the process; the shared
 * inter-op pool is sized by the first session. A count given to a later session is ignored without
 * a word, so a per-model count either takes a form that works whatever loaded first or is
 * refused here, with the reason:
 *
 * <ul>
 *   <li>inter-op -1: no inter-op pool, every op of a run on the thread that called it
 *       ({@link SessionOptions#runOnCallerThread()}); 0: the process's shared pool; N &gt; 0: a
 *       pool of N threads of the model's own ({@link SessionOptions#usePerSessionThreads}).
 *   <li>intra-op 0: the process's pool as it is; N &gt; 0: sizes the process's pool if no session
 *       or eager context has started yet, is accepted if the pool was sized to N, and is refused
 *       otherwise.
 * </ul>
 */
public final class ThreadPools {
  /** The intra-op count the process's pool was sized with; see {@link #started}. */
  private static final long NOT_STARTED = -2;
  private static final long SIZED_BY_A_RAW_CONFIG_PROTO = -1;
  private static final long TENSORFLOWS_DEFAULT = 0;

  private static long intraOpPool = NOT_STARTED;

  private ThreadPools() {}

  /**
   * Sets a model's inter-op count on {@code options} in the form described above.
   *
   * @param options the model's session options, changed in place
   * @param threads -1, 0 or a positive count
   * @return {@code options}
   * @throws IllegalArgumentException for a count below -1
   */
  public static SessionOptions interOpThreads(SessionOptions options, int threads) {
    Objects.requireNonNull(options, "options");
    if (threads == SessionOptions.CALLER_THREAD) {
      return options.runOnCallerThread();
    }
    if (threads == 0) {
      return options.interOpThreads(0);
    }
    if (threads > 0) {
      return options.interOpThreads(threads).usePerSessionThreads(true);
    }
    throw new IllegalArgumentException("inter-op threads must be -1 (every op on the calling"
        + " thread), 0 (TensorFlow's shared pool) or a positive count (a pool of the model's"
        + " own), got " + threads);
  }

  /**
   * Sets a model's intra-op count on {@code options} if it can take effect.
   *
   * @param options the model's session options, changed in place
   * @param threads 0 or a positive count
   * @return {@code options}
   * @throws IllegalArgumentException for a negative count, or one the process's intra-op pool
   *     was already sized without
   */
  public static SessionOptions intraOpThreads(SessionOptions options, int threads) {
    Objects.requireNonNull(options, "options");
    if (threads < 0) {
      throw new IllegalArgumentException("intra-op threads must be 0 (the process's pool as it"
          + " is) or a positive count, got " + threads);
    }
    if (threads > 0) {
      requireIntraOpPoolSizable(threads);
    }
    return options.intraOpThreads(threads);
  }

  private static synchronized void requireIntraOpPoolSizable(int threads) {
    if (intraOpPool == NOT_STARTED || intraOpPool == threads) {
      return;
    }
    String sized = intraOpPool == TENSORFLOWS_DEFAULT ? "TensorFlow's default (the CPU count)"
        : intraOpPool == SIZED_BY_A_RAW_CONFIG_PROTO ? "a ConfigProto's count"
        : intraOpPool + " threads";
    throw new IllegalArgumentException("intra-op threads " + threads + " cannot take effect:"
        + " TensorFlow sizes its intra-op pool once per process, and the first session or eager"
        + " context of this process sized it to " + sized + "; give the count before the first"
        + " model loads, or 0 to use the pool as it is");
  }

  /**
   * Records the intra-op count of the process's first session or eager context; the loads and
   * {@link EagerContext#create} call it before starting one.
   */
  static synchronized void started(SessionOptions options) {
    if (intraOpPool != NOT_STARTED) {
      return;
    }
    int intra = options.intraOpThreadCount();
    intraOpPool = intra == TENSORFLOWS_DEFAULT && options.rawConfig() != null
        ? SIZED_BY_A_RAW_CONFIG_PROTO : intra;
  }
}
