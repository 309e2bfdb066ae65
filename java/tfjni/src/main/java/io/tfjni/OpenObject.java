package io.tfjni;

import java.util.List;

/**
 * A native object that is still open, as leak tracing recorded it (see {@link
 * TensorFlow#openObjects()}).
 *
 * @param kind the Java class that owns it, e.g. {@code "Tensor"}, {@code "Predictor"}
 * @param id a number unique to this object within the process, in creation order
 * @param unreachable true once the garbage collector found it unreachable without close(): a
 *     certain leak (its native memory is not freed)
 * @param creationStack where it was created, innermost frame first (a run's output tensor: where
 *     its RunResult was created)
 */
public record OpenObject(String kind, long id, boolean unreachable,
    List<StackTraceElement> creationStack) {

  /** The object, then its creation stack one frame a line, like a Java stack trace. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(kind).append('#').append(id)
        .append(unreachable ? " (unreachable, never closed)" : " (open)")
        .append(" created at");
    for (StackTraceElement frame : creationStack) {
      text.append(System.lineSeparator()).append("\tat ").append(frame);
    }
    return text.toString();
  }
}
