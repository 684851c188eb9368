#include "harness/core/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace h2d {

MannWhitneyResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) {
    throw std::invalid_argument("Mann-Whitney U needs two non-empty samples");
  }
  // Rank the pooled sample (average ranks for ties) and sum the ranks of `a`.
  std::vector<std::pair<double, bool>> pooled;  // value, from `a`
  for (double x : a) {
    pooled.emplace_back(x, true);
  }
  for (double x : b) {
    pooled.emplace_back(x, false);
  }
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& left, const auto& right) { return left.first < right.first; });
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  const double n = n1 + n2;
  double rank_sum_a = 0;
  double tie_term = 0;  // sum over tie groups of t^3 - t
  for (std::size_t start = 0; start < pooled.size();) {
    std::size_t end = start;
    while (end < pooled.size() && pooled[end].first == pooled[start].first) {
      ++end;
    }
    const double t = static_cast<double>(end - start);
    const double average_rank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2;
    for (std::size_t i = start; i < end; ++i) {
      if (pooled[i].second) {
        rank_sum_a += average_rank;
      }
    }
    tie_term += t * t * t - t;
    start = end;
  }
  MannWhitneyResult result;
  result.u = rank_sum_a - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (variance <= 0) {
    return result;  // every value tied: no evidence of a difference
  }
  const double u_larger = std::max(result.u, n1 * n2 - result.u);
  result.z = std::max(0.0, (u_larger - mean - 0.5) / std::sqrt(variance));
  result.p_value = std::min(1.0, std::erfc(result.z / std::sqrt(2.0)));  // 2 * normal tail
  return result;
}

}  // namespace h2d
