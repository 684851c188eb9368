#include "harness/topology/topology_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace h2d {
namespace {

nlohmann::json number_or_null(double value) {
  return value > 0 ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json int_or_null(int value) {
  return value > 0 ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json index_or_null(int value) {
  return value >= 0 ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json link_to_json(const LinkInfo& link) {
  // gen/width: what the ceiling assumes, the highest generation both ends support at the trained
  // width (the link under load); current_*: as read, which for an idle GPU is often gen1.
  return {
      {"gen", int_or_null(link.rated.gen)},
      {"width", int_or_null(link.rated.width)},
      {"current_gen", int_or_null(link.current.gen)},
      {"current_width", int_or_null(link.current.width)},
      {"max_gen", int_or_null(link.max.gen)},
      {"max_width", int_or_null(link.max.width)},
      {"hwloc_gb_per_s", number_or_null(link.hwloc_gb_per_s)},
      {"max_payload", int_or_null(link.max_payload)},
      {"max_payload_assumed", link.max_payload_assumed},
      {"raw_gb_per_s", number_or_null(link.ceiling.raw_gb_per_s)},
      {"ceiling_gb_per_s", number_or_null(link.ceiling.payload_gb_per_s)},
      {"basis", link.basis},
  };
}

std::string pci_id(const PciNode& node) {
  return fmt::format("{:04x}:{:04x}", node.vendor_id, node.device_id);
}

std::string gpu_list(const Topology& topology, const std::vector<int>& indices) {
  std::string list;
  for (int index : indices) {
    list += (list.empty() ? "" : ", ") +
            gpu_label(topology, topology.gpus.at(static_cast<std::size_t>(index)));
  }
  return list;
}

std::string describe_link(const LinkInfo& link) {
  if (link.rated.known()) {
    std::vector<std::string> asides;
    if (link.current.known() && !(link.current == link.rated)) {
      asides.push_back("read as " + to_string(link.current));
    }
    if (link.max.known() && !(link.max == link.rated)) {
      asides.push_back("max " + to_string(link.max));
    }
    std::string text = to_string(link.rated);
    for (std::size_t i = 0; i < asides.size(); ++i) {
      text += (i == 0 ? " (" : ", ") + asides[i] + (i + 1 == asides.size() ? ")" : "");
    }
    return text;
  }
  if (link.hwloc_gb_per_s > 0) {
    return fmt::format("{:.2f} GB/s raw (generation and width unknown)", link.hwloc_gb_per_s);
  }
  return "no PCIe link information";
}

std::string describe_ceiling(const LinkInfo& link) {
  if (!link.ceiling.known()) {
    return "ceiling unknown";
  }
  return fmt::format("ceiling {:.2f} GB/s", link.ceiling.payload_gb_per_s);
}

class TextRenderer {
 public:
  TextRenderer(const Topology& topology, bool all_devices)
      : topology_(topology), all_devices_(all_devices) {
    for (const GpuTopology& gpu : topology.gpus) {
      wanted_.insert(gpu.node);
      wanted_.insert(gpu.path.begin(), gpu.path.end());
    }
  }

  std::string render() {
    header();
    tree();
    summary();
    return out_;
  }

 private:
  void line(int depth, const std::string& text) {
    out_ += std::string(static_cast<std::size_t>(depth) * 2, ' ') + text + "\n";
  }

  void header() {
    if (topology_.this_system) {
      line(0, fmt::format("topology of this machine (hwloc {})", HWLOC_VERSION));
    } else {
      line(0, fmt::format("topology of {} (hwloc XML, not this machine)", topology_.source));
    }
    if (!topology_.machine.empty()) {
      line(0, "machine: " + topology_.machine);
    }
    line(0,
         "ceilings are per direction, decimal GB/s: the link's rate after encoding, less TLP "
         "overhead at its max payload size");
    line(0, "");
  }

  bool shown(int node_index) const {
    const PciNode& node = topology_.nodes[static_cast<std::size_t>(node_index)];
    return all_devices_ || wanted_.count(node_index) > 0 || node.role == PciRole::host_bridge;
  }

  void tree() {
    std::vector<int> numa_keys;
    for (const NumaNodeInfo& numa : topology_.numa_nodes) {
      numa_keys.push_back(numa.os_index);
    }
    bool unplaced = false;
    for (const PciNode& node : topology_.nodes) {
      if (node.role == PciRole::host_bridge &&
          std::find(numa_keys.begin(), numa_keys.end(), node.numa_node) == numa_keys.end()) {
        unplaced = true;
      }
    }
    for (const NumaNodeInfo& numa : topology_.numa_nodes) {
      line(0, fmt::format("NUMA node {}: CPUs {}, {:.1f} GiB of memory", numa.os_index,
                          numa.cpus.empty() ? "none" : numa.cpus,
                          static_cast<double>(numa.memory_bytes) / (1ull << 30)));
      host_bridges(numa.os_index);
    }
    if (unplaced) {
      line(0, "no single NUMA node (I/O attached to the whole machine or several nodes):");
      for (std::size_t i = 0; i < topology_.nodes.size(); ++i) {
        const PciNode& node = topology_.nodes[i];
        if (node.role == PciRole::host_bridge &&
            std::find(numa_keys.begin(), numa_keys.end(), node.numa_node) == numa_keys.end()) {
          pci_node(static_cast<int>(i), 1);
        }
      }
    }
    line(0, "");
  }

  void host_bridges(int numa) {
    for (std::size_t i = 0; i < topology_.nodes.size(); ++i) {
      const PciNode& node = topology_.nodes[i];
      if (node.role == PciRole::host_bridge && node.numa_node == numa) {
        if (!all_devices_ && wanted_.count(static_cast<int>(i)) == 0) {
          ++hidden_host_bridges_;
          continue;
        }
        pci_node(static_cast<int>(i), 1);
      }
    }
  }

  void pci_node(int node_index, int depth) {
    const PciNode& node = topology_.nodes[static_cast<std::size_t>(node_index)];
    int child_depth = depth + 1;
    switch (node.role) {
      case PciRole::host_bridge:
        line(depth, fmt::format("host bridge {}", node.bus_id));
        break;
      case PciRole::root_port:
        line(depth, fmt::format("root port {} [{}]", node.bus_id, pci_id(node)));
        break;
      case PciRole::switch_downstream:
        child_depth = depth;  // the GPU line says enough; ports would double the tree's depth
        if (all_devices_) {
          line(depth, fmt::format("port {}", node.bus_id));
          child_depth = depth + 1;
        }
        break;
      case PciRole::switch_upstream:
      case PciRole::bridge:
        line(depth, switch_line(node_index));
        break;
      case PciRole::gpu:
        gpu_line(node_index, depth);
        break;
      case PciRole::device:
        line(depth, fmt::format("device {} [{}] class {:04x}{}  {}", node.bus_id, pci_id(node),
                                node.class_id, node.name.empty() ? "" : " " + node.name,
                                describe_link(node.link)));
        break;
    }
    for (int child : node.children) {
      if (shown(child)) {
        pci_node(child, child_depth);
      }
    }
  }

  std::string switch_line(int node_index) {
    const PciNode& node = topology_.nodes[static_cast<std::size_t>(node_index)];
    std::string text =
        fmt::format("{} {} [{}]", node.role == PciRole::switch_upstream ? "switch" : "bridge",
                    node.bus_id, pci_id(node));
    if (node.has_link) {
      text += fmt::format("  uplink {}, {}", describe_link(node.link), describe_ceiling(node.link));
    }
    for (const UplinkGroup& group : topology_.uplink_groups) {
      if (group.node == node_index) {
        text += fmt::format("; shared by {}", gpu_list(topology_, group.gpus));
      }
    }
    return text;
  }

  void gpu_line(int node_index, int depth) {
    for (const GpuTopology& gpu : topology_.gpus) {
      if (gpu.node != node_index) {
        continue;
      }
      const LinkInfo& link = topology_.link_of(gpu);
      line(depth, fmt::format("{}  {}  {}  {}, {}{}", gpu_label(topology_, gpu), gpu.bus_id,
                              gpu.name, describe_link(link), describe_ceiling(link),
                              gpu.warnings.empty() ? "" : "  (see warnings)"));
    }
  }

  void summary() {
    if (topology_.gpus.empty()) {
      line(0, fmt::format("No NVIDIA GPU on {} PCI bus (looked for vendor 0x10de, class 0x03xx "
                          "among {} PCI devices).",
                          topology_.this_system ? "this machine's" : "this topology's",
                          topology_.pci_devices));
    } else {
      const bool cuda = std::any_of(topology_.gpus.begin(), topology_.gpus.end(),
                                    [](const GpuTopology& gpu) { return gpu.cuda_ordinal >= 0; });
      line(0, fmt::format("{} NVIDIA GPU{} ({}).", topology_.gpus.size(),
                          topology_.gpus.size() == 1 ? "" : "s",
                          cuda ? "numbered as CUDA numbers them; '-' is not visible to CUDA"
                               : "numbered in PCI bus order; CUDA may number them differently"));
      std::vector<int> all;
      for (const GpuTopology& gpu : topology_.gpus) {
        all.push_back(gpu.index);
      }
      const auto together = concurrent_ceiling(topology_, all);
      if (all.size() > 1) {
        line(0, fmt::format("all {} GPUs at once: {}", all.size(),
                            together ? fmt::format("{:.2f} GB/s together", *together)
                                     : std::string("unknown (a GPU's link is unknown)")));
      }
    }
    if (hidden_host_bridges_ > 0) {
      line(0, fmt::format("{} host bridge{} without GPUs not shown (--all shows every device).",
                          hidden_host_bridges_, hidden_host_bridges_ == 1 ? "" : "s"));
    }
    if (!topology_.uplink_groups.empty()) {
      line(0, "");
      line(0, "shared uplinks (GPUs that receive at the same time share these links):");
      for (const UplinkGroup& group : topology_.uplink_groups) {
        const LinkInfo& link = topology_.nodes[static_cast<std::size_t>(group.node)].link;
        std::string ceiling = "unknown";
        if (group.ceiling.aggregate_gb_per_s > 0) {
          ceiling = fmt::format("{:.2f} GB/s together, {:.2f} each",
                                group.ceiling.aggregate_gb_per_s, group.ceiling.per_gpu_gb_per_s);
        }
        line(1, fmt::format("switch {} ({}, {}): {} -> {}", group.bus_id, describe_link(link),
                            describe_ceiling(link), gpu_list(topology_, group.gpus), ceiling));
      }
    }
    if (!topology_.warnings.empty()) {
      line(0, "");
      line(0, "warnings:");
      for (const std::string& warning : topology_.warnings) {
        line(1, warning);
      }
    }
    if (!topology_.notes.empty()) {
      line(0, "");
      line(0, "notes:");
      for (const std::string& note : topology_.notes) {
        line(1, note);
      }
    }
  }

  const Topology& topology_;
  bool all_devices_;
  std::set<int> wanted_;
  int hidden_host_bridges_ = 0;
  std::string out_;
};

}  // namespace

std::string gpu_label(const Topology& topology, const GpuTopology& gpu) {
  const bool cuda = std::any_of(topology.gpus.begin(), topology.gpus.end(),
                                [](const GpuTopology& g) { return g.cuda_ordinal >= 0; });
  if (!cuda) {
    return fmt::format("GPU {}", gpu.index);
  }
  return gpu.cuda_ordinal >= 0 ? fmt::format("GPU {}", gpu.cuda_ordinal) : std::string("GPU -");
}

nlohmann::json topology_to_json(const Topology& topology) {
  nlohmann::json numa_nodes = nlohmann::json::array();
  for (const NumaNodeInfo& numa : topology.numa_nodes) {
    numa_nodes.push_back(
        {{"os_index", numa.os_index}, {"cpus", numa.cpus}, {"memory_bytes", numa.memory_bytes}});
  }
  nlohmann::json gpus = nlohmann::json::array();
  std::vector<int> all;
  for (const GpuTopology& gpu : topology.gpus) {
    all.push_back(gpu.index);
    nlohmann::json path = nlohmann::json::array();
    for (int up : gpu.path) {
      const PciNode& node = topology.nodes[static_cast<std::size_t>(up)];
      nlohmann::json hop = {{"pci_bus_id", node.bus_id},
                            {"role", std::string(to_string(node.role))}};
      if (node.role != PciRole::host_bridge) {
        hop["pci_id"] = pci_id(node);
      }
      if (node.has_link) {
        hop["link"] = link_to_json(node.link);
      }
      path.push_back(std::move(hop));
    }
    nlohmann::json groups = nlohmann::json::array();
    for (int group : gpu.uplink_groups) {
      groups.push_back(topology.uplink_groups[static_cast<std::size_t>(group)].bus_id);
    }
    gpus.push_back({
        {"index", gpu.index},
        {"cuda_ordinal", index_or_null(gpu.cuda_ordinal)},
        {"pci_bus_id", gpu.bus_id},
        {"name", gpu.name},
        {"numa_node", index_or_null(gpu.numa_node)},
        {"cpus", gpu.cpus},
        {"link", link_to_json(topology.link_of(gpu))},
        {"path", path},
        {"uplink_groups", groups},
        {"warnings", gpu.warnings},
    });
  }
  nlohmann::json groups = nlohmann::json::array();
  for (const UplinkGroup& group : topology.uplink_groups) {
    nlohmann::json ordinals = nlohmann::json::array();
    for (int index : group.gpus) {
      ordinals.push_back(
          index_or_null(topology.gpus[static_cast<std::size_t>(index)].cuda_ordinal));
    }
    groups.push_back({
        {"pci_bus_id", group.bus_id},
        {"link", link_to_json(topology.nodes[static_cast<std::size_t>(group.node)].link)},
        {"gpus", group.gpus},
        {"cuda_ordinals", ordinals},
        {"aggregate_gb_per_s", number_or_null(group.ceiling.aggregate_gb_per_s)},
        {"per_gpu_gb_per_s", number_or_null(group.ceiling.per_gpu_gb_per_s)},
    });
  }
  const auto together = all.empty() ? std::nullopt : concurrent_ceiling(topology, all);
  return {
      {"source", topology.source},
      {"this_system", topology.this_system},
      {"machine", topology.machine},
      {"hwloc_version", HWLOC_VERSION},
      {"ceiling_model",
       "per direction, decimal GB/s: raw = lane rate after encoding x width, for gen/width = the "
       "highest generation both ends support at the width the link trained to (current_* is the "
       "link as read; idle GPUs slow it down); ceiling = raw x MPS/(MPS + TLP overhead); "
       "link_pct = 100 x measured GB/s / ceiling"},
      {"numa_nodes", numa_nodes},
      {"pci_devices", topology.pci_devices},
      {"gpus", gpus},
      {"uplink_groups", groups},
      {"all_gpus_gb_per_s", together ? nlohmann::json(*together) : nlohmann::json(nullptr)},
      {"warnings", topology.warnings},
      {"notes", topology.notes},
  };
}

std::string render_topology_text(const Topology& topology, bool all_devices) {
  return TextRenderer(topology, all_devices).render();
}

}  // namespace h2d
