#include "tfjni/step_stats.h"

#include <tensorflow/c/c_api.h>

#include "tfjni/graph.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

// Field numbers from tensorflow/core/protobuf/config.proto and
// tensorflow/core/framework/step_stats.proto (checked against TensorFlow
// Python's descriptors).
namespace run_metadata_proto {
constexpr uint32_t kStepStats = 1;
}
namespace step_stats_proto {
constexpr uint32_t kDevStats = 1;
}
namespace device_step_stats_proto {
constexpr uint32_t kDevice = 1;
constexpr uint32_t kNodeStats = 2;
}
namespace node_exec_stats_proto {
constexpr uint32_t kNodeName = 1;
constexpr uint32_t kAllStartMicros = 2;
constexpr uint32_t kOpStartRelMicros = 3;
constexpr uint32_t kOpEndRelMicros = 4;
constexpr uint32_t kAllEndRelMicros = 5;
constexpr uint32_t kTimelineLabel = 8;
}  // namespace node_exec_stats_proto

// "name = Op(inputs)" -> "Op"; empty if the label has another form.
std::string_view op_of_label(std::string_view label) {
  size_t eq = label.find(" = ");
  if (eq == std::string_view::npos) return {};
  std::string_view rest = label.substr(eq + 3);
  size_t paren = rest.find('(');
  return paren == std::string_view::npos ? std::string_view{} : rest.substr(0, paren);
}

std::string op_of_graph(const Graph* graph, const std::string& node_name) {
  if (graph == nullptr) return {};
  TF_Operation* op = TF_GraphOperationByName(graph->get(), node_name.c_str());
  return op == nullptr ? std::string() : std::string(TF_OperationOpType(op));
}

NodeStats parse_node(std::string_view bytes, const std::string& device, const Graph* graph) {
  NodeStats node;
  node.device = device;
  std::string_view label;
  wire::Reader r(bytes);
  while (r.next()) {
    switch (r.field()) {
      case node_exec_stats_proto::kNodeName: node.node_name = std::string(r.bytes()); break;
      case node_exec_stats_proto::kAllStartMicros: node.all_start_micros = static_cast<int64_t>(r.varint()); break;
      case node_exec_stats_proto::kOpStartRelMicros: node.op_start_rel_micros = static_cast<int64_t>(r.varint()); break;
      case node_exec_stats_proto::kOpEndRelMicros: node.op_end_rel_micros = static_cast<int64_t>(r.varint()); break;
      case node_exec_stats_proto::kAllEndRelMicros: node.all_end_rel_micros = static_cast<int64_t>(r.varint()); break;
      case node_exec_stats_proto::kTimelineLabel: label = r.bytes(); break;
      default: break;
    }
  }
  node.op = std::string(op_of_label(label));
  if (node.op.empty()) node.op = op_of_graph(graph, node.node_name);
  return node;
}

void parse_device(std::string_view bytes, const Graph* graph, std::vector<NodeStats>& out) {
  // The device name may come after the nodes: keep their bytes until it is known.
  std::string device;
  std::vector<std::string_view> nodes;
  wire::Reader r(bytes);
  while (r.next()) {
    if (r.field() == device_step_stats_proto::kDevice) device = std::string(r.bytes());
    if (r.field() == device_step_stats_proto::kNodeStats) nodes.push_back(r.bytes());
  }
  for (std::string_view node : nodes) out.push_back(parse_node(node, device, graph));
}

}  // namespace

std::vector<NodeStats> parse_step_stats(std::string_view run_metadata, const Graph* graph) {
  std::vector<NodeStats> out;
  wire::Reader metadata(run_metadata);
  while (metadata.next()) {
    if (metadata.field() != run_metadata_proto::kStepStats) continue;
    wire::Reader step_stats(metadata.bytes());
    while (step_stats.next()) {
      if (step_stats.field() == step_stats_proto::kDevStats) parse_device(step_stats.bytes(), graph, out);
    }
  }
  return out;
}

}  // namespace tfjni
