#pragma once

#include <functional>
#include <vector>

#include "harness/core/stopping_rule.hpp"

namespace h2d {

// A yardstick measured beside a case (staging's pinned reference, the streams family's serial
// phases) under the case's own StoppingRule: `measure_once` returns one measurement in seconds and
// is called until the rule stops (median known, or its cap). A fixed handful of samples is what a
// passing burst of load on the machine can skew; the rule gives the yardstick as many samples as
// the case it is compared with. Returns every measurement, in order.
std::vector<double> measure_by_rule(const StoppingRule& rule,
                                    const std::function<double()>& measure_once);

}  // namespace h2d
