#include "harness/report/run_verdict.hpp"

#include <fmt/format.h>

#include <cmath>

#include "harness/core/holm.hpp"
#include "harness/core/run_shift.hpp"

namespace h2d {
namespace {

constexpr double kConfidence = 0.95;
constexpr std::size_t kMinRunsToConfirm = 2;

bool confirmable(const RunShift& shift) {
  return shift.base_runs >= kMinRunsToConfirm && shift.other_runs >= kMinRunsToConfirm;
}

// The shift as a speed-up: for a time (lower is better) a smaller value is the faster.
RunShift as_speedup(RunShift shift, Better better) {
  if (better == Better::lower) {
    shift.log_shift = -shift.log_shift;
  }
  return shift;
}

std::string signed_pct(double log_speedup) {
  return fmt::format("{:+.1f}%", std::expm1(log_speedup) * 100);
}

}  // namespace

std::vector<Judgement> judge_runs(const std::vector<CaseRuns>& cases,
                                  const VerdictOptions& options) {
  std::vector<RunShift> shifts;
  for (const CaseRuns& c : cases) {
    shifts.push_back(as_speedup(run_shift(c.base, c.other), c.better));
  }
  const double log_low = std::log1p(-options.threshold_pct / 100);
  const double log_high = std::log1p(options.threshold_pct / 100);

  std::vector<Judgement> judgements(cases.size());
  std::vector<std::size_t> tested;
  std::vector<double> p_slower;
  std::vector<double> p_faster;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const RunShift& shift = shifts[i];
    Judgement& j = judgements[i];
    j.speedup = std::exp(shift.log_shift);
    j.ratio = cases[i].better == Better::higher ? j.speedup : 1 / j.speedup;
    j.change_pct = std::abs(j.ratio - 1) * 100;
    j.base_runs = shift.base_runs;
    j.other_runs = shift.other_runs;
    if (!confirmable(shift)) {
      j.reliable = false;
      j.verdict = shift.log_shift < log_low    ? Verdict::slower
                  : shift.log_shift > log_high ? Verdict::faster
                                               : Verdict::same;
      j.reason = fmt::format("unconfirmed: {} run{} vs {}; compare 3 runs a side (--vs)",
                             shift.base_runs, shift.base_runs == 1 ? "" : "s", shift.other_runs);
      continue;
    }
    const ShiftTest test = test_shift(shift, shift.pooled, log_low, log_high, kConfidence);
    j.reliable = true;
    j.speedup_low_pct = std::expm1(test.low) * 100;
    j.speedup_high_pct = std::expm1(test.high) * 100;
    tested.push_back(i);
    p_slower.push_back(test.p_below);
    p_faster.push_back(test.p_above);
  }
  const std::vector<double> slower = holm_adjust(p_slower);
  const std::vector<double> faster = holm_adjust(p_faster);
  for (std::size_t k = 0; k < tested.size(); ++k) {
    Judgement& j = judgements[tested[k]];
    const RunShift& shift = shifts[tested[k]];
    const std::string interval =
        fmt::format("{} (95% {}..{}; runs {}/{})", signed_pct(shift.log_shift),
                    signed_pct(std::log1p(*j.speedup_low_pct / 100)),
                    signed_pct(std::log1p(*j.speedup_high_pct / 100)), j.base_runs, j.other_runs);
    if (slower[k] < options.alpha) {
      j.verdict = Verdict::slower;
      j.p_value = slower[k];
      j.reason = fmt::format("beyond -{:g}%: {}; Holm p={:.2g}", options.threshold_pct, interval,
                             slower[k]);
    } else if (faster[k] < options.alpha) {
      j.verdict = Verdict::faster;
      j.p_value = faster[k];
      j.reason = fmt::format("beyond +{:g}%: {}; Holm p={:.2g}", options.threshold_pct, interval,
                             faster[k]);
    } else {
      j.verdict = Verdict::same;
      j.p_value = std::min(slower[k], faster[k]);
      j.reason = fmt::format("not shown beyond {:g}%: {}", options.threshold_pct, interval);
    }
  }
  return judgements;
}

}  // namespace h2d
