#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "sim/runtime/runtime.hpp"

namespace h2d::sim {

inline constexpr std::size_t kMiB = std::size_t{1} << 20;

// Runs a test on a simulated machine described by H2D_SIM_* values, then puts the process's own
// configuration back (the runtime is rebuilt from the environment both times).
class SimMachine {
 public:
  explicit SimMachine(std::initializer_list<std::pair<std::string, std::string>> values) {
    for (const auto& [name, value] : values) {
      const char* old = std::getenv(name.c_str());
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
      setenv(name.c_str(), value.c_str(), 1);
    }
    testing::reconfigure_from_environment();
  }
  ~SimMachine() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
    testing::reconfigure_from_environment();
  }
  SimMachine(const SimMachine&) = delete;
  SimMachine& operator=(const SimMachine&) = delete;

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

}  // namespace h2d::sim
