#include "harness/core/holm.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace h2d {

std::vector<double> holm_adjust(const std::vector<double>& p_values) {
  for (const double p : p_values) {
    if (!(p >= 0 && p <= 1)) {
      throw std::invalid_argument("holm_adjust needs p-values in [0, 1]");
    }
  }
  const std::size_t m = p_values.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double running_max = 0;
  for (std::size_t rank = 0; rank < m; ++rank) {
    const double scaled = std::min(1.0, static_cast<double>(m - rank) * p_values[order[rank]]);
    running_max = std::max(running_max, scaled);
    adjusted[order[rank]] = running_max;
  }
  return adjusted;
}

}  // namespace h2d
