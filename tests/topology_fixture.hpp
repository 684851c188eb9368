#pragma once

// Rigs described by the hwloc XML files in tests/fixtures/ (written by make_topology_fixtures.py).

#include <string>
#include <vector>

#include "harness/core/device_info.hpp"
#include "harness/topology/topology.hpp"
#include "tests/process_runner.hpp"

namespace h2d::testing {

inline std::string fixture_path(const std::string& name) {
  return source_dir() + "/tests/fixtures/" + name;
}

inline Topology load_fixture(const std::string& name) {
  return build_topology(HwlocTopology::load_xml(fixture_path(name), "test"));
}

// The fixture with CUDA devices attached, ordinals in PCI bus order, as
// CUDA_DEVICE_ORDER=PCI_BUS_ID would number them.
inline Topology load_fixture_with_cuda(const std::string& name) {
  Topology topology = load_fixture(name);
  std::vector<DeviceInfo> devices;
  for (const GpuTopology& gpu : topology.gpus) {
    DeviceInfo device;
    device.ordinal = gpu.index;
    device.pci_bus_id = gpu.bus_id;
    devices.push_back(device);
  }
  attach_cuda_devices(topology, devices);
  return topology;
}

}  // namespace h2d::testing
