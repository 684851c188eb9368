#include "harness/report/within_noise.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "harness/report/verdict.hpp"

namespace h2d {
namespace {

constexpr double kZ95 = 1.96;
// Without any measure of the noise, closer than this is not a difference worth a claim.
constexpr double kBlindTie = 0.01;

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

// Half the 95% confidence interval of the case's median (its rel_ci_pct counter), else of its mean
// from its within-run spread, or nullopt when the run had no spread to measure (one iteration, or
// no cv_pct counter: older reports).
std::optional<double> half_interval(const ReportCase& c, const std::string& metric) {
  const auto measurements = c.find_median("measurements");
  if (const auto rel_ci = c.find_median("rel_ci_pct");
      rel_ci && measurements && *measurements >= 2) {
    return *rel_ci / 100 * c.median(metric);
  }
  const auto cv = c.find_median("cv_pct");
  const auto iterations = c.find_median("iterations");
  if (!cv || !iterations || *iterations < 2) {
    return std::nullopt;
  }
  return kZ95 * (*cv / 100) * c.median(metric) / std::sqrt(*iterations);
}

}  // namespace

bool within_noise(const ReportCase& a, const ReportCase& b, const PrimaryMetric& metric) {
  const std::string& m = metric.name;
  const double va = a.median(m);
  const double vb = b.median(m);
  const Repetitions ra = repetitions_of(a, m);
  const Repetitions rb = repetitions_of(b, m);
  if (ra.count >= 2 && rb.count >= 2 && va > 0 && vb > 0) {
    VerdictOptions options;
    options.threshold_pct = 0;  // statistics alone decide; compare's 5% is a reader's setting
    return judge(ra, rb, metric.better, options).verdict == Verdict::same;
  }
  const auto ha = half_interval(a, m);
  const auto hb = half_interval(b, m);
  if (ha && hb) {
    return std::abs(va - vb) <= *ha + *hb;
  }
  return std::abs(va - vb) <= kBlindTie * std::max(std::abs(va), std::abs(vb));
}

}  // namespace h2d
