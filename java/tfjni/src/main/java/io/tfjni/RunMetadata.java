package io.tfjni;

import io.tfjni.internal.SpecDecoder;
import java.util.ArrayList;
import java.util.List;

/**
 * What TensorFlow reports about one run ({@code tensorflow.RunMetadata}): the serialized proto,
 * and its step statistics parsed, which are empty unless the run's trace level was set
 * ({@link RunOptions#withTraceLevel}).
 */
public final class RunMetadata {
  private final byte[] bytes;
  private final List<NodeStats> stepStats;

  private RunMetadata(byte[] bytes, List<NodeStats> stepStats) {
    this.bytes = bytes;
    this.stepStats = stepStats;
  }

  /** Reads the encoding of the JNI layer: the raw bytes, then the parsed nodes. */
  static RunMetadata decode(byte[] encoded) {
    SpecDecoder in = new SpecDecoder(encoded);
    byte[] raw = in.readBytes();
    int count = in.readInt();
    List<NodeStats> nodes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      nodes.add(new NodeStats(in.readString(), in.readString(), in.readString(), in.readLong(),
          in.readLong(), in.readLong(), in.readLong()));
    }
    return new RunMetadata(raw, List.copyOf(nodes));
  }

  /**
   * The serialized RunMetadata, for tools that parse it themselves.
   *
   * @return a copy of TensorFlow's bytes
   */
  public byte[] bytes() {
    return bytes.clone();
  }

  /**
   * Every executed node of every device.
   *
   * @return the nodes, in the order TensorFlow recorded them (empty without a trace level)
   */
  public List<NodeStats> stepStats() {
    return stepStats;
  }
}
