package io.tfjni.djl;

import ai.djl.MalformedModelException;
import io.tfjni.SessionOptions;
import java.util.Map;

/**
 * The {@code Criteria} / {@code Model.load} thread option of a model's session,
 * {@code InterOpThreads} (an Integer or its text):
 * <ul>
 *   <li>-1: no inter-op pool; every op of a predict runs on the thread that called it (fastest
 *       for small models, and each caller thread runs its own predict);
 *   <li>0: TensorFlow's process-wide inter-op pool, sized by TensorFlow;
 *   <li>N &gt; 0: a pool of N inter-op threads of this model's own. TensorFlow sizes its
 *       process-wide pools once, for the first session of the process, so a count only takes
 *       effect for a model that has a pool of its own.
 * </ul>
 * There is no intra-op option: TensorFlow's intra-op pool is one per process, sized when the
 * first session or eager context starts (by the system property
 * {@code ai.djl.tensorflow.num_intraop_threads}), so a per-model count would be silently ignored;
 * {@code IntraOpThreads} is refused with that explanation.
 */
final class ModelThreads {
  static final String INTER_OP = "InterOpThreads";
  static final String INTRA_OP = "IntraOpThreads";

  private ModelThreads() {}

  /** Applies the options' thread setting, if any, to {@code session} (after the defaults). */
  static void apply(Map<String, ?> options, SessionOptions session)
      throws MalformedModelException {
    if (options.get(INTRA_OP) != null) {
      throw new MalformedModelException(INTRA_OP + " cannot be set per model: TensorFlow has one"
          + " intra-op pool per process, sized when the engine starts; set the system property "
          + TfjniEngine.INTRAOP_THREADS + " before the first use of the engine");
    }
    Object value = options.get(INTER_OP);
    if (value == null) {
      return;
    }
    int threads = integer(value);
    if (threads == SessionOptions.CALLER_THREAD) {
      session.runOnCallerThread();
    } else if (threads == 0) {
      session.interOpThreads(0);
    } else if (threads > 0) {
      session.interOpThreads(threads).usePerSessionThreads(true);
    } else {
      throw new MalformedModelException(INTER_OP + " must be -1 (ops on the calling thread),"
          + " 0 (TensorFlow's shared pool) or a positive count (a pool of the model's own), got "
          + threads);
    }
  }

  private static int integer(Object value) throws MalformedModelException {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).intValue();
    }
    try {
      return Integer.parseInt(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new MalformedModelException(INTER_OP + " must be an integer (-1, 0 or a thread"
          + " count), got '" + value + "'", e);
    }
  }
}
