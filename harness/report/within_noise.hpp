#pragma once

#include "harness/report/primary_metric.hpp"
#include "harness/report/report_cases.hpp"

namespace h2d {

// Whether the verdict may call one of two cases better: false when their figures of `metric` are
// not distinguishable. In order of what the cases have:
//  - repetitions on both sides (2 or more): compare's judgement (harness/report/verdict.hpp: a
//    Mann-Whitney U test from 5 repetitions, else whether the repetitions' ranges overlap);
//  - one repetition with a within-run cv_pct over its iterations: whether the 95% confidence
//    intervals of the two means (1.96 cv / sqrt(iterations) around each) overlap;
//  - nothing on the noise: figures within 1% of each other.
bool within_noise(const ReportCase& a, const ReportCase& b, const PrimaryMetric& metric);

}  // namespace h2d
