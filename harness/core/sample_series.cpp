#include "harness/core/sample_series.hpp"

#include <stdexcept>

namespace h2d {

const std::vector<double>& SampleSeries::samples(const std::string& name) const {
  const auto found = series_.find(name);
  if (found == series_.end()) {
    throw std::invalid_argument("no samples named '" + name + "'");
  }
  return found->second;
}

SampleStats SampleSeries::stats(const std::string& name) const {
  return summarize(samples(name));
}

MedianInterval SampleSeries::interval(const std::string& name, double confidence) const {
  return median_interval(samples(name), confidence);
}

}  // namespace h2d
