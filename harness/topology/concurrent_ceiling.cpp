// concurrent_ceiling (declared in topology.hpp): the most a set of GPUs can receive at once, as a
// maximum flow down the PCI tree.

#include <algorithm>
#include <optional>
#include <vector>

#include "harness/topology/topology.hpp"

namespace h2d {
namespace {

std::optional<double> flow_below(const Topology& topology, int node_index,
                                 const std::vector<bool>& wanted_nodes) {
  const PciNode& node = topology.nodes.at(static_cast<std::size_t>(node_index));
  std::optional<double> flow = 0.0;
  if (node.role == PciRole::gpu) {
    if (!wanted_nodes[static_cast<std::size_t>(node_index)]) {
      return 0.0;
    }
    if (!node.link.ceiling.known()) {
      return std::nullopt;
    }
    return node.link.ceiling.payload_gb_per_s;
  }
  for (int child : node.children) {
    const std::optional<double> below = flow_below(topology, child, wanted_nodes);
    if (!below) {
      return std::nullopt;
    }
    *flow += *below;
  }
  if (node.has_link && node.link.ceiling.known()) {
    *flow = std::min(*flow, node.link.ceiling.payload_gb_per_s);
  }
  return flow;
}

}  // namespace

std::optional<double> concurrent_ceiling(const Topology& topology,
                                         const std::vector<int>& gpu_indices) {
  std::vector<bool> wanted(topology.nodes.size(), false);
  for (int index : gpu_indices) {
    wanted.at(static_cast<std::size_t>(topology.gpus.at(static_cast<std::size_t>(index)).node)) =
        true;
  }
  std::optional<double> total = 0.0;
  for (std::size_t i = 0; i < topology.nodes.size(); ++i) {
    if (topology.nodes[i].parent >= 0) {
      continue;
    }
    const std::optional<double> below = flow_below(topology, static_cast<int>(i), wanted);
    if (!below) {
      return std::nullopt;
    }
    *total += *below;
  }
  return total;
}

}  // namespace h2d
