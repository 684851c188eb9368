#pragma once

#include <string>

#include "harness/core/case_skipped.hpp"
#include "harness/suite/family.hpp"

namespace h2d {

// A case that says, in the report's skipped_cases, what a family could not do here and why (e.g.
// multi/scatter/gpus=several when one GPU is selected): its body throws CaseSkipped(reason).
BenchmarkCase skipped_case(const std::string& name, const std::string& reason);

}  // namespace h2d
