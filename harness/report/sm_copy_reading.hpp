#pragma once

#include <string>
#include <vector>

#include "harness/report/primary_metric.hpp"
#include "harness/report/report_cases.hpp"

namespace h2d {

// Where copies by the SMs (h2d/memory engine=sm) beat the copy engine, each beside the same case
// without engine=sm, one line for each direction and memory kind:
// "engine=sm dir=h2d kind=pinned: faster than the copy engine at 4KiB, 16KiB (up to 1.31x),
//  holding 132 SMs while it copies; the copy engine at the other 4 sizes"
// or "... : the copy engine is as fast or faster at all 6 sizes". Within noise is no win. Empty
// where the cases hold no engine=sm pair.
std::vector<std::string> sm_copy_readings(const std::vector<const ReportCase*>& cases,
                                          const PrimaryMetric& metric);

}  // namespace h2d
