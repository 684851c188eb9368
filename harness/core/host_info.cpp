#include "harness/core/host_info.hpp"

#include <hwloc.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <sstream>

#include "harness/core/host_threads.hpp"
#include "harness/core/system_memory.hpp"

namespace h2d {
namespace {

int count_numa_nodes() {
  hwloc_topology_t topology = nullptr;
  if (hwloc_topology_init(&topology) != 0) {
    return 0;
  }
  int nodes = 0;
  if (hwloc_topology_load(topology) == 0) {
    nodes = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
  }
  hwloc_topology_destroy(topology);
  return nodes > 0 ? nodes : 0;
}

std::string read_file(const char* path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

std::string parse_cpu_model(const std::string& cpuinfo) {
  std::istringstream lines(cpuinfo);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) {
        const std::size_t start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? std::string() : line.substr(start);
      }
    }
  }
  return {};
}

HostInfo describe_host() {
  HostInfo info;
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) == 0) {
    info.hostname = name.data();
  }
  info.cpu_model = parse_cpu_model(read_file("/proc/cpuinfo"));
  info.cores = usable_cores();
  info.memory_bytes = total_memory_bytes();
  info.memory_available_bytes = available_memory_bytes();
  info.numa_nodes = count_numa_nodes();
  utsname uts{};
  if (uname(&uts) == 0) {
    info.kernel = std::string(uts.sysname) + " " + uts.release;
  }
  return info;
}

}  // namespace h2d
