#include "harness/core/device_info.hpp"

#include <fmt/format.h>

namespace h2d {

std::string format_cuda_version(int version) {
  if (version <= 0) {
    return "none";
  }
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

}  // namespace h2d
