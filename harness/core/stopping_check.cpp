#include "harness/core/stopping_check.hpp"

#include <algorithm>

namespace h2d {

StoppingCheck::StoppingCheck(const StoppingRule& rule)
    : rule_(rule), first_(std::chrono::steady_clock::now()) {
  next_check_ = std::max<std::size_t>(1, std::min(rule_.min_measurements, rule_.max_measurements));
}

StopReason StoppingCheck::after(const std::vector<double>& samples) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - first_).count();
  const std::size_t n = samples.size();
  const bool due = n >= next_check_ || elapsed >= rule_.cap_seconds() || rule_.exact_measurements;
  if (!due) {
    return StopReason::measuring;
  }
  const StopReason reason = decide(rule_, samples, elapsed);
  if (reason == StopReason::measuring) {
    next_check_ = n + std::max<std::size_t>(1, n / 8);
  }
  return reason;
}

}  // namespace h2d
