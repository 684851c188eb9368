#pragma once

#include <chrono>

#include "harness/core/latch_policy.hpp"
#include "harness/core/stopping_rule.hpp"

namespace h2d {

// What a run decides for every case it runs, handed to each case body (harness/suite/family:
// BenchmarkCase::body) instead of process globals: a case, and a test of it, sees only this.
struct CaseContext {
  StoppingRule stopping_rule;  // when the case's MeasurementLoop stops
  // Whether the case's latches hold their streams: the run's startup decision (probe, --profile).
  Latching latching = Latching::on;
  // A pipeline case stops, failed, when no batch completes for this long (--watchdog).
  std::chrono::duration<double> pipeline_watchdog{30.0};
};

}  // namespace h2d
