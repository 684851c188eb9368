#pragma once

#include <cstddef>
#include <vector>

namespace h2d {

// Summary of repeated measurements of one quantity.
struct SampleStats {
  std::size_t count = 0;
  double median = 0;
  double mean = 0;
  double stdev = 0;  // sample standard deviation (n - 1)
  double cv = 0;     // stdev / mean; 0 when the mean is 0
  double min = 0;
  double max = 0;
  double p99 = 0;  // nearest-rank 99th percentile
};

// Throws std::invalid_argument for an empty sample.
SampleStats summarize(std::vector<double> samples);

// Nearest-rank percentile (0 < pct <= 100) of a sample; throws for an empty sample.
double percentile(std::vector<double> samples, double pct);

// A coefficient of variation above this marks a case as noisy in reports and verdicts.
inline constexpr double kNoisyCv = 0.05;

}  // namespace h2d
