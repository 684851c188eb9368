#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace h2d {

// What h2dbench needs to know about one GPU, as the CUDA runtime reports it.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string uuid;        // "GPU-xxxxxxxx-..." as nvidia-smi prints it
  std::string pci_bus_id;  // "0000:17:00.0"
  int cc_major = 0;
  int cc_minor = 0;
  int copy_engines = 0;  // asyncEngineCount: 2 or more lets H2D and D2H overlap
  std::size_t total_memory = 0;
  int multiprocessors = 0;
  bool can_map_host_memory = false;
};

// The GPUs this process can use; when there are none, `unavailable_reason` says why in words a
// user can act on (no driver installed, driver too old, no device visible, ...).
struct DeviceDiscovery {
  std::vector<DeviceInfo> devices;
  std::string unavailable_reason;
  int driver_version = 0;   // 0 when no driver is loaded
  int runtime_version = 0;  // the CUDA runtime h2dbench was built with

  bool usable() const { return !devices.empty(); }
};

// Formats a CUDA version number (12040) as "12.4".
std::string format_cuda_version(int version);

}  // namespace h2d
