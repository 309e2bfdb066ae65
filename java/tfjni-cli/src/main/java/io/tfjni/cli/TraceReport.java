package io.tfjni.cli;

import io.tfjni.NodeStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The slowest ops of traced runs ({@code tfjni bench --trace}): TensorFlow's step statistics
 * summed per executed node over every traced run, with the device each node ran on.
 */
final class TraceReport {
  /** One node's totals: how often it ran and for how long in all, and where. */
  record OpTotal(String node, String op, String device, long count, long totalMicros) {
    double meanMicros() {
      return count == 0 ? 0 : (double) totalMicros / count;
    }
  }

  private final Map<String, long[]> totals = new LinkedHashMap<>();
  private final Map<String, String> ops = new LinkedHashMap<>();
  private final Map<String, String> devices = new LinkedHashMap<>();
  private int runs;

  /** Adds one traced run's nodes. */
  void add(List<NodeStats> nodes) {
    runs++;
    for (NodeStats node : nodes) {
      long[] total = totals.computeIfAbsent(node.nodeName(), k -> new long[2]);
      total[0]++;
      total[1] += node.durationMicros();
      ops.putIfAbsent(node.nodeName(), node.op());
      devices.putIfAbsent(node.nodeName(), shortDevice(node.device()));
    }
  }

  /** Every node, slowest (largest total) first; ties by name. */
  List<OpTotal> slowest() {
    List<OpTotal> list = new ArrayList<>();
    totals.forEach((node, t) ->
        list.add(new OpTotal(node, ops.get(node), devices.get(node), t[0], t[1])));
    list.sort(Comparator.comparingLong(OpTotal::totalMicros).reversed()
        .thenComparing(OpTotal::node));
    return list;
  }

  /** A table of the {@code top} slowest nodes. */
  String table(int top) {
    List<OpTotal> slowest = slowest();
    long all = slowest.stream().mapToLong(OpTotal::totalMicros).sum();
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Slowest ops over %d traced run%s (TensorFlow's step"
        + " statistics; %d nodes, %d us in all):%n", runs, runs == 1 ? "" : "s", slowest.size(),
        all));
    out.append(String.format(Locale.ROOT, "  %12s %8s %10s %6s  %-7s %-24s %s%n", "total us",
        "count", "mean us", "share", "device", "op", "node"));
    for (OpTotal t : slowest.subList(0, Math.min(top, slowest.size()))) {
      out.append(String.format(Locale.ROOT, "  %12d %8d %10.1f %5.1f%%  %-7s %-24s %s%n",
          t.totalMicros(), t.count(), t.meanMicros(),
          all == 0 ? 0.0 : 100.0 * t.totalMicros() / all, t.device(), t.op().isEmpty() ? "?" : t.op(), t.node()));
    }
    return out.toString();
  }

  /** "CPU:0" for "/job:localhost/replica:0/task:0/device:CPU:0": where a node ran, in short. */
  static String shortDevice(String device) {
    int at = device.lastIndexOf("device:");
    String name = at < 0 ? device : device.substring(at + "device:".length());
    return name.isEmpty() ? "?" : name;
  }
}
