#include "harness/topology/topology_export.hpp"

#include <fmt/format.h>
#include <hwloc/export.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "harness/core/usage_error.hpp"
#include "harness/topology/pcie_reading.hpp"

namespace h2d {
namespace {

void add_info(hwloc_obj_t obj, const char* name, int value) {
  if (value > 0 && hwloc_obj_get_info_by_name(obj, name) == nullptr) {
    hwloc_obj_add_info(obj, name, std::to_string(value).c_str());
  }
}

// The function's bus id when it is a PCI function (not a host bridge).
const hwloc_obj_attr_u::hwloc_pcidev_attr_s* pci_of(hwloc_obj_t obj) {
  if (obj->type == HWLOC_OBJ_PCI_DEVICE) {
    return &obj->attr->pcidev;
  }
  if (obj->type == HWLOC_OBJ_BRIDGE && obj->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI) {
    return &obj->attr->bridge.upstream.pci;
  }
  return nullptr;
}

void add_readings(hwloc_obj_t obj) {
  if (const auto* pci = pci_of(obj)) {
    const PcieReading reading = read_sysfs_pcie(sysfs_pci_device_dir(
        fmt::format("{:04x}:{:02x}:{:02x}.{:x}", pci->domain, pci->bus, pci->dev, pci->func)));
    add_info(obj, pcie_info::kGen, reading.current.gen);
    add_info(obj, pcie_info::kWidth, reading.current.width);
    add_info(obj, pcie_info::kMaxGen, reading.max.gen);
    add_info(obj, pcie_info::kMaxWidth, reading.max.width);
    add_info(obj, pcie_info::kMaxPayload, reading.max_payload);
    if (reading.port_type != PciePortType::unknown &&
        hwloc_obj_get_info_by_name(obj, pcie_info::kPortType) == nullptr) {
      hwloc_obj_add_info(obj, pcie_info::kPortType,
                         std::string(to_string(reading.port_type)).c_str());
    }
  }
  for (hwloc_obj_t child = obj->io_first_child; child != nullptr; child = child->next_sibling) {
    add_readings(child);
  }
}

}  // namespace

void export_topology_xml(const HwlocTopology& hwloc, const std::string& path) {
  if (hwloc.this_system()) {
    for (hwloc_obj_t bridge = hwloc_get_next_bridge(hwloc.get(), nullptr); bridge != nullptr;
         bridge = hwloc_get_next_bridge(hwloc.get(), bridge)) {
      if (bridge->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
        add_readings(bridge);  // a host bridge and everything below it
      }
    }
  }
  if (hwloc_topology_export_xml(hwloc.get(), path.c_str(), 0) != 0) {
    throw UsageError(fmt::format("--export '{}': cannot write it: {}", path, std::strerror(errno)));
  }
}

}  // namespace h2d
