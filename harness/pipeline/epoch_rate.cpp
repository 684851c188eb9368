#include "harness/pipeline/epoch_rate.hpp"

#include "harness/core/statistics.hpp"

namespace h2d {

double median_epoch_rate(const std::vector<EpochSpan>& epochs) {
  std::vector<double> rates;
  for (const EpochSpan& epoch : epochs) {
    if (epoch.window_s > 0) {
      rates.push_back(static_cast<double>(epoch.samples) / epoch.window_s);
    }
  }
  return rates.empty() ? 0.0 : summarize(rates).median;
}

}  // namespace h2d
