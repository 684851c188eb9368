#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "harness/core/stopping_rule.hpp"

namespace h2d {

// Asks a StoppingRule after each measurement, cheaply: the rule's interval sorts the samples, so
// it is computed at the rule's floor, then each time the count grew by an eighth, and at every
// measurement once past the time cap. The clock starts when the check is made.
class StoppingCheck {
 public:
  explicit StoppingCheck(const StoppingRule& rule);

  // Why to stop after `samples` (all measurements so far), or StopReason::measuring.
  StopReason after(const std::vector<double>& samples);

 private:
  StoppingRule rule_;
  std::chrono::steady_clock::time_point first_;
  std::size_t next_check_ = 1;
};

}  // namespace h2d
