#pragma once

#include <string>
#include <vector>

namespace h2d::sim {

// The part of an hwloc XML (H2D_SIM_TOPOLOGY) the sim models: its NVIDIA GPUs in PCI bus order
// (sim device N takes the Nth one's bus id, so h2dbench matches devices to the same tree it reads)
// and the links several of them share.
struct SimTopology {
  struct Gpu {
    std::string bus_id;       // "0000:04:00.0"
    double link_bytes_per_s;  // payload rate of its own link; 0 when the XML has no speed
  };
  struct SharedLink {
    std::string bus_id;      // the bridge whose upstream link it is
    double bytes_per_s = 0;  // payload rate; 0 when the XML has no speed
    std::vector<int> gpus;   // indices into gpus
  };
  std::vector<Gpu> gpus;
  std::vector<SharedLink> shared_links;
};

// Throws ConfigError naming H2D_SIM_TOPOLOGY when the file cannot be read or has no GPU.
SimTopology load_sim_topology(const std::string& xml_file);

// hwloc gives a link's raw rate; what carries payload is MPS / (MPS + 20 bytes of TLP overhead)
// of it (PCIe Base Spec TLP framing for Gen1-5, as harness/link_model uses).
double payload_bytes_per_s(double raw_gb_per_s, int max_payload);

}  // namespace h2d::sim
