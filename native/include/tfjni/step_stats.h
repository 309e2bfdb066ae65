// Per-node timings of one traced run, read from a serialized
// tensorflow.RunMetadata (its step_stats field).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfjni {

class Graph;

struct NodeStats {
  std::string device;     // e.g. "/job:localhost/replica:0/task:0/device:CPU:0"
  std::string node_name;  // the executed node: a graph node, or one TensorFlow added (_SOURCE, _arg_x_0_0, ...)
  // The op that ran, from the node's timeline label ("name = Op(inputs)"):
  // grappler may have fused or folded the graph's op into another. Without a
  // label, the graph's op of that name; else empty.
  std::string op;
  int64_t all_start_micros = 0;     // since the epoch
  int64_t op_start_rel_micros = 0;  // relative to all_start_micros
  int64_t op_end_rel_micros = 0;
  int64_t all_end_rel_micros = 0;   // the node's whole duration
};

// Every node of every device, in the order TensorFlow recorded them. `graph`
// (may be null) supplies op types for nodes without a timeline label.
// Malformed bytes throw DATA_LOSS.
std::vector<NodeStats> parse_step_stats(std::string_view run_metadata, const Graph* graph);

}  // namespace tfjni
