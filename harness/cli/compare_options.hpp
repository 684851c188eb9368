#pragma once

#include <string>
#include <vector>

#include "harness/report/comparison.hpp"
#include "harness/report/comparison_format.hpp"

namespace h2d {

// `h2dbench compare A.json B.json [C.json ...] [--format F] [--filter REGEX] [--threshold PCT]
// [--fail-on-regression] [--allow-simulated]`, or runs of two machines or builds
// `h2dbench compare A1.json A2.json A3.json --vs B1.json B2.json B3.json [flags]`, parsed. Flags
// take their value as the next word or after '='.
struct CompareCommandOptions {
  // Each side's reports: one report a side without --vs, the runs before and after it with.
  std::vector<std::vector<std::string>> sides;
  CompareFormat format = CompareFormat::table;
  CompareOptions compare;
  bool fail_on_regression = false;
};

// Throws UsageError naming the flag and what is valid; needs at least two reports, and with --vs
// at least one on each side.
CompareCommandOptions parse_compare_options(const std::vector<std::string>& args);

// "5", "5%", "2.5": a percentage in [0, 100). Throws UsageError naming --threshold.
double parse_threshold_pct(const std::string& text);

}  // namespace h2d
