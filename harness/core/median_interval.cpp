#include "harness/core/median_interval.hpp"

#include <algorithm>
#include <cmath>

#include "harness/core/statistics.hpp"

namespace h2d {

double MedianInterval::relative_half_width_pct() const {
  if (median == 0) {
    return 0;
  }
  return std::max(median - low, high - median) / std::abs(median) * 100;
}

MedianInterval median_interval(std::vector<double> samples) {
  const SampleStats stats = summarize(samples);  // throws for an empty sample
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  // The largest rank l (1-based) with P(X <= l - 1) <= 0.025 for X ~ Binomial(n, 1/2).
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  double below = 0;  // P(X <= k)
  std::size_t rank = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double log_choose = std::lgamma(static_cast<double>(n) + 1) -
                              std::lgamma(static_cast<double>(k) + 1) -
                              std::lgamma(static_cast<double>(n - k) + 1);
    below += std::exp(log_choose + log_half_n);
    if (below > 0.025) {
      break;
    }
    rank = k + 1;  // P(X <= k) <= 0.025: rank k + 1 keeps the coverage
  }
  MedianInterval interval;
  interval.median = stats.median;
  interval.measurements = n;
  interval.covers_95 = rank >= 1;
  const std::size_t low_index = rank >= 1 ? rank - 1 : 0;
  interval.low = samples[low_index];
  interval.high = samples[n - 1 - low_index];
  return interval;
}

std::vector<std::pair<std::string, double>> interval_counters(const MedianInterval& interval) {
  return {{"rel_ci_pct", interval.relative_half_width_pct()},
          {"measurements", static_cast<double>(interval.measurements)}};
}

}  // namespace h2d
