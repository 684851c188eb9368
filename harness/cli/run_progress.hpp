#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace h2d {

// "N of M cases done" while a run goes, so a default run (minutes) is not silent between the
// rows of the table: a line at every tenth of the cases, and when a minute passed without one
// (pipeline cases are long). The estimate is the pace so far applied to the cases left, and says
// so; it is shown once three cases have completed.
class RunProgress {
 public:
  explicit RunProgress(std::size_t total_cases);

  // A case completed `elapsed_s` seconds after the run started. Returns the line to print now
  // (with its newline), or nothing when it is not time for one.
  std::optional<std::string> case_done(double elapsed_s);

  std::size_t done() const { return done_; }

 private:
  std::size_t total_;
  std::size_t done_ = 0;
  std::size_t next_step_;  // the next done() count that earns a line
  double last_line_s_ = 0;
};

// "24 of 240 cases done (10%) in 1 min 2 s; about 9 min 18 s left at this pace".
std::string progress_line(std::size_t done, std::size_t total, double elapsed_s);

// "9 min 18 s", "31 s", "1 h 5 min".
std::string rough_duration(double seconds);

}  // namespace h2d
