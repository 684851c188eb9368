#pragma once

#include <stdexcept>
#include <string>

#include "harness/suite/family.hpp"

namespace h2d {

// A case that cannot run with this machine or selection (it needs two GPUs and one is selected,
// two NUMA nodes and there is one, memory it cannot place): run_case records it as skipped with
// this reason, and the run goes on.
class CaseSkipped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A case that says, in the report's skipped_cases, what a family could not do here and why (e.g.
// multi/scatter/gpus=several when one GPU is selected): its body throws CaseSkipped(reason).
BenchmarkCase skipped_case(const std::string& name, const std::string& reason);

}  // namespace h2d
