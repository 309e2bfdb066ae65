package io.tfjni;

/**
 * One executed node of a traced run (TensorFlow's {@code NodeExecStats}).
 *
 * @param device the device it ran on, e.g. "/job:localhost/replica:0/task:0/device:CPU:0"
 * @param nodeName the node: a graph node, or one TensorFlow added ({@code _SOURCE},
 *     {@code _arg_x_0_0}, a function's inner node, ...)
 * @param op the op that ran, from TensorFlow's timeline label: grappler may have fused or
 *     folded the graph's op into another (a MatMul, add and Tanh can run as one fused op named
 *     after the Tanh node); else the graph's op of that name, else empty
 * @param allStartMicros when the node started, in microseconds since the epoch
 * @param opStartRelMicros when its op started, relative to {@code allStartMicros}
 * @param opEndRelMicros when its op ended, relative to {@code allStartMicros}
 * @param allEndRelMicros when the node ended, relative to {@code allStartMicros}
 */
public record NodeStats(String device, String nodeName, String op, long allStartMicros,
    long opStartRelMicros, long opEndRelMicros, long allEndRelMicros) {

  /**
   * The node's duration.
   *
   * @return microseconds from the node's start to its end ({@code allEndRelMicros})
   */
  public long durationMicros() {
    return allEndRelMicros;
  }
}
