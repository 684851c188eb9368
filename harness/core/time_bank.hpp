#pragma once

#include <mutex>

namespace h2d {

// The measuring time that cases which knew their median before their time cap did not use, for
// noisy cases that can buy a known median with it (StoppingCheck). A run's cases share one bank,
// so a steady case (pinned copies) lends its time to a noisy one (pageable copies) and the run
// measures no longer than its case count times the cap.
class TimeBank {
 public:
  // Adds `seconds`; nothing for zero or less.
  void deposit(double seconds);
  // Takes `seconds` if the balance holds them all; false (and takes nothing) otherwise.
  bool withdraw(double seconds);
  double balance() const;

 private:
  mutable std::mutex mutex_;  // shared by every case of a run, whichever thread measures
  double balance_s_ = 0;
};

}  // namespace h2d
