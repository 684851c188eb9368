#include "harness/measure/measurement_loop.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "harness/core/median_interval.hpp"
#include "harness/core/stop_signal.hpp"

namespace h2d {

MeasurementLoop::MeasurementLoop(benchmark::State& state, const StoppingRule& rule)
    : state_(state), rule_(rule) {
  if (state_.max_iterations != 1) {  // registration's business (run_selection): one body call
    throw std::logic_error("MeasurementLoop needs its case registered with Iterations(1), not " +
                           std::to_string(state_.max_iterations));
  }
  next_check_ = std::max<std::size_t>(1, std::min(rule_.min_measurements, rule_.max_measurements));
}

void MeasurementLoop::record(double seconds) {
  seconds_.push_back(seconds);
}

bool MeasurementLoop::keep_going() {
  if (!started_) {
    started_ = true;
    if (!state_.KeepRunning()) {  // Google Benchmark's one iteration: starts its timer
      return false;
    }
    first_ = std::chrono::steady_clock::now();
    return true;
  }
  if (seconds_.empty()) {
    throw std::logic_error("a MeasurementLoop iteration recorded no measurement");
  }
  if (stop_requested()) {  // Ctrl-C: skipped as interrupted, like a case that never started
    throw RunInterrupted(std::string("interrupted by ") + stop_requester() + " after " +
                         std::to_string(seconds_.size()) + " measurements");
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - first_).count();
  const std::size_t n = seconds_.size();
  // The interval sorts the samples: asked at the floor, then each time the count grew by an
  // eighth, and at every measurement once past a cap.
  const bool due = n >= next_check_ || elapsed >= rule_.cap_seconds() || rule_.exact_measurements;
  if (!due) {
    return true;
  }
  reason_ = decide(rule_, seconds_, elapsed);
  if (reason_ == StopReason::measuring) {
    next_check_ = n + std::max<std::size_t>(1, n / 8);
    return true;
  }
  finish();
  return false;
}

void MeasurementLoop::finish() {
  const MedianInterval interval = median_interval(seconds_);
  state_.SetIterationTime(interval.median);
  state_.KeepRunning();  // false: ends Google Benchmark's iteration and stops its timer
  for (const auto& [name, value] : interval_counters(interval)) {
    state_.counters[name] = value;
  }
  state_.counters["stopped_by"] = static_cast<double>(reason_);
}

}  // namespace h2d
