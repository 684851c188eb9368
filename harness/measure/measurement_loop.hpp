#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "harness/core/stopping_check.hpp"
#include "harness/core/stopping_rule.hpp"

namespace h2d {

// The loop every case measures in, instead of Google Benchmark's own: a case registered with one
// iteration runs
//
//   MeasurementLoop loop(state, context.stopping_rule);
//   for (auto _ : loop) {
//     loop.record(seconds_of_this_measurement);
//   }
//
// and the loop goes on until its StoppingRule says the median is known (or a cap).
// When it ends it hands Google Benchmark the median measurement as the iteration's manual time and
// writes the counters every case reports: `measurements`, `rel_ci_pct` (half the 95% interval of
// the median, in % of it), `stopped_by` (StopReason as a number: 1 median known, 2 time cap,
// 3 count cap, 4 exact count) and, from 12 measurements, `drift_pct` and `drifting` (the halves
// of its measurements disagree: harness/core/halves_drift); Ctrl-C throws RunInterrupted. Each
// iteration must record exactly one measurement.
class MeasurementLoop {
 public:
  MeasurementLoop(benchmark::State& state, const StoppingRule& rule);
  MeasurementLoop(const MeasurementLoop&) = delete;
  MeasurementLoop& operator=(const MeasurementLoop&) = delete;

  // One measurement, in seconds: what Google Benchmark's SetIterationTime was given before.
  void record(double seconds);

  std::size_t measurements() const { return seconds_.size(); }
  // Why the loop ended (measuring while it runs).
  StopReason stop_reason() const { return reason_; }

  struct Sentinel {};
  struct [[maybe_unused]] Value {};  // `for (auto _ : loop)` without an unused-variable warning
  class Iterator {
   public:
    explicit Iterator(MeasurementLoop& loop) : loop_(&loop) {}
    bool operator!=(Sentinel) { return loop_->keep_going(); }
    void operator++() {}
    Value operator*() const { return {}; }

   private:
    MeasurementLoop* loop_;
  };
  Iterator begin() { return Iterator(*this); }
  Sentinel end() { return {}; }

 private:
  bool keep_going();
  void finish();

  benchmark::State& state_;
  StoppingRule rule_;
  std::vector<double> seconds_;
  std::optional<StoppingCheck> check_;  // made when Google Benchmark's iteration starts
  StopReason reason_ = StopReason::measuring;
};

}  // namespace h2d
