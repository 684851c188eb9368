// h2dbench topology: where the GPUs sit (NUMA nodes, host bridges, switches), each PCIe link and
// its ceiling, which GPUs share an uplink, and links running below what they support.

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "benchmarks/commands/commands.hpp"
#include "harness/cli/command_line.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/topology/hwloc_topology.hpp"
#include "harness/topology/topology.hpp"
#include "harness/topology/topology_export.hpp"
#include "harness/topology/topology_report.hpp"

namespace h2d {
namespace {

constexpr const char* kUsage = "topology [--xml FILE] [--json] [--all] [--export FILE]";

struct TopologyOptions {
  std::optional<std::string> xml;
  std::optional<std::string> export_path;
  bool json = false;
  bool all = false;
};

TopologyOptions parse_options(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_command_line({"topology",
                                                {{"--xml", "an hwloc XML file"},
                                                 {"--json", ""},
                                                 {"--all", ""},
                                                 {"--export", "a file to write the XML to"}},
                                                "",
                                                ""},
                                               args);
  TopologyOptions options;
  options.xml = parsed.get("--xml");
  options.export_path = parsed.get("--export");
  options.json = parsed.has("--json");
  options.all = parsed.has("--all");
  return options;
}

int topology_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  const TopologyOptions options = parse_options(args);
  const HwlocTopology hwloc =
      options.xml ? HwlocTopology::load_xml(*options.xml, "--xml") : HwlocTopology::load_system();
  Topology topology = build_topology(hwloc);
  const DeviceDiscovery* cuda = nullptr;
  if (topology.this_system) {
    cuda = &discover_devices();
    attach_cuda_devices(topology, cuda->devices);
  }
  if (options.export_path) {
    export_topology_xml(hwloc, *options.export_path);
  }
  if (options.json) {
    nlohmann::json document = topology_to_json(topology);
    if (cuda != nullptr) {
      document["cuda"] = {{"usable", cuda->usable()},
                          {"devices", cuda->devices.size()},
                          {"unavailable_reason", cuda->unavailable_reason}};
    }
    fmt::print("{}\n", document.dump(2));
  } else {
    // Without a GPU the PCI tree is all there is to show.
    fmt::print("{}", render_topology_text(topology, options.all || topology.gpus.empty()));
    if (cuda != nullptr) {
      fmt::print("CUDA: {}\n", cuda->usable() ? fmt::format("{} usable GPU{}", cuda->devices.size(),
                                                            cuda->devices.size() == 1 ? "" : "s")
                                              : "no usable GPU: " + cuda->unavailable_reason);
    }
  }
  if (options.export_path && !options.json) {
    fmt::print("topology written to {}\n", *options.export_path);
  }
  return 0;
}

[[maybe_unused]] const bool topology_command_registered = register_command({
    "topology",
    kUsage,
    "show GPUs, PCIe links and ceilings, shared uplinks and NUMA nodes (--xml describes a rig)",
    topology_command,
    "  --xml FILE      describe the rig in an hwloc XML file instead of this machine (e.g. one\n"
    "                  written by --export elsewhere)\n"
    "  --json          the same as JSON\n"
    "  --all           every PCI device, not only the GPUs and the bridges above them\n"
    "  --export FILE   write this machine's topology as hwloc XML, with each link's PCIe\n"
    "                  generation and width, for --xml or HWLOC_XMLFILE on another machine\n",
});

}  // namespace
}  // namespace h2d
