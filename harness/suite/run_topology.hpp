#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "harness/topology/topology.hpp"

namespace h2d {

// This machine's topology (or HWLOC_XMLFILE's) with the CUDA devices of this process attached:
// built once, on first use, for the whole run.
const Topology& run_topology();

// What run_command adds before writing a report: h2dbench.topology (run_topology() as JSON, or
// the reason it could not be read) and link_pct on every bandwidth figure.
void add_topology_to_report(nlohmann::json& report, const std::vector<int>& selected_devices);

}  // namespace h2d
