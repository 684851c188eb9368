#pragma once

#include <map>
#include <string>
#include <vector>

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

 private:
  std::map<std::string, std::vector<double>> series_;
};

}  // namespace h2d
