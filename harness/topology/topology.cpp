#include "harness/topology/topology.hpp"

#include <fmt/format.h>

#include <cctype>
#include <exception>

#include "harness/core/usage_error.hpp"

namespace h2d {

std::string_view to_string(PciRole role) {
  switch (role) {
    case PciRole::host_bridge:
      return "host_bridge";
    case PciRole::root_port:
      return "root_port";
    case PciRole::switch_upstream:
      return "switch_upstream";
    case PciRole::switch_downstream:
      return "switch_downstream";
    case PciRole::bridge:
      return "bridge";
    case PciRole::gpu:
      return "gpu";
    case PciRole::device:
      return "device";
  }
  return "unknown";
}

bool is_nvidia_gpu(unsigned vendor_id, unsigned class_id) {
  return vendor_id == 0x10de && (class_id >> 8) == 0x03;
}

std::string normalize_bus_id(std::string bus_id) {
  for (char& c : bus_id) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const std::size_t colon = bus_id.find(':');
  if (colon != std::string::npos && colon > 4 && bus_id.find_first_not_of('0') >= colon - 4) {
    bus_id.erase(0, colon - 4);  // 8-digit domain of zeros -> 4 digits
  }
  return bus_id;
}

const GpuTopology* Topology::gpu_by_bus_id(const std::string& bus_id) const {
  const std::string wanted = normalize_bus_id(bus_id);
  for (const GpuTopology& gpu : gpus) {
    if (gpu.bus_id == wanted) {
      return &gpu;
    }
  }
  return nullptr;
}

const GpuTopology* Topology::gpu_by_ordinal(int cuda_ordinal) const {
  for (const GpuTopology& gpu : gpus) {
    if (gpu.cuda_ordinal == cuda_ordinal) {
      return &gpu;
    }
  }
  return nullptr;
}

int Topology::numa_node_of(int cuda_ordinal) const {
  const GpuTopology* gpu = gpu_by_ordinal(cuda_ordinal);
  return gpu == nullptr ? -1 : gpu->numa_node;
}

void attach_cuda_devices(Topology& topology, const std::vector<DeviceInfo>& devices) {
  for (const DeviceInfo& device : devices) {
    const std::string bus_id = normalize_bus_id(device.pci_bus_id);
    for (GpuTopology& gpu : topology.gpus) {
      if (gpu.bus_id == bus_id) {
        gpu.cuda_ordinal = device.ordinal;
        if (!device.name.empty()) {
          gpu.name = device.name;
        }
      }
    }
  }
}

const Topology& system_topology() {
  static const Topology topology = [] {
    try {
      return build_topology(system_hwloc());
    } catch (const UsageError&) {
      throw;  // a bad HWLOC_XMLFILE is the user's to fix
    } catch (const std::exception& error) {
      Topology unknown;
      unknown.source = "this machine";
      unknown.this_system = true;
      unknown.notes.push_back(fmt::format("no topology: {}", error.what()));
      return unknown;
    }
  }();
  return topology;
}

}  // namespace h2d
