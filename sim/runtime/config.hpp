#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace h2d::sim {

// What the simulated machine looks like, from H2D_SIM_* variables (docs/sim.md lists them all).
struct Config {
  int devices = 1;
  bool devices_given = false;  // H2D_SIM_DEVICES was set (a topology may give the count instead)
  int copy_engines = 2;        // asyncEngineCount: 1 shares one engine for both directions
  double h2d_bytes_per_s = 4e9;
  double d2h_bytes_per_s = 4e9;
  double pageable_factor = 0.5;  // pageable copies run at this fraction of the pinned rate
  std::uint64_t latency_ns = 10'000;
  std::uint64_t device_memory_bytes = 8ull << 30;
  int multiprocessors = 4;
  int cc_major = 9, cc_minor = 0;
  std::string peer = "none";      // H2D_SIM_PEER as given: all, none or groups "0-1,2-3"
  std::string topology_file;      // H2D_SIM_TOPOLOGY: an hwloc XML
  double uplink_bytes_per_s = 0;  // H2D_SIM_UPLINK_GBPS; 0: from the topology's link speeds
  std::string faults;             // H2D_SIM_FAULTS, parsed by faults.hpp
  bool launch_blocking = false;   // CUDA_LAUNCH_BLOCKING=1
};

// A variable with a value it cannot take: what() is the one line the user sees.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& variable, const std::string& value, const std::string& valid);
};

using Environment = std::function<const char*(const char*)>;

// Reads every variable through `environment` (getenv in the runtime, a map in tests). Throws
// ConfigError for the first bad one.
Config parse_config(const Environment& environment);

// "8GiB", "512MiB", "4096": bytes; throws std::invalid_argument.
std::uint64_t parse_byte_size(const std::string& text);
// "5s", "250ms", "40us", "100ns": nanoseconds; throws std::invalid_argument.
std::uint64_t parse_duration_ns(const std::string& text);

// The process's environment, parsed once; a bad variable ends the process with its one line on
// stderr and exit status 2, at the first CUDA call that needs the configuration.
Config config_from_environment();

}  // namespace h2d::sim
