#include "harness/core/sample_series.hpp"

#include <stdexcept>

namespace h2d {

SampleStats SampleSeries::stats(const std::string& name) const {
  const auto found = series_.find(name);
  if (found == series_.end()) {
    throw std::invalid_argument("no samples named '" + name + "'");
  }
  return summarize(found->second);
}

}  // namespace h2d
