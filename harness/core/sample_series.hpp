#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/core/median_interval.hpp"
#include "harness/core/statistics.hpp"

namespace h2d {

// Named per-iteration measurements of one case (batch time, host time, copy time, rates), kept
// so each can be summarized on its own, e.g. into a median counter.
class SampleSeries {
 public:
  void add(const std::string& name, double value) { series_[name].push_back(value); }
  // Throws std::invalid_argument when nothing was added under `name`.
  SampleStats stats(const std::string& name) const;
  double median(const std::string& name) const { return stats(name).median; }
  // The interval of the median of `name` at `confidence` (median_interval); throws as stats() does.
  MedianInterval interval(const std::string& name, double confidence = 0.95) const;

 private:
  const std::vector<double>& samples(const std::string& name) const;

  std::map<std::string, std::vector<double>> series_;
};

}  // namespace h2d
