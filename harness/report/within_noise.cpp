#include "harness/report/within_noise.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "harness/report/case_noise.hpp"
#include "harness/report/verdict.hpp"

namespace h2d {
namespace {

// Without any measure of the noise, closer than this is not a difference worth a claim.
constexpr double kBlindTie = 0.01;

}  // namespace

bool within_noise(const ReportCase& a, const ReportCase& b, const PrimaryMetric& metric) {
  const std::string& m = metric.name;
  const double va = a.median(m);
  const double vb = b.median(m);
  if (va > 0 && vb > 0) {
    VerdictOptions options;
    options.threshold_pct = 0;  // statistics alone decide; compare's 5% is a reader's setting
    Repetitions ra = repetitions_of(a, m);
    Repetitions rb = repetitions_of(b, m);
    if (ra.count < 2 && rb.count < 2) {  // one run's cases: their within-run intervals
      ra.half_interval = within_run_half_interval(a, m);
      rb.half_interval = within_run_half_interval(b, m);
    }
    const Judgement judged = judge(ra, rb, metric.better, options);
    if (judged.reliable) {
      return judged.verdict == Verdict::same;
    }
  }
  return std::abs(va - vb) <= kBlindTie * std::max(std::abs(va), std::abs(vb));
}

}  // namespace h2d
