#pragma once

#include <cstddef>
#include <mutex>

namespace h2d {

// The measuring time that cases which knew their median before their time cap did not use, for
// noisy cases that can buy a known median with it (StoppingCheck). A run's cases share one bank,
// so a steady case (pinned copies) lends its time to a noisy one (pageable copies) and the run
// measures no longer than its timed loops times the cap, plus the overruns the bank could not
// cover (overrun_s): a measurement is always taken whole, and one can outlast its case's cap.
class TimeBank {
 public:
  // Adds `seconds`; nothing for zero or less.
  void deposit(double seconds);
  // Takes `seconds` if the balance holds them all; false (and takes nothing) otherwise.
  bool withdraw(double seconds);
  // A loop that ran `seconds` past its cap: paid from the balance as far as it goes, the rest
  // kept as the run's overrun. Nothing for zero or less.
  void charge_overrun(double seconds);
  double balance() const;
  // What overruns the balance could not pay, and how many loops ran them.
  double overrun_s() const;
  std::size_t overruns() const;

 private:
  mutable std::mutex mutex_;  // shared by every case of a run, whichever thread measures
  double balance_s_ = 0;
  double overrun_s_ = 0;
  std::size_t overruns_ = 0;
};

}  // namespace h2d
