#pragma once

#include <stdexcept>

namespace h2d {

// A case that cannot run with this machine or selection (it needs two GPUs and one is selected,
// two NUMA nodes and there is one, memory it cannot place): run_case records it as skipped with
// this reason, and the run goes on.
class CaseSkipped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace h2d
