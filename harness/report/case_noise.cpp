#include "harness/report/case_noise.hpp"

#include <algorithm>
#include <cmath>

#include "harness/core/median_interval.hpp"

namespace h2d {
namespace {

constexpr double kZ95 = 1.96;

// A share in % a report may hold: finite and not negative (a hand-edited or damaged report's
// other numbers say nothing of the noise).
bool is_share(const std::optional<double>& pct) {
  return pct && std::isfinite(*pct) && *pct >= 0;
}

}  // namespace

std::optional<double> within_run_half_interval(const ReportCase& c, const std::string& metric) {
  const auto measurements = c.find_median("measurements");
  auto rel_ci = c.find_median(figure_interval_counter(metric));  // of this figure itself
  if (!rel_ci) {
    rel_ci = c.find_median("rel_ci_pct");
  }
  if (is_share(rel_ci) && measurements && *measurements >= 2) {
    return *rel_ci / 100 * c.median(metric);
  }
  const auto cv = c.find_median("cv_pct");
  const auto iterations = c.find_median("iterations");
  if (!is_share(cv) || !iterations || *iterations < 2) {
    return std::nullopt;
  }
  return kZ95 * (*cv / 100) * c.median(metric) / std::sqrt(*iterations);
}

Repetitions repetitions_of(const ReportCase& c, const std::string& metric) {
  Repetitions r;
  r.values = c.values.at(metric);
  r.count = std::max(c.repetitions, r.values.size());
  if (c.aggregates_only) {
    if (const auto stddev = c.aggregate_stddev.find(metric); stddev != c.aggregate_stddev.end()) {
      r.stddev = stddev->second;
    }
  }
  return r;
}

}  // namespace h2d
