#pragma once

#include <optional>
#include <string>

#include "harness/report/report_cases.hpp"
#include "harness/report/verdict.hpp"

namespace h2d {

// What a case's figures of `metric` say of their noise, for compare's judgement and the summary's
// ties: its repetitions, and with one repetition the within-run 95% interval of its figure.
//  - With the stopping rule's counters (`rel_ci_pct` over 2 or more `measurements`), the
//    distribution-free interval of the median, carried over to the figure the median gives
//    (a rate from a time: the same share either way).
//  - In older reports, from `cv_pct` over `iterations`, the interval of a mean (1.96 cv /
//    sqrt(iterations)) where `with_mean_interval`: the summary uses it for ties within one run;
//    compare does not, as it judges machines apart and a cv does not narrow with samples.
Repetitions repetitions_of(const ReportCase& c, const std::string& metric,
                           bool with_mean_interval = false);

}  // namespace h2d
