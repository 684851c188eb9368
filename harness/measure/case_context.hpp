#pragma once

#include "harness/core/stopping_rule.hpp"

namespace h2d {

// What a run decides for every case it runs, handed to each case body (harness/suite/family:
// BenchmarkCase::body) instead of process globals: a case, and a test of it, sees only this.
struct CaseContext {
  StoppingRule stopping_rule;  // when the case's MeasurementLoop stops
};

}  // namespace h2d
