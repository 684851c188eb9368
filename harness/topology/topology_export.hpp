#pragma once

#include <string>

#include "harness/topology/hwloc_topology.hpp"

namespace h2d {

// Writes a topology as hwloc XML. For this machine, every PCI function first gets the PCIe* infos
// (pcie_reading.hpp) that sysfs and config space give, so `h2dbench topology --xml FILE` or
// HWLOC_XMLFILE elsewhere sees each link's generation, width, maximum and payload size, which
// plain `lstopo --of xml` leaves out. Throws UsageError naming `path` when it cannot be written.
void export_topology_xml(const HwlocTopology& hwloc, const std::string& path);

}  // namespace h2d
