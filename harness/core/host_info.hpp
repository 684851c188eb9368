#pragma once

#include <cstddef>
#include <string>

namespace h2d {

// The host facts a cross-machine comparison needs.
struct HostInfo {
  std::string hostname;
  std::string cpu_model;
  std::size_t cores = 0;  // usable by this process
  std::size_t memory_bytes = 0;
  std::size_t memory_available_bytes = 0;
  int numa_nodes = 0;  // from hwloc; 0 when it could not tell
  std::string kernel;  // uname -sr
};

HostInfo describe_host();

// "model name" of the first processor in a /proc/cpuinfo text; empty when absent. Pure.
std::string parse_cpu_model(const std::string& cpuinfo);

}  // namespace h2d
