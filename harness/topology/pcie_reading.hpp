#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/topology/link_model.hpp"

namespace h2d {

// What kind of PCIe port a function is. Decides which link its link registers describe: root and
// downstream ports report the link below them, endpoints and upstream ports the link above.
enum class PciePortType {
  unknown,
  endpoint,
  root_port,
  switch_upstream,
  switch_downstream,
  bridge
};

std::string_view to_string(PciePortType type);
// The names to_string gives; anything else is `unknown`.
PciePortType parse_port_type(std::string_view text);

// What one PCI function says about its link, beyond hwloc's linkspeed: the link as trained now and
// the most this end supports, its max payload size and port type. Zero means "not known".
struct PcieReading {
  PcieLink current;
  PcieLink max;
  int max_payload = 0;  // bytes per TLP
  PciePortType port_type = PciePortType::unknown;
  bool any() const {
    return current.gen || current.width || max.gen || max.width || max_payload ||
           port_type != PciePortType::unknown;
  }
};

// sysfs link files: "8.0 GT/s PCIe" (older kernels "8 GT/s", "2.5 GT/s") -> 3, 1;
// "Unknown" or anything else -> 0. Widths: "16" -> 16, "0" or garbage -> 0.
int parse_sysfs_link_speed(std::string_view text);
int parse_sysfs_link_width(std::string_view text);

// The PCI Express capability of a config-space dump (as /sys/bus/pci/devices/<bdf>/config reads):
// port type, max payload size (Device Control), link capability and status. Unprivileged readers
// get only the first 64 bytes, which hold no capability: then nothing is known.
PcieReading parse_pcie_config(const std::vector<unsigned char>& config);

// /sys/bus/pci/devices/<bus id>
std::string sysfs_pci_device_dir(const std::string& bus_id);
// Reads a device directory: config space first, then the link files (current_link_speed,
// current_link_width, max_link_speed, max_link_width), which win where they say something.
PcieReading read_sysfs_pcie(const std::string& device_dir);

// hwloc info attributes that carry a PcieReading in an XML topology (written by
// `h2dbench topology --export`, read from fixtures and exported rigs).
namespace pcie_info {
inline constexpr const char* kGen = "PCIeLinkGen";
inline constexpr const char* kWidth = "PCIeLinkWidth";
inline constexpr const char* kMaxGen = "PCIeMaxLinkGen";
inline constexpr const char* kMaxWidth = "PCIeMaxLinkWidth";
inline constexpr const char* kMaxPayload = "PCIeMaxPayload";
inline constexpr const char* kPortType = "PCIePortType";
}  // namespace pcie_info

}  // namespace h2d
