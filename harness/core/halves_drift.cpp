#include "harness/core/halves_drift.hpp"

#include <cmath>

#include "harness/core/median_interval.hpp"

namespace h2d {

std::optional<HalvesDrift> halves_drift(const std::vector<double>& samples, double confidence,
                                        double target_rel_ci_pct) {
  if (samples.size() < 2 * kHalfMeasurements) {
    return std::nullopt;
  }
  const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
  const MedianInterval first = median_interval({samples.begin(), middle}, confidence);
  const MedianInterval second = median_interval({middle, samples.end()}, confidence);
  const double whole = median_interval(samples, confidence).median;
  if (whole == 0 || !std::isfinite(whole)) {
    return std::nullopt;
  }
  HalvesDrift drift;
  drift.shift_pct = (second.median - first.median) / whole * 100;
  const bool apart = first.high < second.low || second.high < first.low;
  drift.drifting = apart && std::abs(drift.shift_pct) > target_rel_ci_pct;
  return drift;
}

}  // namespace h2d
