#include "harness/topology/topology_warnings.hpp"

#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

namespace h2d {
namespace {

// A link below what both of its ends support. Width lost in training stays lost under load;
// a lower generation is what GPUs do at rest, so it is worth a check under load, not alarm.
std::vector<std::string> link_warnings(const std::string& what, const PciNode& node) {
  std::vector<std::string> warnings;
  const LinkInfo& link = node.link;
  const int card_width = node.reading.max.width;
  if (link.current.width > 0 && link.max.width > 0 && link.current.width < link.max.width) {
    warnings.push_back(fmt::format(
        "{}: link trained at x{} although both ends support x{}: lanes are lost (reseat the "
        "card, check the slot, riser or BIOS lane settings); its ceiling is {:.2f} GB/s, x{} "
        "would give {:.2f}",
        what, link.current.width, link.max.width, link.ceiling.payload_gb_per_s, link.max.width,
        link_ceiling({link.rated.gen, link.max.width}, link.max_payload).payload_gb_per_s));
  } else if (card_width > 0 && link.max.width > 0 && link.max.width < card_width) {
    warnings.push_back(fmt::format(
        "{}: the device supports x{} but its slot or port only x{}: ceiling {:.2f} GB/s", what,
        card_width, link.max.width, link.ceiling.payload_gb_per_s));
  }
  if (link.current.gen > 0 && link.max.gen > 0 && link.current.gen < link.max.gen) {
    const double now =
        link.rated.width > 0
            ? link_ceiling({link.current.gen, link.rated.width}, link.max_payload).payload_gb_per_s
            : 0;
    warnings.push_back(fmt::format(
        "{}: link at gen{} when read, gen{} at most. GPUs slow their link when idle, so this is "
        "normal at rest; if it stays at gen{} under load (nvidia-smi -q -d PCIE), the ceiling "
        "is {:.2f} GB/s, not {:.2f}",
        what, link.current.gen, link.max.gen, link.current.gen, now,
        link.ceiling.payload_gb_per_s));
  }
  return warnings;
}

void collect_warnings(Topology& topology) {
  for (GpuTopology& gpu : topology.gpus) {
    const PciNode& node = topology.nodes[static_cast<std::size_t>(gpu.node)];
    gpu.warnings = link_warnings(fmt::format("GPU {} ({})", gpu.bus_id, gpu.name), node);
    topology.warnings.insert(topology.warnings.end(), gpu.warnings.begin(), gpu.warnings.end());
  }
  for (const UplinkGroup& group : topology.uplink_groups) {
    const PciNode& node = topology.nodes[static_cast<std::size_t>(group.node)];
    const auto warnings = link_warnings(fmt::format("switch uplink {}", node.bus_id), node);
    topology.warnings.insert(topology.warnings.end(), warnings.begin(), warnings.end());
  }
}

// A link known only from hwloc's rate was read as it was trained at that moment: a GPU at rest
// may have slowed it down, and nothing says what it can do under load.
void collect_rate_only_notes(Topology& topology) {
  std::string gpus;
  for (const GpuTopology& gpu : topology.gpus) {
    const PciNode& node = topology.nodes[static_cast<std::size_t>(gpu.node)];
    if (node.link.ceiling.known() && !node.link.max.known()) {
      gpus += (gpus.empty() ? "" : ", ") + gpu.bus_id;
    }
  }
  if (!gpus.empty()) {
    topology.notes.push_back(fmt::format(
        "only hwloc's link rate is known for GPU {} (no sysfs link files, or a plain lstopo "
        "export): it is the link as trained when read, and a GPU at rest may have slowed it "
        "down. `h2dbench topology --export FILE` on the rig records generation, width and "
        "their maximum.",
        gpus));
  }
}

void collect_numa_notes(Topology& topology) {
  if (topology.numa_nodes.size() < 2 || topology.gpus.empty()) {
    return;
  }
  std::map<int, std::vector<std::string>> by_node;
  for (const GpuTopology& gpu : topology.gpus) {
    by_node[gpu.numa_node].push_back(gpu.bus_id);
  }
  std::string placement;
  for (const auto& [numa, bus_ids] : by_node) {
    std::string list;
    for (const std::string& id : bus_ids) {
      list += (list.empty() ? "" : ", ") + id;
    }
    placement += fmt::format(
        "{}{}: {}", placement.empty() ? "" : "; ",
        numa < 0 ? std::string("NUMA node unknown") : fmt::format("NUMA node {}", numa), list);
  }
  topology.notes.push_back(fmt::format(
      "{} NUMA nodes; GPUs by node: {}. Pinned buffers for a GPU belong on its own node: from "
      "another node, {}",
      topology.numa_nodes.size(), placement, numa_crossing_effect()));
}

}  // namespace

void add_warnings_and_notes(Topology& topology) {
  collect_warnings(topology);
  collect_rate_only_notes(topology);
  collect_numa_notes(topology);
}

}  // namespace h2d
