#pragma once

#include <string>
#include <vector>

#include "harness/report/comparison.hpp"
#include "harness/report/comparison_format.hpp"

namespace h2d {

// `h2dbench compare A.json B.json [C.json ...] [--format F] [--filter REGEX] [--threshold PCT]
// [--fail-on-regression] [--allow-simulated]`, parsed. Flags take their value as the next word or
// after '='.
struct CompareCommandOptions {
  std::vector<std::string> reports;
  CompareFormat format = CompareFormat::table;
  CompareOptions compare;
  bool fail_on_regression = false;
};

// Throws UsageError naming the flag and what is valid; needs at least two reports.
CompareCommandOptions parse_compare_options(const std::vector<std::string>& args);

// "5", "5%", "2.5": a percentage in [0, 100). Throws UsageError naming --threshold.
double parse_threshold_pct(const std::string& text);

}  // namespace h2d
