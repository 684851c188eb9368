#include "sim/runtime/config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace h2d::sim {
namespace {

double parse_positive_number(const std::string& text) {
  std::size_t used = 0;
  const double value = std::stod(text, &used);
  if (used != text.size() || !std::isfinite(value) || value <= 0) {
    throw std::invalid_argument(text);
  }
  return value;
}

long parse_integer(const std::string& text, long low, long high) {
  std::size_t used = 0;
  const long value = std::stol(text, &used);
  if (used != text.size() || value < low || value > high) {
    throw std::invalid_argument(text);
  }
  return value;
}

// Splits "12MiB" into 12 and "MiB".
std::pair<double, std::string> number_and_unit(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) {
    ++digits;
  }
  if (digits == 0) {
    throw std::invalid_argument(text);
  }
  return {parse_positive_number(text.substr(0, digits)), text.substr(digits)};
}

class Reader {
 public:
  explicit Reader(const Environment& environment) : environment_(environment) {}

  // Calls parse(value) when `variable` is set; a throw becomes a ConfigError naming it.
  template <typename Parse>
  void read(const char* variable, const char* valid, Parse parse) {
    const char* value = environment_(variable);
    if (value == nullptr) {
      return;
    }
    try {
      parse(std::string(value));
    } catch (const std::invalid_argument&) {
      throw ConfigError(variable, value, valid);
    } catch (const std::out_of_range&) {
      throw ConfigError(variable, value, valid);
    }
  }

 private:
  const Environment& environment_;
};

void check_peer_groups(const std::string& text) {
  if (text == "all" || text == "none") {
    return;
  }
  // "0-1,2-3": ranges of ordinals, each range a group whose members reach each other.
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string range = text.substr(start, comma - start);
    const std::size_t dash = range.find('-');
    if (dash == std::string::npos) {
      throw std::invalid_argument(text);
    }
    const long first = parse_integer(range.substr(0, dash), 0, 63);
    const long last = parse_integer(range.substr(dash + 1), 0, 63);
    if (last <= first) {
      throw std::invalid_argument(text);
    }
    start = comma + 1;
  }
}

}  // namespace

ConfigError::ConfigError(const std::string& variable, const std::string& value,
                         const std::string& valid)
    : std::runtime_error("h2dbench sim: " + variable + "='" + value + "' is not valid; " + valid) {}

std::uint64_t parse_byte_size(const std::string& text) {
  const auto [number, unit] = number_and_unit(text);
  double scale = 0;
  if (unit.empty() || unit == "B") {
    scale = 1;
  } else if (unit == "KiB") {
    scale = 1024.0;
  } else if (unit == "MiB") {
    scale = 1024.0 * 1024;
  } else if (unit == "GiB") {
    scale = 1024.0 * 1024 * 1024;
  } else {
    throw std::invalid_argument(text);
  }
  return static_cast<std::uint64_t>(number * scale);
}

std::uint64_t parse_duration_ns(const std::string& text) {
  const auto [number, unit] = number_and_unit(text);
  double scale = 0;
  if (unit == "ns") {
    scale = 1;
  } else if (unit == "us") {
    scale = 1e3;
  } else if (unit == "ms") {
    scale = 1e6;
  } else if (unit == "s") {
    scale = 1e9;
  } else {
    throw std::invalid_argument(text);
  }
  return static_cast<std::uint64_t>(number * scale);
}

Config parse_config(const Environment& environment) {
  Config config;
  Reader reader(environment);
  reader.read("H2D_SIM_DEVICES", "an integer from 0 to 64", [&](const std::string& v) {
    config.devices = static_cast<int>(parse_integer(v, 0, 64));
    config.devices_given = true;
  });
  reader.read("H2D_SIM_COPY_ENGINES", "1 or 2", [&](const std::string& v) {
    config.copy_engines = static_cast<int>(parse_integer(v, 1, 2));
  });
  reader.read(
      "H2D_SIM_H2D_GBPS", "a positive number of GB/s (1e9 bytes/s)",
      [&](const std::string& v) { config.h2d_bytes_per_s = parse_positive_number(v) * 1e9; });
  reader.read(
      "H2D_SIM_D2H_GBPS", "a positive number of GB/s (1e9 bytes/s)",
      [&](const std::string& v) { config.d2h_bytes_per_s = parse_positive_number(v) * 1e9; });
  reader.read("H2D_SIM_PAGEABLE_FACTOR", "a number in (0, 1]", [&](const std::string& v) {
    config.pageable_factor = parse_positive_number(v);
    if (config.pageable_factor > 1) {
      throw std::invalid_argument(v);
    }
  });
  reader.read("H2D_SIM_LATENCY_US", "a number of microseconds >= 0", [&](const std::string& v) {
    config.latency_ns = v == "0" ? 0 : static_cast<std::uint64_t>(parse_positive_number(v) * 1e3);
  });
  reader.read("H2D_SIM_DEVICE_MEMORY", "a size such as 8GiB, 512MiB or 1048576",
              [&](const std::string& v) { config.device_memory_bytes = parse_byte_size(v); });
  reader.read("H2D_SIM_SMS", "an integer from 1 to 1024", [&](const std::string& v) {
    config.multiprocessors = static_cast<int>(parse_integer(v, 1, 1024));
  });
  reader.read("H2D_SIM_COMPUTE_CAPABILITY", "MAJOR.MINOR such as 9.0", [&](const std::string& v) {
    const std::size_t dot = v.find('.');
    if (dot == std::string::npos) {
      throw std::invalid_argument(v);
    }
    config.cc_major = static_cast<int>(parse_integer(v.substr(0, dot), 1, 99));
    config.cc_minor = static_cast<int>(parse_integer(v.substr(dot + 1), 0, 9));
  });
  reader.read("H2D_SIM_PEER", "all, none, or groups of ordinals such as 0-1,2-3",
              [&](const std::string& v) {
                check_peer_groups(v);
                config.peer = v;
              });
  reader.read("H2D_SIM_TOPOLOGY", "the path of an hwloc XML file", [&](const std::string& v) {
    if (v.empty()) {
      throw std::invalid_argument(v);
    }
    config.topology_file = v;
  });
  reader.read("H2D_SIM_UPLINK_GBPS", "a positive number of GB/s", [&](const std::string& v) {
    config.uplink_bytes_per_s = parse_positive_number(v) * 1e9;
  });
  reader.read("H2D_SIM_FAULTS", "see docs/sim.md",
              [&](const std::string& v) { config.faults = v; });
  reader.read("CUDA_LAUNCH_BLOCKING", "0 or 1",
              [&](const std::string& v) { config.launch_blocking = parse_integer(v, 0, 1) == 1; });
  return config;
}

Config config_from_environment() {
  try {
    return parse_config([](const char* name) { return std::getenv(name); });
  } catch (const ConfigError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    std::exit(2);
  }
}

}  // namespace h2d::sim
