#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "harness/core/stopping_rule.hpp"

namespace h2d {

// Asks a StoppingRule after each measurement, cheaply: the rule's interval sorts the samples, so
// it is computed at the rule's floor, then each time the count grew by an eighth, and at every
// measurement once past the time cap. The clock starts when the check is made.
//
// With the rule's TimeBank, a case at its cap whose median the bank's time can make known
// (projected_seconds) takes that time and goes on; when it stops, what it did not use of its cap
// and of what it took goes back to the bank, and what it ran past them is charged to it.
class StoppingCheck {
 public:
  explicit StoppingCheck(const StoppingRule& rule);

  // Why to stop after `samples` (all measurements so far), or StopReason::measuring.
  StopReason after(const std::vector<double>& samples);
  // The same, `elapsed_s` after the first measurement began (tests give their own clock).
  StopReason after(const std::vector<double>& samples, double elapsed_s);

  // The time cap now: the rule's, plus what was taken from the bank.
  double cap_seconds() const { return rule_.cap_seconds(); }

 private:
  // At the cap: takes from the bank what the median needs, if it can; true when it did.
  bool extend(const std::vector<double>& samples, double elapsed_s);

  StoppingRule rule_;
  double most_cap_s_ = 0;  // the rule's cap times its most_cap_multiple
  std::chrono::steady_clock::time_point first_;
  std::size_t next_check_ = 1;
};

}  // namespace h2d
