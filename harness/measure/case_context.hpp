#pragma once

#include <chrono>
#include <memory>

#include "harness/core/latch_policy.hpp"
#include "harness/core/stopping_rule.hpp"

namespace h2d {

class RunImages;  // harness/decode/run_images.hpp

// What a run decides for every case it runs, handed to each case body (harness/suite/family:
// BenchmarkCase::body) instead of process globals: a case, and a test of it, sees only this.
struct CaseContext {
  StoppingRule stopping_rule;  // when the case's MeasurementLoop stops
  // Whether the case's latches hold their streams: the run's startup decision (probe, --profile).
  Latching latching = Latching::on;
  // A pipeline case stops, failed, when no batch completes for this long (--watchdog).
  std::chrono::duration<double> pipeline_watchdog{30.0};
  // What the decode cases decode: the plan's image set (--images or the generated tiles).
  std::shared_ptr<const RunImages> images;
};

}  // namespace h2d
