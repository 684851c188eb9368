#include "harness/core/sample_shape.hpp"

#include <fmt/format.h>

namespace h2d {

std::string to_string(const SampleShape& shape) {
  return fmt::format("{}x{}x{}", shape.channels, shape.height, shape.width);
}

}  // namespace h2d
