#include "harness/measure/measurement_loop.hpp"

#include <stdexcept>
#include <string>

#include "harness/core/halves_drift.hpp"
#include "harness/core/median_interval.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/measure/counters.hpp"

namespace h2d {

MeasurementLoop::MeasurementLoop(benchmark::State& state, const StoppingRule& rule)
    : state_(state), rule_(rule) {
  if (state_.max_iterations != 1) {  // registration's business (run_selection): one body call
    throw std::logic_error("MeasurementLoop needs its case registered with Iterations(1), not " +
                           std::to_string(state_.max_iterations));
  }
}

void MeasurementLoop::record(double seconds) {
  seconds_.push_back(seconds);
}

bool MeasurementLoop::keep_going() {
  if (!check_) {
    if (!state_.KeepRunning()) {  // Google Benchmark's one iteration: starts its timer
      return false;
    }
    check_.emplace(rule_);
    return true;
  }
  if (seconds_.empty()) {
    throw std::logic_error("a MeasurementLoop iteration recorded no measurement");
  }
  if (stop_requested()) {  // Ctrl-C: skipped as interrupted, like a case that never started
    throw RunInterrupted(std::string("interrupted by ") + stop_requester() + " after " +
                         std::to_string(seconds_.size()) + " measurements");
  }
  reason_ = check_->after(seconds_);
  if (reason_ == StopReason::measuring) {
    return true;
  }
  finish();
  return false;
}

void MeasurementLoop::finish() {
  // The interval it stopped on: the rule's confidence, so that it covers 95% once stopped.
  const MedianInterval interval = median_interval(seconds_, rule_.interval_confidence);
  state_.SetIterationTime(interval.median);
  state_.KeepRunning();  // false: ends Google Benchmark's iteration and stops its timer
  for (const auto& [name, value] : interval_counters(interval)) {
    set_counter(state_, name, value);
  }
  set_counter(state_, "stopped_by", static_cast<double>(reason_));
  if (const auto drift =
          halves_drift(seconds_, rule_.interval_confidence, rule_.target_rel_ci_pct)) {
    // Of the measured time: a rate's shift is the opposite sign, about the same size.
    set_counter(state_, "drift_pct", drift->shift_pct);
    set_counter(state_, "drifting", drift->drifting ? 1 : 0);
  }
}

}  // namespace h2d
