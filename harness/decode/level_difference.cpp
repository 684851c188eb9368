#include "harness/decode/level_difference.hpp"

#include <algorithm>
#include <cstdlib>

namespace h2d {

LevelDifference compare_levels(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes) {
  LevelDifference difference;
  double sum = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    const int d = std::abs(int{a[i]} - int{b[i]});
    difference.max = std::max(difference.max, d);
    sum += d;
  }
  difference.mean = bytes > 0 ? sum / static_cast<double>(bytes) : 0;
  return difference;
}

}  // namespace h2d
