#include "harness/topology/topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>

#include "harness/topology/topology_warnings.hpp"

namespace h2d {
namespace {

std::string bitmap_list(hwloc_const_bitmap_t bitmap) {
  if (bitmap == nullptr) {
    return {};
  }
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, bitmap) < 0 || text == nullptr) {
    return {};
  }
  std::string list(text);
  std::free(text);
  return list;
}

int info_int(hwloc_obj_t obj, const char* name) {
  const char* value = hwloc_obj_get_info_by_name(obj, name);
  return value == nullptr ? 0 : std::atoi(value);
}

// The PCIe* infos of an XML topology (fixtures, `h2dbench topology --export`).
PcieReading reading_from_infos(hwloc_obj_t obj) {
  PcieReading reading;
  reading.current = {info_int(obj, pcie_info::kGen), info_int(obj, pcie_info::kWidth)};
  reading.max = {info_int(obj, pcie_info::kMaxGen), info_int(obj, pcie_info::kMaxWidth)};
  reading.max_payload = info_int(obj, pcie_info::kMaxPayload);
  const char* type = hwloc_obj_get_info_by_name(obj, pcie_info::kPortType);
  reading.port_type = type == nullptr ? PciePortType::unknown : parse_port_type(type);
  return reading;
}

// A device's name as hwloc's PCI backend found it in the PCI ID database, when it did.
std::string device_name(hwloc_obj_t obj) {
  const char* name = hwloc_obj_get_info_by_name(obj, "PCIDevice");
  return name == nullptr ? std::string() : std::string(name);
}

bool is_port(PciRole role) {
  return role == PciRole::root_port || role == PciRole::switch_downstream;
}

// Without a port type (XML from plain lstopo, no config access), ports alternate: a host bridge's
// bridges are root ports, a root or downstream port's bridge is a switch's upstream port, and an
// upstream port's bridges are its downstream ports.
PciRole bridge_role(PciePortType type, PciRole parent) {
  switch (type) {
    case PciePortType::root_port:
      return PciRole::root_port;
    case PciePortType::switch_upstream:
      return PciRole::switch_upstream;
    case PciePortType::switch_downstream:
      return PciRole::switch_downstream;
    case PciePortType::bridge:
      return PciRole::bridge;
    default:
      break;
  }
  switch (parent) {
    case PciRole::host_bridge:
      return PciRole::root_port;
    case PciRole::root_port:
    case PciRole::switch_downstream:
      return PciRole::switch_upstream;
    case PciRole::switch_upstream:
      return PciRole::switch_downstream;
    default:
      return PciRole::bridge;
  }
}

class Builder {
 public:
  explicit Builder(const HwlocTopology& hwloc) : hwloc_(hwloc) {}

