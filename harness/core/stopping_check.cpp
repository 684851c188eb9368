#include "harness/core/stopping_check.hpp"

#include <algorithm>

#include "harness/core/median_interval.hpp"

namespace h2d {

StoppingCheck::StoppingCheck(const StoppingRule& rule)
    : rule_(rule), first_(std::chrono::steady_clock::now()) {
  next_check_ = std::max<std::size_t>(1, std::min(rule_.min_measurements, rule_.max_measurements));
  most_cap_s_ = rule_.most_cap_multiple * rule_.cap_seconds();
  if (rule_.exact_measurements > 0) {
    rule_.bank.reset();  // a count, not a time: nothing to lend or take
  }
}

StopReason StoppingCheck::after(const std::vector<double>& samples) {
  return after(samples,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - first_).count());
}

StopReason StoppingCheck::after(const std::vector<double>& samples, double elapsed_s) {
  const std::size_t n = samples.size();
  const bool due = n >= next_check_ || elapsed_s >= rule_.cap_seconds() || rule_.exact_measurements;
  if (!due) {
    return StopReason::measuring;
  }
  StopReason reason = decide(rule_, samples, elapsed_s);
  if (reason == StopReason::time_cap && extend(samples, elapsed_s)) {
    reason = StopReason::measuring;
  }
  if (reason == StopReason::measuring) {
    next_check_ = n + std::max<std::size_t>(1, n / 8);
  } else if (rule_.bank) {
    // What it left goes to the others; what it ran past its cap (its last measurement, or the
    // few the rule takes past the cap) is paid back, so the run's bound stays one.
    rule_.bank->deposit(rule_.cap_seconds() - elapsed_s);
    rule_.bank->charge_overrun(elapsed_s - rule_.cap_seconds());
  }
  return reason;
}

bool StoppingCheck::extend(const std::vector<double>& samples, double elapsed_s) {
  if (!rule_.bank) {
    return false;
  }
  std::optional<double> total_s = projected_seconds(
      rule_.target_rel_ci_pct, median_interval(samples, rule_.interval_confidence), elapsed_s);
  if (!total_s || *total_s > most_cap_s_) {
    return false;  // a case that cannot be helped leaves the time to one that can
  }
  // Under the floor, the time its missing measurements take at this pace comes first.
  const double n = static_cast<double>(samples.size());
  const double floor = static_cast<double>(rule_.min_measurements);
  total_s = std::max(*total_s, n < floor ? elapsed_s * floor / n : 0.0);
  // The cap grows from now, not from the cap: the last measurement may have run past it.
  const double new_cap_s = std::max(*total_s, elapsed_s);
  if (!(new_cap_s > rule_.cap_seconds()) ||
      !rule_.bank->withdraw(new_cap_s - rule_.cap_seconds())) {
    return false;
  }
  rule_.max_seconds = new_cap_s;
  return true;
}

}  // namespace h2d
