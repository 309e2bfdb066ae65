package io.tfjni.djl;

import ai.djl.MalformedModelException;
import io.tfjni.SessionOptions;
import io.tfjni.ThreadPools;
import java.util.Map;

/**
 * The {@code Criteria} / {@code Model.load} thread options of a model, each an Integer or its
 * text. Those of its TensorFlow session, under TensorFlow's rule as {@link ThreadPools} keeps it:
 * <ul>
 *   <li>{@code InterOpThreads} -1: no inter-op pool, every op of a predict on the thread that
 *       called it (fastest for small models, and each caller thread runs its own predict); 0:
 *       TensorFlow's process-wide inter-op pool; N &gt; 0: a pool of N threads of the model's own.
 *   <li>{@code IntraOpThreads}: the process has one intra-op pool, sized when the engine starts
 *       (by the system property {@code ai.djl.tensorflow.num_intraop_threads}), so a count is
 *       accepted only if it is that pool's, and refused otherwise.
 * </ul>
 * And {@code PreferLiteRt}: N &gt; 0 loads the LiteRT models {@code tfjni convert} wrote beside
 * a SavedModel, each running on N CPU threads, and a predict whose batch size was converted runs
 * on LiteRT ({@link SessionOptions#preferLiteRt(int)}); 0, the default, runs TensorFlow only.
 */
final class ModelThreads {
  static final String INTER_OP = "InterOpThreads";
  static final String INTRA_OP = "IntraOpThreads";
  static final String PREFER_LITERT = "PreferLiteRt";

  private ModelThreads() {}

  /** Applies the options' thread settings, if any, to {@code session} (after the defaults). */
  static void apply(Map<String, ?> options, SessionOptions session)
      throws MalformedModelException {
    Object intra = options.get(INTRA_OP);
    if (intra != null) {
      try {
        ThreadPools.intraOpThreads(session, integer(INTRA_OP, intra));
      } catch (IllegalArgumentException e) {
        throw new MalformedModelException(INTRA_OP + ": " + e.getMessage() + " (for this"
            + " engine: the system property " + TfjniEngine.INTRAOP_THREADS + ")", e);
      }
    }
    Object inter = options.get(INTER_OP);
    if (inter != null) {
      try {
        ThreadPools.interOpThreads(session, integer(INTER_OP, inter));
      } catch (IllegalArgumentException e) {
        throw new MalformedModelException(INTER_OP + ": " + e.getMessage(), e);
      }
    }
    Object liteRt = options.get(PREFER_LITERT);
    if (liteRt != null) {
      try {
        session.preferLiteRt(integer(PREFER_LITERT, liteRt));
      } catch (IllegalArgumentException e) {
        throw new MalformedModelException(PREFER_LITERT + ": " + e.getMessage(), e);
      }
    }
  }

  private static int integer(String option, Object value) throws MalformedModelException {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).intValue();
    }
    try {
      return Integer.parseInt(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new MalformedModelException(option + " must be an integer thread count, got '"
          + value + "'", e);
    }
  }
}
