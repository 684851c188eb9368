#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/text_wrap.hpp"

namespace h2d {

// What a person reads of one case while a run goes: its name, its primary figure, how well the
// median is known and the one note that matters. The report keeps every counter; this is the
// terminal's view of it (`run --console full` shows Google Benchmark's whole table instead).
struct CaseRow {
  enum class Outcome { measured, skipped, failed };

  std::string name;  // the report's name, never cut: it is what timelines and compare show
  Outcome outcome = Outcome::measured;
  std::optional<double> value;       // the family's primary metric
  std::string unit;                  // "GB/s", "samples/s", "us"
  std::optional<double> rel_ci_pct;  // half the median's 95% interval, in % of it
  std::string note;                  // e.g. "time cap", "bound by the GPU step"; may be cut
  std::string problem;               // why it was skipped or failed; wrapped, never cut
};

// The lines of `row`, none wider than `width` columns (counted in UTF-8 code points): the name
// then the figure on one line when both fit, else the name on lines of its own (broken after a
// '/') and the figure indented under it. A note that does not fit is cut with "...": the report
// has it whole. A problem is wrapped at spaces onto as many indented lines as it needs.
std::vector<std::string> format_case_row(const CaseRow& row, std::size_t width = kTerminalColumns);

}  // namespace h2d
