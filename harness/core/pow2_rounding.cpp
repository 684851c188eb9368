#include "harness/core/pow2_rounding.hpp"

#include <limits>
#include <stdexcept>

namespace h2d {

std::size_t round_up_pow2(std::size_t bytes) {
  if (bytes == 0) {
    throw std::invalid_argument("round_up_pow2 needs a size of at least one byte");
  }
  constexpr std::size_t kLargest = (std::numeric_limits<std::size_t>::max() >> 1) + 1;
  if (bytes > kLargest) {
    throw std::overflow_error("no power of two in std::size_t holds the requested size");
  }
  std::size_t rounded = 1;
  while (rounded < bytes) {
    rounded <<= 1;
  }
  return rounded;
}

double rounding_waste_pct(std::size_t bytes) {
  const std::size_t rounded = round_up_pow2(bytes);
  return static_cast<double>(rounded - bytes) / static_cast<double>(bytes) * 100.0;
}

}  // namespace h2d
