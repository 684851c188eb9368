#include "harness/core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace h2d {

double percentile(std::vector<double> samples, double pct) {
  if (samples.empty()) {
    throw std::invalid_argument("percentile of an empty sample");
  }
  if (!(pct > 0 && pct <= 100)) {
    throw std::invalid_argument("percentile must be in (0, 100]");
  }
  std::sort(samples.begin(), samples.end());
  const auto rank = static_cast<std::size_t>(std::ceil(pct / 100.0 * samples.size()));
  return samples[std::max<std::size_t>(rank, 1) - 1];
}

SampleStats summarize(std::vector<double> samples) {
  if (samples.empty()) {
    throw std::invalid_argument("summary of an empty sample");
  }
  std::sort(samples.begin(), samples.end());
  SampleStats stats;
  stats.count = samples.size();
  const std::size_t n = samples.size();
  stats.median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  stats.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  if (n > 1) {
    double squares = 0;
    for (double x : samples) {
      squares += (x - stats.mean) * (x - stats.mean);
    }
    stats.stdev = std::sqrt(squares / static_cast<double>(n - 1));
  }
  stats.cv = stats.mean != 0 ? stats.stdev / std::abs(stats.mean) : 0;
  stats.min = samples.front();
  stats.max = samples.back();
  stats.p99 = percentile(samples, 99);
  return stats;
}

}  // namespace h2d
