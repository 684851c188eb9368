#include "harness/suite/run_topology.hpp"

#include <exception>

#include "harness/core/usage_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/topology/link_annotation.hpp"
#include "harness/topology/topology_report.hpp"

namespace h2d {

const Topology& run_topology() {
  static const Topology topology = [] {
    Topology attached = system_topology();
    attach_cuda_devices(attached, discover_devices().devices);
    return attached;
  }();
  return topology;
}

void add_topology_to_report(nlohmann::json& report, const std::vector<int>& selected_devices) {
  try {
    const Topology& topology = run_topology();
    report["h2dbench"]["topology"] = topology_to_json(topology);
    annotate_link_pct(report, topology, selected_devices);
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& error) {
    report["h2dbench"]["topology"] = {{"error", error.what()}};
  }
}

}  // namespace h2d
