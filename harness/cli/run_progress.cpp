#include "harness/cli/run_progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace h2d {
namespace {

constexpr double kQuietLimit_s = 60;  // the longest a run goes without a progress line
constexpr std::size_t kCasesBeforeEstimate = 3;

std::size_t tenth_of(std::size_t total) {
  return total < 10 ? 1 : (total + 9) / 10;
}

}  // namespace

RunProgress::RunProgress(std::size_t total_cases)
    : total_(total_cases), next_step_(tenth_of(total_cases)) {}

std::optional<std::string> RunProgress::case_done(double elapsed_s) {
  ++done_;
  // Few cases: the table's rows say it all. The last case: the verdict follows at once.
  if (total_ < 10 || done_ >= total_) {
    return std::nullopt;
  }
  const bool step = done_ >= next_step_;
  const bool quiet_too_long = elapsed_s - last_line_s_ >= kQuietLimit_s;
  if (!step && !quiet_too_long) {
    return std::nullopt;
  }
  while (next_step_ <= done_) {
    next_step_ += tenth_of(total_);
  }
  last_line_s_ = elapsed_s;
  return "h2dbench: " + progress_line(done_, total_, elapsed_s) + "\n";
}

std::string progress_line(std::size_t done, std::size_t total, double elapsed_s) {
  const double share = total == 0 ? 0 : static_cast<double>(done) / static_cast<double>(total);
  std::string line = fmt::format("{} of {} cases done ({:.0f}%) in {}", done, total, 100 * share,
                                 rough_duration(elapsed_s));
  if (done >= kCasesBeforeEstimate && done < total) {
    const double left_s = elapsed_s / static_cast<double>(done) * static_cast<double>(total - done);
    line += fmt::format("; about {} left at this pace", rough_duration(left_s));
  }
  return line;
}

std::string rough_duration(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  if (total == 0 && seconds > 0) {
    return "under 1 s";  // "0 s" read as nothing to do
  }
  if (total < 60) {
    return fmt::format("{} s", total);
  }
  if (total < 3600) {
    return fmt::format("{} min {} s", total / 60, total % 60);
  }
  return fmt::format("{} h {} min", total / 3600, (total % 3600) / 60);
}

}  // namespace h2d