  Topology build() {
    topology_.source = hwloc_.source();
    topology_.this_system = hwloc_.this_system();
    hwloc_topology_t t = hwloc_.get();
    hwloc_obj_t root = hwloc_get_root_obj(t);
    for (const char* key : {"DMIProductName", "HostName"}) {
      if (const char* value = hwloc_obj_get_info_by_name(root, key)) {
        topology_.machine = value;
        break;
      }
    }
    for (hwloc_obj_t numa = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, nullptr);
         numa != nullptr; numa = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, numa)) {
      topology_.numa_nodes.push_back(
          {static_cast<int>(numa->os_index), bitmap_list(numa->cpuset),
           static_cast<std::uint64_t>(numa->attr->numanode.local_memory)});
    }
    for (hwloc_obj_t bridge = hwloc_get_next_bridge(t, nullptr); bridge != nullptr;
         bridge = hwloc_get_next_bridge(t, bridge)) {
      if (bridge->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
        add(bridge, -1);
      }
    }
    for (PciNode& node : topology_.nodes) {
      describe_link(node);
    }
    collect_gpus();
    collect_uplink_groups();
    add_warnings_and_notes(topology_);
    return std::move(topology_);
  }

 private:
  void add(hwloc_obj_t obj, int parent) {
    if (obj->type != HWLOC_OBJ_BRIDGE && obj->type != HWLOC_OBJ_PCI_DEVICE) {
      return;  // OS devices (GPU, NIC, disk handles) hang below PCI devices
    }
    const int index = static_cast<int>(topology_.nodes.size());
    PciNode node;
    node.parent = parent;
    const bool host_bridge =
        obj->type == HWLOC_OBJ_BRIDGE && obj->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST;
    if (host_bridge) {
      const auto& down = obj->attr->bridge.downstream.pci;
      node.bus_id = fmt::format("{:04x}:[{:02x}-{:02x}]", down.domain, down.secondary_bus,
                                down.subordinate_bus);
      node.role = PciRole::host_bridge;
    } else {
      const auto& pci =
          obj->type == HWLOC_OBJ_BRIDGE ? obj->attr->bridge.upstream.pci : obj->attr->pcidev;
      node.bus_id = format_bus_id(pci.domain, pci.bus, pci.dev, pci.func);
      node.vendor_id = pci.vendor_id;
      node.device_id = pci.device_id;
      node.class_id = pci.class_id;
      node.hwloc_gb_per_s = pci.linkspeed;
      node.name = device_name(obj);
      node.reading = reading_from_infos(obj);
      if (!node.reading.any() && topology_.this_system) {
        node.reading = read_sysfs_pcie(sysfs_pci_device_dir(node.bus_id));
      }
      const PciRole parent_role = topology_.nodes.at(static_cast<std::size_t>(parent)).role;
      if (obj->type == HWLOC_OBJ_BRIDGE) {
        node.role = bridge_role(node.reading.port_type, parent_role);
      } else {
        node.role = is_nvidia_gpu(pci.vendor_id, pci.class_id) ? PciRole::gpu : PciRole::device;
        ++topology_.pci_devices;
      }
      node.has_link = node.role == PciRole::gpu || node.role == PciRole::device ||
                      node.role == PciRole::switch_upstream ||
                      (node.role == PciRole::bridge && is_port(parent_role));
    }
    if (hwloc_obj_t cpu_side = hwloc_get_non_io_ancestor_obj(hwloc_.get(), obj)) {
      node.cpus = bitmap_list(cpu_side->cpuset);
      if (cpu_side->nodeset != nullptr && hwloc_bitmap_weight(cpu_side->nodeset) == 1) {
        node.numa_node = hwloc_bitmap_first(cpu_side->nodeset);
      }
    }
    topology_.nodes.push_back(std::move(node));
    if (parent >= 0) {
      topology_.nodes[static_cast<std::size_t>(parent)].children.push_back(index);
    }
    for (hwloc_obj_t child = obj->io_first_child; child != nullptr; child = child->next_sibling) {
      add(child, index);
    }
  }

  // The link above `node`: its own registers, completed by the port above it (a root or
  // downstream port describes the same link from the other end).
  void describe_link(PciNode& node) {
    if (!node.has_link) {
      return;
    }
    const PciNode* port = nullptr;
    if (node.parent >= 0 && is_port(topology_.nodes[static_cast<std::size_t>(node.parent)].role)) {
      port = &topology_.nodes[static_cast<std::size_t>(node.parent)];
    }
    LinkInfo& link = node.link;
    link.current = node.reading.current;
    link.max = node.reading.max;
    link.hwloc_gb_per_s = node.hwloc_gb_per_s;
    link.max_payload = node.reading.max_payload;
    if (port != nullptr) {
      const auto fill = [](int& mine, int theirs) {
        if (mine == 0) {
          mine = theirs;
        }
      };
      const auto lower = [](int& mine, int theirs) {
        if (theirs > 0 && (mine == 0 || theirs < mine)) {
          mine = theirs;
        }
      };
      fill(link.current.gen, port->reading.current.gen);
      fill(link.current.width, port->reading.current.width);
      lower(link.max.gen, port->reading.max.gen);
      lower(link.max.width, port->reading.max.width);
      if (link.hwloc_gb_per_s <= 0) {
        link.hwloc_gb_per_s = port->hwloc_gb_per_s;
      }
      fill(link.max_payload, port->reading.max_payload);
    }
    link.max_payload_assumed = link.max_payload <= 0;
    if (link.max_payload_assumed) {
      link.max_payload = kAssumedMaxPayload;
    }
    const std::string payload = fmt::format("max payload {} B{}", link.max_payload,
                                            link.max_payload_assumed ? " (assumed)" : "");
    link.rated = {link.max.gen > 0 ? link.max.gen : link.current.gen,
                  link.current.width > 0 ? link.current.width : link.max.width};
    if (link.rated.known()) {
      link.ceiling = link_ceiling(link.rated, link.max_payload);
      link.basis = fmt::format("{}, {}", to_string(link.rated), payload);
      return;
    }
    if (link.hwloc_gb_per_s > 0) {
      link.candidates = links_with_raw_rate(link.hwloc_gb_per_s);
      if (link.candidates.size() == 1) {
        // Only one standard link has this rate: take it, as hwloc saw it when it read the tree.
        link.current = link.rated = link.candidates.front();
        link.ceiling = link_ceiling(link.rated, link.max_payload);
        link.basis = fmt::format("{} inferred from hwloc's link rate {:.2f} GB/s, {}",
                                 to_string(link.rated), link.hwloc_gb_per_s, payload);
        return;
      }
      link.ceiling = ceiling_from_raw(link.hwloc_gb_per_s, link.max_payload);
      std::string could_be;
      for (const PcieLink& candidate : link.candidates) {
        could_be += fmt::format("{}{}", could_be.empty() ? "" : " or ", to_string(candidate));
      }
      link.basis = fmt::format(
          "hwloc's link rate {:.2f} GB/s ({}; generation and width not recorded), {}",
          link.hwloc_gb_per_s, could_be.empty() ? "no standard link has it" : could_be, payload);
      return;
    }
    link.basis = "unknown: no PCIe link information (not PCIe, or hidden from this process)";
  }

  void collect_gpus() {
    std::vector<int> gpu_nodes;
    for (std::size_t i = 0; i < topology_.nodes.size(); ++i) {
      if (topology_.nodes[i].role == PciRole::gpu) {
        gpu_nodes.push_back(static_cast<int>(i));
      }
    }
    std::sort(gpu_nodes.begin(), gpu_nodes.end(), [&](int a, int b) {
      return topology_.nodes[static_cast<std::size_t>(a)].bus_id <
             topology_.nodes[static_cast<std::size_t>(b)].bus_id;
    });
    for (int node_index : gpu_nodes) {
      const PciNode& node = topology_.nodes[static_cast<std::size_t>(node_index)];
      GpuTopology gpu;
      gpu.index = static_cast<int>(topology_.gpus.size());
      gpu.node = node_index;
      gpu.bus_id = node.bus_id;
      gpu.name =
          node.name.empty() ? fmt::format("NVIDIA GPU [10de:{:04x}]", node.device_id) : node.name;
      gpu.numa_node = node.numa_node;
      gpu.cpus = node.cpus;
      for (int up = node.parent; up >= 0;
           up = topology_.nodes[static_cast<std::size_t>(up)].parent) {
        gpu.path.push_back(up);
      }
      topology_.gpus.push_back(std::move(gpu));
    }
  }

  void collect_uplink_groups() {
    std::map<int, int> gpu_of_node;
    for (const GpuTopology& gpu : topology_.gpus) {
      gpu_of_node[gpu.node] = gpu.index;
    }
    for (std::size_t i = 0; i < topology_.nodes.size(); ++i) {
      const PciNode& node = topology_.nodes[i];
      if (!node.has_link || node.role == PciRole::gpu || node.role == PciRole::device) {
        continue;
      }
      UplinkGroup group;
      group.node = static_cast<int>(i);
      group.bus_id = node.bus_id;
      for (const GpuTopology& gpu : topology_.gpus) {
        if (std::find(gpu.path.begin(), gpu.path.end(), group.node) != gpu.path.end()) {
          group.gpus.push_back(gpu.index);
        }
      }
      if (group.gpus.size() < 2) {
        continue;
      }
      if (const auto together = concurrent_ceiling(topology_, group.gpus)) {
        group.ceiling.aggregate_gb_per_s = *together;
        group.ceiling.per_gpu_gb_per_s = *together / static_cast<double>(group.gpus.size());
      }
      topology_.uplink_groups.push_back(std::move(group));
    }
    for (GpuTopology& gpu : topology_.gpus) {
      for (int up : gpu.path) {
        for (std::size_t g = 0; g < topology_.uplink_groups.size(); ++g) {
          if (topology_.uplink_groups[g].node == up) {
            gpu.uplink_groups.push_back(static_cast<int>(g));
          }
        }
      }
    }
  }

  const HwlocTopology& hwloc_;
  Topology topology_;
};

}  // namespace

Topology build_topology(const HwlocTopology& hwloc) {
  return Builder(hwloc).build();
}

}  // namespace h2d
