#include "harness/topology/topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>

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

namespace {

// "DOMAIN:BUS:DEVICE.FUNCTION" in hex; the domain has 4 digits on most machines, 8 in nvidia-smi's
// spelling and for the 32-bit domains of VMD and Hyper-V (e.g. 10000:e1:00.0).
std::optional<std::array<unsigned long, 4>> parse_bus_id(const std::string& text) {
  static const std::regex pattern(
      "([0-9a-fA-F]{1,8}):([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-7])");
  std::smatch match;
  if (!std::regex_match(text, match, pattern)) {
    return std::nullopt;
  }
  std::array<unsigned long, 4> parts{};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    parts[i] = std::stoul(match[i + 1].str(), nullptr, 16);
  }
  return parts;
}

}  // namespace

bool is_bus_id(const std::string& text) {
  return parse_bus_id(text).has_value();
}

std::string format_bus_id(unsigned domain, unsigned bus, unsigned dev, unsigned func) {
  return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", domain, bus, dev, func);
}

std::string normalize_bus_id(std::string bus_id) {
  // Linux's spelling (sysfs, hwloc): the domain with at least 4 digits, lowercase.
  if (const auto parts = parse_bus_id(bus_id)) {
    return format_bus_id(static_cast<unsigned>((*parts)[0]), static_cast<unsigned>((*parts)[1]),
                         static_cast<unsigned>((*parts)[2]), static_cast<unsigned>((*parts)[3]));
  }
  for (char& c : bus_id) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
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
