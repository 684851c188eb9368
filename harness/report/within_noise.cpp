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
    const Judgement judged =
        judge(repetitions_of(a, m, /*with_mean_interval=*/true),
              repetitions_of(b, m, /*with_mean_interval=*/true), metric.better, options);
    if (judged.reliable) {
      return judged.verdict == Verdict::same;
    }
  }
  return std::abs(va - vb) <= kBlindTie * std::max(std::abs(va), std::abs(vb));
}

}  // namespace h2d
