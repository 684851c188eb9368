#include "harness/core/stopping_rule.hpp"

#include <algorithm>

#include "harness/core/median_interval.hpp"

namespace h2d {

double StoppingRule::cap_seconds() const {
  return std::max(max_seconds, min_seconds);
}

std::optional<StopReason> stop_reason_from_counter(double value) {
  for (StopReason reason : {StopReason::measuring, StopReason::median_known, StopReason::time_cap,
                            StopReason::count_cap, StopReason::exact_count}) {
    if (value == static_cast<double>(reason)) {
      return reason;
    }
  }
  return std::nullopt;
}

bool is_noisy(StopReason reason) {
  return reason == StopReason::time_cap || reason == StopReason::count_cap;
}

StopReason decide(const StoppingRule& rule, const std::vector<double>& samples, double elapsed_s) {
  const std::size_t n = samples.size();
  if (rule.exact_measurements > 0) {
    return n >= rule.exact_measurements ? StopReason::exact_count : StopReason::measuring;
  }
  if (n >= rule.max_measurements) {
    return StopReason::count_cap;
  }
  if (n >= rule.min_measurements && elapsed_s >= rule.min_seconds) {
    const MedianInterval interval = median_interval(samples, rule.interval_confidence);
    if (interval.covers_95 && interval.relative_half_width_pct() <= rule.target_rel_ci_pct) {
      return StopReason::median_known;
    }
  }
  if (elapsed_s >= rule.cap_seconds() && n >= rule.min_measurements_at_cap) {
    return StopReason::time_cap;
  }
  return StopReason::measuring;
}

std::optional<double> projected_seconds(double target_rel_ci_pct, const MedianInterval& interval,
                                        double elapsed_s) {
  if (!interval.covers_95 || !(target_rel_ci_pct > 0) || !(elapsed_s > 0)) {
    return std::nullopt;
  }
  const double ratio = interval.relative_half_width_pct() / target_rel_ci_pct;
  return elapsed_s * ratio * ratio;
}

StoppingRule preset_stopping_rule(Preset preset, std::size_t cases) {
  // The default's measuring budget: what one GPU's 634 cases (16 cores) measure at 0.3 s each,
  // inside the 5 minutes issue 32 gives that run. A smaller run gives each case up to 0.5 s: the
  // host-only run of 63 cases on 2 cores took 43-46 s with 52-63% of its cases within 2%, where
  // 0.3 s gave 38-62% (2026-12-07, runs interleaved; 0.6 s gave 67-73% but up to 66 s, past 60).
  constexpr double kDefaultBudgetS = 190;
  constexpr double kDefaultLeastCapS = 0.3;
  constexpr double kDefaultMostCapS = 0.5;
  StoppingRule rule;
  switch (preset) {
    case Preset::quick:
      rule.max_seconds = 0.1;
      break;
    case Preset::standard:
      rule.max_seconds =
          std::clamp(kDefaultBudgetS / static_cast<double>(std::max<std::size_t>(cases, 1)),
                     kDefaultLeastCapS, kDefaultMostCapS);
      break;
    case Preset::full:
      rule.max_seconds = 2.0;
      break;
  }
  return rule;
}

}  // namespace h2d
