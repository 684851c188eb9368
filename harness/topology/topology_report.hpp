#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "harness/topology/topology.hpp"

namespace h2d {

// A Topology for machines (`h2dbench topology --json`, the report's h2dbench.topology): per GPU
// its link, ceiling, NUMA node and path; the shared-uplink groups; warnings and notes. Unknown
// values are null.
nlohmann::json topology_to_json(const Topology& topology);

// The same for people: NUMA nodes, host bridges, root ports and switches down to each GPU with
// its link and ceiling, then shared uplinks, the all-GPUs ceiling, warnings and notes.
// `all_devices` also lists PCI devices that are not GPUs.
std::string render_topology_text(const Topology& topology, bool all_devices);

// "GPU 3": the CUDA ordinal when CUDA devices are attached, else the PCI-order index.
std::string gpu_label(const Topology& topology, const GpuTopology& gpu);

}  // namespace h2d
