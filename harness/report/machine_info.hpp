#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace h2d {

// What one report says about its machine, as short strings for a side-by-side header. Every
// field is "-" when the report does not say (older reports, no GPU, no topology object).
struct MachineInfo {
  std::string hostname;
  std::string gpus;     // "NVIDIA H200 (sm_9.0)", "2x NVIDIA A100 ...", or "none: <reason>"
  std::string link;     // "PCIe gen4 x16" from a "topology" object or per-GPU link fields
  std::string driver;   // CUDA driver version
  std::string runtime;  // CUDA runtime version
  std::string cpu;      // model and usable cores
  std::string numa;     // NUMA node count
  std::string memory;   // host memory
  std::string run;      // preset
  std::string build;    // h2dbench version and git sha
  std::string started;  // UTC start time
};

// Reads the "h2dbench" context of a report (and the optional "topology" object). Tolerant:
// missing or oddly typed fields become "-", never an error.
MachineInfo describe_machine(const nlohmann::json& report);

// Link generation and width of one GPU entry (h2dbench.gpus[i] or h2dbench.topology.gpus[i]):
// accepts {"link": {"generation": 4, "width": 16}} (or "pcie" instead of "link", either with a
// "current" object inside, which wins over "max"), and flat keys such as link_generation /
// link_width, pcie_generation / pcie_width, current_link_gen / current_link_width. Empty when
// absent.
std::string describe_link(const nlohmann::json& gpu);

}  // namespace h2d
