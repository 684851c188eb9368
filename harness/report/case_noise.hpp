#pragma once

#include <optional>
#include <string>

#include "harness/report/report_cases.hpp"
#include "harness/report/verdict.hpp"

namespace h2d {

// The repetitions of a case's figure of `metric` (its run_type "iteration" entries), as compare
// and the summary judge them (harness/report/verdict).
Repetitions repetitions_of(const ReportCase& c, const std::string& metric);

// Half the within-run 95% interval of a case's one figure of `metric`, for the summary's ties
// between cases of one run; nullopt when the run measured no spread (one measurement or
// iteration) or says nothing of it (a damaged counter is none).
//  - With the stopping rule's counters (`rel_ci_pct` over 2 or more `measurements`), the
//    distribution-free interval of the median, carried over to the figure the median gives
//    (a rate from a time: the same share either way); the figure's own interval instead where the
//    case wrote one (figure_interval_counter: h2d/batch's GB_per_s, the copy segment's rate).
//  - In older reports, from `cv_pct` over `iterations`, the interval of a mean (1.96 cv /
//    sqrt(iterations)).
// compare does not use it: on the 2-core VM two runs minutes apart put 25 of 63 host cases more
// than 5% apart although each knew its median within about 1% (2026-12-07); a run's interval
// says how well that run knew its median, not how far the next run will land.
std::optional<double> within_run_half_interval(const ReportCase& c, const std::string& metric);

}  // namespace h2d
